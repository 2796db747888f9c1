import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/platform/errors.js';
import { createLogger } from '../src/platform/logger.js';
import { KeyedMutex, MemoryVolumeLock, PgVolumeLock } from '../src/platform/volume-lock.js';

/** The per-volume section behind the two-writer rule (issue 11, finding 3). */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `n` sections on one key at once; each records when it was inside, to find overlaps. */
async function overlaps(hold: (fn: () => Promise<void>) => Promise<void>, n: number): Promise<number> {
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: n }, () =>
      hold(async () => {
        inside++;
        most = Math.max(most, inside);
        await sleep(5);
        inside--;
      }),
    ),
  );
  return most;
}

describe('KeyedMutex and MemoryVolumeLock', () => {
  it('lets one holder in at a time per volume, in arrival order, and volumes apart in parallel', async () => {
    const lock = new MemoryVolumeLock();
    expect(await overlaps((fn) => lock.hold(['v1'], fn), 10)).toBe(1);
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3].map((i) => lock.hold(['v1'], async () => void order.push(i))));
    expect(order).toEqual([0, 1, 2, 3]);
    expect(await lock.hold(['a'], () => lock.hold(['b'], async () => 'both'))).toBe('both');
  });

  it('releases the section when the holder throws', async () => {
    const lock = new MemoryVolumeLock();
    await expect(lock.hold(['v'], async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lock.hold(['v'], async () => 'next')).toBe('next');
  });

  it('answers a waiter that waits too long with the typed 503, without blocking those behind it', async () => {
    const mutex = new KeyedMutex();
    const release = await mutex.acquire('v', 1000);
    const impatient = mutex.acquire('v', 20).catch((e: unknown) => e);
    const patient = mutex.acquire('v', 1000);
    const err = await impatient;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, code: 'volume_busy' });
    release();
    const next = await patient;
    next();
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)(
  'PgVolumeLock (needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)',
  () => {
    const logger = createLogger('silent');
    const namespace = `vl-test-${randomBytes(4).toString('hex')}`;
    const locks: PgVolumeLock[] = [];
    const make = (waitMs = 5_000) => {
      const l = new PgVolumeLock(url!, logger, { namespace, waitMs });
      locks.push(l);
      return l;
    };
    afterAll(async () => {
      await Promise.all(locks.map((l) => l.close()));
    });

    it('keeps two processes (two pools) to one holder at a time per volume', async () => {
      const [a, b] = [make(), make()];
      expect(await overlaps((fn) => (Math.random() < 0.5 ? a : b).hold(['v1'], fn), 12)).toBe(1);
    });

    it('answers 503 volume_busy when another process holds the volume past the wait', async () => {
      const [a, b] = [make(), make(300)];
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      const holding = a.hold(['v2'], () => held);
      await sleep(100);
      const err = await b.hold(['v2'], async () => 'never').catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503, code: 'volume_busy' });
      release();
      await holding;
      expect(await b.hold(['v2'], async () => 'free again')).toBe('free again');
    });

    it('lets go when its connection dies mid-section, and the process survives', async () => {
      const [a, b] = [make(), make()];
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const result = await a.hold(['v3'], async () => {
          // Whoever holds our advisory lock: terminate that backend, as a failover would.
          const killed = await admin.query(
            `select pg_terminate_backend(pid) as killed from pg_locks
             where locktype = 'advisory' and granted and objsubid = 1
               and objid = (hashtextextended($1, 0) & x'ffffffff'::bigint)::oid`,
            [`${namespace}:v3`],
          );
          expect(killed.rows).toEqual([{ killed: true }]);
          // The lock went with the connection: the other process gets in while this one is still inside.
          return b.hold(['v3'], async () => 'taken over');
        });
        expect(result).toBe('taken over');
        // And the first one still works, on a fresh connection.
        expect(await a.hold(['v3'], async () => 'again')).toBe('again');
      } finally {
        await admin.end();
      }
    });

    it('answers 503 database_unavailable when PostgreSQL cannot be reached', async () => {
      const lock = new PgVolumeLock('postgres://postgres@127.0.0.1:9/none', logger, { namespace });
      locks.push(lock);
      const err = await lock.hold(['v4'], async () => 'never').catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503, code: 'database_unavailable' });
    });
  },
);
