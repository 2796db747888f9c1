import type pg from 'pg';
import { ApiError } from './errors.js';
import type { Logger } from './logger.js';
import { createPgPool } from './pg-pool.js';

/**
 * A critical section per volume, for rules that read a volume's holders and then add one (the
 * two-writer acknowledgement): without it two requests both read "no writer" and both attach.
 * In one process an in-memory mutex per volume is enough; several BFF processes on one
 * PostgreSQL agree through an advisory lock held on one pooled connection for the section.
 */
export interface VolumeLock {
  /** Runs `fn` while holding the section of every one of these volumes (taken in id order). */
  hold<T>(volumeIds: readonly string[], fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long a request waits for a section before it is told to try again. */
export const DEFAULT_LOCK_WAIT_MS = 15_000;

export const volumeBusy = () =>
  new ApiError(
    503,
    'volume_busy',
    'Another change to this volume is taking longer than expected. Try again in a moment.',
  );

const databaseUnavailable = () =>
  new ApiError(
    503,
    'database_unavailable',
    "The dashboard's database cannot be reached right now, so volumes cannot be attached safely. Try again in a moment.",
  );

const sortedUnique = (ids: readonly string[]) => [...new Set(ids)].sort();

/**
 * A mutex per key, first come first served. A waiter that gives up keeps its place in the queue
 * only until its predecessor is done, so one timeout never blocks those behind it.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  /** Resolves with the release function once `key` is ours; rejects with `volumeBusy` after `waitMs`. */
  async acquire(key: string, waitMs: number): Promise<() => void> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), waitMs);
    });
    const outcome = await Promise.race([previous.then(() => 'ours' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      // Pass the turn on as soon as it comes.
      void previous.then(release);
      throw volumeBusy();
    }
    return release;
  }

  /** Holds every key (in the order given) for the duration of `fn`. */
  async hold<T>(keys: readonly string[], waitMs: number, fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + waitMs;
    const releases: (() => void)[] = [];
    try {
      for (const key of keys) releases.push(await this.acquire(key, Math.max(0, deadline - Date.now())));
      return await fn();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }
}

/** The section for a BFF without a database: one process, so an in-memory mutex per volume. */
export class MemoryVolumeLock implements VolumeLock {
  readonly #mutex = new KeyedMutex();
  constructor(private readonly waitMs = DEFAULT_LOCK_WAIT_MS) {}

  hold<T>(volumeIds: readonly string[], fn: () => Promise<T>): Promise<T> {
    return this.#mutex.hold(sortedUnique(volumeIds), this.waitMs, fn);
  }

  async close(): Promise<void> {}
}

export interface PgVolumeLockOptions {
  waitMs?: number;
  /** Prefix of the lock keys: processes agree only when they use the same one. */
  namespace?: string;
}

/**
 * The section shared by every BFF process on one PostgreSQL: a transaction-scoped advisory lock
 * per volume, so a process that dies or loses its connection lets go at once. Requests of one
 * process queue on the in-memory mutex first, so a burst on one volume costs one connection.
 */
export class PgVolumeLock implements VolumeLock {
  readonly #pool: pg.Pool;
  readonly #local = new KeyedMutex();
  readonly #waitMs: number;
  readonly #namespace: string;

  constructor(
    url: string,
    private readonly logger: Logger,
    opts: PgVolumeLockOptions = {},
  ) {
    this.#pool = createPgPool(url, logger, { max: 5, allowExitOnIdle: true });
    this.#waitMs = opts.waitMs ?? DEFAULT_LOCK_WAIT_MS;
    this.#namespace = opts.namespace ?? 'sv-volume';
  }

  hold<T>(volumeIds: readonly string[], fn: () => Promise<T>): Promise<T> {
    const ids = sortedUnique(volumeIds);
    const deadline = Date.now() + this.#waitMs;
    return this.#local.hold(ids, this.#waitMs, () => this.#holdShared(ids, deadline, fn));
  }

  async #holdShared<T>(ids: string[], deadline: number, fn: () => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, 'volume lock: no database connection');
      throw databaseUnavailable();
    }
    let broken: Error | undefined;
    // A checked-out client reports a dropped connection on itself, not on the pool: unheard, it
    // would end the process.
    const onError = (err: Error) => {
      broken = err;
      this.logger.warn({ err: { message: err.message } }, 'volume lock: connection lost during a section');
    };
    client.on('error', onError);
    try {
      const waitMs = Math.max(1, deadline - Date.now());
      try {
        await client.query('BEGIN');
        // lock_timeout bounds the wait; the pool's statement timeout must not cut it shorter.
        await client.query(`SET LOCAL lock_timeout = ${waitMs}`);
        await client.query(`SET LOCAL statement_timeout = ${waitMs + 5_000}`);
        for (const id of ids) {
          await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `${this.#namespace}:${id}`,
          ]);
        }
      } catch (err) {
        // 55P03: lock_timeout, another process held the volume for too long.
        if ((err as { code?: string }).code === '55P03') {
          await client.query('ROLLBACK').catch(() => undefined);
          throw volumeBusy();
        }
        broken = err as Error;
        this.logger.warn({ err: { message: broken.message } }, 'volume lock: database failed');
        throw databaseUnavailable();
      }
      try {
        return await fn();
      } finally {
        // Ending the transaction releases the advisory locks.
        await client.query('COMMIT').catch((err: Error) => {
          broken = err;
        });
      }
    } finally {
      client.off('error', onError);
      // A connection that failed is not handed back for reuse.
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}

/** The section a BFF needs: shared through PostgreSQL when it has one, else in memory. */
export function volumeLockFor(databaseUrl: string | null, logger: Logger): VolumeLock {
  return databaseUrl ? new PgVolumeLock(databaseUrl, logger) : new MemoryVolumeLock();
}
