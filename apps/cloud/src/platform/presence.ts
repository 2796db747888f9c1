import pg from 'pg';
import { PG_TIMEOUTS } from './db/store.js';
import { databaseFault, describeDatabaseError } from './db/unavailable.js';
import type { Logger } from './logger.js';
import { type RetryPolicy, retryDelayMs, type TaskRunner, type TaskSubject } from './tasks.js';

/**
 * Several cloud processes may share one PostgreSQL database. The work each one has in flight (a
 * server building, a volume being created, an accepted detach) lives in its memory, so a reconcile
 * must only take over work no live process owns:
 * - every process holds a shared advisory lock for its lifetime, on a connection of its own (the
 *   server drops it the moment the process dies, kill -9 included);
 * - a reconcile runs only under the exclusive lock on the same key, which it gets only when no
 *   other process holds the shared one: it is alone, so every in-flight row is either its own or
 *   a dead process's;
 * - at start nothing is its own yet, so it takes over everything; later (`startTakeover`) it
 *   leaves alone what its own scheduled tasks cover.
 * A process that starts next to a live one skips the start reconcile, and takes over once alone.
 * SQLite has one process per database file: it is always alone.
 */

/** Which in-flight work a reconcile may take over. */
export interface ReconcileScope {
  /** Whether the work on this subject is this reconcile's to move on. */
  claims(subject: TaskSubject): boolean;
  /** A process start (no work of its own in flight yet) rather than a takeover while running. */
  atStart: boolean;
}

export const BOOT_SCOPE: ReconcileScope = { claims: () => true, atStart: true };

export interface Presence {
  /** Whether other processes may share the database (PostgreSQL). */
  readonly shared: boolean;
  /** Runs `work` only while no other live process shares the database; false when it did not run. */
  whenAlone(work: () => Promise<void>): Promise<boolean>;
  /** Leaves the database: others may then take over this process's work. */
  close(): Promise<void>;
}

/** First half of the advisory lock key ("SVCL"); the second is the schema's hash. */
const LOCK_CLASS = 0x5356434c;
const KEY = `$1, hashtext(current_schema())`;

const alwaysAlone: Presence = {
  shared: false,
  async whenAlone(work) {
    await work();
    return true;
  },
  async close() {},
};

/** How soon a lost presence connection is opened again (it marks this process alive to the others). */
const RECONNECT: RetryPolicy = { baseMs: 250, maxMs: 10_000 };

/**
 * Marks this process alive on the database (blocks while another process is reconciling). If the
 * connection that holds the mark is lost (a restart, pg_terminate_backend, a network cut), it is
 * opened again in the background, with backoff, until it is back or the process leaves: while it
 * is gone, other processes may take this one for dead and take over its work (every step re-checks
 * the state it moves on, so work done twice is done once).
 */
export async function joinDatabase(
  url: string,
  options: { pgSchema?: string },
  logger: Logger,
): Promise<Presence> {
  if (!/^postgres(ql)?:\/\//.test(url)) return alwaysAlone;
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let reconnecting = false;
  let running = false;
  let closed = false;

  const connect = async (): Promise<pg.Client> => {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
      keepAlive: true,
      ...(options.pgSchema ? { options: `-c search_path="${options.pgSchema}"` } : {}),
    });
    c.on('error', (err) => lose(c, err));
    try {
      await c.connect();
      await c.query(`select pg_advisory_lock_shared(${KEY})`, [LOCK_CLASS]);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      throw new Error('left the database');
    }
    client = c;
    return c;
  };
  const connected = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= connect().finally(() => {
      connecting = null;
    });
    return connecting;
  };
  const lose = (c: pg.Client, err: unknown) => {
    if (client !== c) return;
    client = null;
    // Until it is back, other processes may take this one for dead.
    logger.warn(
      { err: describeDatabaseError(err) },
      'lost the connection that marks this cloud process alive',
    );
    void c.end().catch(() => undefined);
    void reconnect();
  };
  const reconnect = async () => {
    if (reconnecting) return;
    reconnecting = true;
    try {
      for (let attempt = 1; !closed && !client; attempt++) {
        await new Promise((r) => setTimeout(r, retryDelayMs(RECONNECT, attempt)).unref());
        if (closed) return;
        try {
          await connected();
          logger.info({ attempt }, 'this cloud process is marked alive on the database again');
        } catch (err) {
          logger.warn(
            { err: describeDatabaseError(err), attempt },
            'cannot mark this cloud process alive yet',
          );
        }
      }
    } finally {
      reconnecting = false;
    }
  };
  await connected();

  return {
    shared: true,
    async whenAlone(work) {
      if (running || closed) return false;
      running = true;
      try {
        const c = await connected();
        let alone: boolean;
        try {
          // Only this query times out: taking the shared lock may rightly wait for a long reconcile.
          // (node-postgres reads a per-query query_timeout; its types do not list it.)
          const res = await c.query<{ alone: boolean }>({
            text: `select pg_try_advisory_lock(${KEY}) as alone`,
            values: [LOCK_CLASS],
            query_timeout: PG_TIMEOUTS.queryMs,
          } as pg.QueryConfig);
          alone = res.rows[0]?.alone === true;
        } catch (err) {
          // A frozen network times the query out without an error event: the connection is no good.
          if (databaseFault(err) === 'connection-lost') lose(c, err);
          throw err;
        }
        if (!alone) return false;
        try {
          await work();
        } finally {
          await c.query(`select pg_advisory_unlock(${KEY})`, [LOCK_CLASS]).catch(() => undefined);
        }
        return true;
      } finally {
        running = false;
      }
    },
    async close() {
      closed = true;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * One look of a takeover, to call again and again: when alone on the database, takes over
 * in-flight work that no task of this process covers and that was already uncovered at the
 * previous look (a request may have committed its rows and not yet scheduled their work).
 */
export function takeoverLooks(
  presence: Presence,
  tasks: TaskRunner,
  reconcile: (scope: ReconcileScope) => Promise<void>,
  logger: Logger,
): () => Promise<void> {
  let suspects = new Set<TaskSubject>();
  return async () => {
    const previous = suspects;
    const seen = new Set<TaskSubject>();
    const scope: ReconcileScope = {
      atStart: false,
      claims(subject) {
        if (tasks.covers(subject)) return false;
        seen.add(subject);
        return previous.has(subject);
      },
    };
    try {
      // Another live process may own whatever looked orphaned: start the two looks again.
      suspects = (await presence.whenAlone(() => reconcile(scope))) ? seen : new Set();
    } catch (err) {
      suspects = new Set();
      // The database being away is not this process's fault: the next look tries again.
      if (databaseFault(err)) logger.warn({ err: describeDatabaseError(err) }, 'takeover look skipped');
      else logger.error({ err }, 'taking over work of a dead cloud process failed');
    }
  };
}

/** Runs `takeoverLooks` every `intervalMs`. Returns a function that stops it (after a look in progress). */
export function startTakeover(
  presence: Presence,
  tasks: TaskRunner,
  intervalMs: number,
  reconcile: (scope: ReconcileScope) => Promise<void>,
  logger: Logger,
): () => Promise<void> {
  const look = takeoverLooks(presence, tasks, reconcile, logger);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> = Promise.resolve();
  const next = () => {
    timer = setTimeout(() => {
      looking = look().then(() => {
        if (!stopped) next();
      });
    }, intervalMs).unref();
  };
  next();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await looking;
  };
}
