import pg from 'pg';
import type { Logger } from './logger.js';
import type { TaskRunner, TaskSubject } from './tasks.js';

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

/** Marks this process alive on the database (blocks while another process is reconciling). */
export async function joinDatabase(
  url: string,
  options: { pgSchema?: string },
  logger: Logger,
): Promise<Presence> {
  if (!/^postgres(ql)?:\/\//.test(url)) return alwaysAlone;
  let client: pg.Client | null = null;
  let running = false;
  let closed = false;

  const connect = async () => {
    const c = new pg.Client({
      connectionString: url,
      ...(options.pgSchema ? { options: `-c search_path="${options.pgSchema}"` } : {}),
    });
    c.on('error', (err) => {
      // Until it is back (next whenAlone), other processes may take this one for dead.
      logger.error({ err }, 'lost the connection that marks this cloud process alive');
      if (client === c) client = null;
    });
    try {
      await c.connect();
      await c.query(`select pg_advisory_lock_shared(${KEY})`, [LOCK_CLASS]);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    client = c;
  };
  await connect();

  return {
    shared: true,
    async whenAlone(work) {
      if (running || closed) return false;
      running = true;
      try {
        if (!client) await connect();
        const c = client as pg.Client | null;
        if (!c) return false;
        const res = await c.query<{ alone: boolean }>(`select pg_try_advisory_lock(${KEY}) as alone`, [
          LOCK_CLASS,
        ]);
        if (!res.rows[0]?.alone) return false;
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
      logger.error({ err }, 'taking over work of a dead cloud process failed');
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
