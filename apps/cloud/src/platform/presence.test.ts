import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { joinDatabase, type Presence, type ReconcileScope, takeoverLooks } from './presence.js';
import { TaskRunner, type TaskSubject } from './tasks.js';

const log = createLogger('silent');

/** A database where this process is alone or not, as the test says. */
function fakePresence() {
  const p = {
    alone: true,
    shared: true,
    async whenAlone(work: () => Promise<void>) {
      if (!p.alone) return false;
      await work();
      return true;
    },
    async close() {},
  };
  return p satisfies Presence;
}

/** A reconcile that finds `inFlight` and records what each look claimed. */
function fakeReconcile(inFlight: TaskSubject[]) {
  const looks: TaskSubject[][] = [];
  return {
    looks,
    reconcile: async (scope: ReconcileScope) => {
      expect(scope.atStart).toBe(false);
      looks.push(inFlight.filter((s) => scope.claims(s)));
    },
  };
}

describe('takeoverLooks', () => {
  it('takes over work uncovered at two looks in a row, never what its own tasks cover', async () => {
    const tasks = new TaskRunner(60_000, log);
    tasks.schedule('mine', async () => undefined, 60_000, 'server:mine');
    const { looks, reconcile } = fakeReconcile(['server:mine', 'server:orphan', 'volume:orphan']);
    const look = takeoverLooks(fakePresence(), tasks, reconcile, log);
    await look();
    await look();
    expect(looks).toEqual([[], ['server:orphan', 'volume:orphan']]);
    tasks.stop();
  });

  it('starts over when another process was alive at a look', async () => {
    const tasks = new TaskRunner(0, log);
    const presence = fakePresence();
    const { looks, reconcile } = fakeReconcile(['server:x']);
    const look = takeoverLooks(presence, tasks, reconcile, log);
    await look();
    presence.alone = false;
    await look();
    presence.alone = true;
    await look();
    await look();
    expect(looks).toEqual([[], [], ['server:x']]);
  });

  it('does not take over work that was covered at the previous look (committed, then scheduled)', async () => {
    const tasks = new TaskRunner(0, log);
    const { looks, reconcile } = fakeReconcile(['server:x']);
    const look = takeoverLooks(fakePresence(), tasks, reconcile, log);
    tasks.schedule('x', async () => undefined, 10_000, 'server:x');
    await look();
    tasks.stop();
    await look();
    await look();
    expect(looks).toEqual([[], [], ['server:x']]);
  });
});

const pgUrl = process.env.CLOUD_TEST_ENGINE === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

describe.runIf(pgUrl)('joinDatabase on PostgreSQL', () => {
  it('marks the process alive again by itself after its connection is terminated', async () => {
    const schema = `p_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    // Who holds this schema's shared presence lock (classid "SVCL", objid the schema's hash).
    const holders = async () =>
      (
        await admin.query<{ pid: number }>(
          `select pid from pg_locks where locktype = 'advisory' and mode = 'ShareLock' and granted
             and classid = 1398162252 and objid = (hashtext($1)::bigint & 4294967295)::oid`,
          [schema],
        )
      ).rows.map((r) => r.pid);
    const presence = await joinDatabase(pgUrl!, { pgSchema: schema }, log);
    try {
      const [first] = await holders();
      expect(first).toBeTypeOf('number');
      await admin.query('select pg_terminate_backend($1)', [first]);
      // No takeover look is needed to come back: nothing calls whenAlone here.
      const deadline = Date.now() + 10_000;
      let now = await holders();
      while (!(now.length === 1 && now[0] !== first) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        now = await holders();
      }
      expect(now).toHaveLength(1);
      expect(now[0]).not.toBe(first);
      expect(await presence.whenAlone(async () => undefined)).toBe(true);
    } finally {
      await presence.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
