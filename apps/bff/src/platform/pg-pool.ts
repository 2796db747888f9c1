import pg from 'pg';
import { ApiError } from './errors.js';
import type { Logger } from './logger.js';

export interface PgPoolOptions {
  /** Most connections this pool opens. */
  max?: number;
  /** Idle connections must not keep a process alive that is otherwise done. */
  allowExitOnIdle?: boolean;
}

/**
 * Every PostgreSQL pool the BFF opens comes from here, so each one survives a connection the server
 * closes (restart, failover, `pg_terminate_backend`, a proxy's idle timeout): without an `error`
 * listener, pg re-throws such an error from an idle client and the process exits.
 */
export function createPgPool(url: string, logger: Logger, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 5,
    allowExitOnIdle: options.allowExitOnIdle ?? false,
    // A frozen network must not hang a request for ever: it answers 503 within about 7 s. Every
    // statement here takes milliseconds; the read timeout is a little longer than the server's.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 5_000,
    query_timeout: 7_000,
    keepAlive: true,
  });
  pool.on('error', (err) => {
    logger.warn(
      { err: { message: err.message, code: (err as { code?: string }).code } },
      'idle database connection lost',
    );
  });
  // A client checked out with pool.connect() has no pool listener: without its own, a connection
  // lost between two of its queries would take the process down.
  pool.on('connect', (client) => {
    client.on('error', (err) => logger.debug({ err: { message: err.message } }, 'database connection lost'));
  });
  return pool;
}

/** PostgreSQL SQLSTATEs that mean "not now" (beyond class 08, connection exception). */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a server stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57P05', // idle_session_timeout
  '25P03', // idle_in_transaction_session_timeout
  '57014', // query_canceled: statement_timeout
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
  '55P03', // lock_not_available
  '58030', // io_error
]);

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres and pg-pool say these in words only. */
const CLIENT_MESSAGES =
  /^(Query read timeout|Connection terminated.*|timeout exceeded when trying to connect|.* is not queryable)$/;

/**
 * Whether `err` says the database is unreachable, too slow or out of resources right now (rather
 * than that the query is wrong): lost or refused connections, timeouts, a server shutting down.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift() as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_STATES.has(code) || NETWORK_CODES.has(code)) return true;
    if (!code && typeof e.message === 'string' && CLIENT_MESSAGES.test(e.message)) return true;
    // Node wraps the per-address failures of one connect in an AggregateError.
    queue.push(e.cause, ...(Array.isArray(e.errors) ? e.errors : []));
  }
  return false;
}

/** The typed 503 the web app gets while the BFF's database cannot be used. */
export const databaseUnavailable = () =>
  new ApiError(
    503,
    'database_unavailable',
    'The dashboard cannot reach its database right now. Try again in a moment.',
  );

/**
 * `pool.query`, with an unusable database turned into the typed 503 (logged here, as the 503's
 * body says nothing of the cause); other errors are thrown as they are.
 */
export async function queryOrUnavailable<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  logger: Logger,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult<R>> {
  try {
    return await pool.query<R>(text, values);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    const e = err as { message?: string; code?: string };
    logger.warn({ err: { message: e.message, code: e.code } }, 'database unavailable: answering 503');
    throw databaseUnavailable();
  }
}
