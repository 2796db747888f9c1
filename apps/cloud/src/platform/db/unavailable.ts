/**
 * Errors that say "the database cannot do this right now" rather than "this is wrong": a lost or
 * frozen PostgreSQL connection, a server shutting down or refusing connections, a timeout, a busy
 * or full SQLite file. The one place that knows them: requests answer them with a 503
 * (`http/faults.ts`), background steps retry them (`tasks.ts`), and a pooled PostgreSQL
 * connection that saw a lost-connection error is thrown away (`store.ts`).
 */
export type DatabaseFault =
  /** The connection is gone or stuck: it must not be used again. */
  | 'connection-lost'
  /** The database (or the pool) did not answer in time; the connection itself may be fine. */
  | 'timeout'
  /** Locked, out of connections, or still contended after the store's own retries. */
  | 'busy'
  | 'disk-full'
  | 'io';

/** PostgreSQL SQLSTATEs (Appendix A of its manual), beyond class 08 (connection exception). */
const PG_STATES: Record<string, DatabaseFault> = {
  '57P01': 'connection-lost', // admin_shutdown: pg_terminate_backend, a server stopping
  '57P02': 'connection-lost', // crash_shutdown
  '57P03': 'connection-lost', // cannot_connect_now: starting up, in recovery
  '57P05': 'connection-lost', // idle_session_timeout
  '25P03': 'connection-lost', // idle_in_transaction_session_timeout: the server closed the session
  '57014': 'timeout', // query_canceled: statement_timeout
  '55P03': 'busy', // lock_not_available
  '53300': 'busy', // too_many_connections
  '53200': 'busy', // out_of_memory
  '40001': 'busy', // serialization_failure, still failing after the store's retries
  '40P01': 'busy', // deadlock_detected, likewise
  '53100': 'disk-full',
  '58030': 'io', // io_error
};

/** Socket errors on the way to the database. */
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

/** node-postgres and pg-pool say these in words only (no code). */
const PG_CLIENT_MESSAGES: [RegExp, DatabaseFault][] = [
  [/^Query read timeout$/, 'connection-lost'], // query_timeout: the socket is stuck mid-query
  [/^Connection terminated due to connection timeout$/, 'timeout'],
  [/^timeout exceeded when trying to connect$/, 'timeout'],
  [/^Connection terminated/, 'connection-lost'],
  [/is not queryable$/, 'connection-lost'],
];

/** SQLite's base result codes (the libsql dialect puts the base code in `code`). */
const SQLITE_CODES: Record<string, DatabaseFault> = {
  SQLITE_BUSY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_FULL: 'disk-full',
  SQLITE_IOERR: 'io',
};

/** What kind of transient database fault `err` is, or null when it is not one. */
export function databaseFault(err: unknown): DatabaseFault | null {
  // Kysely and the libsql dialect wrap; Node wraps happy-eyeballs failures in an AggregateError.
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const own = ownFault(e as { code?: unknown; message?: unknown });
    if (own) return own;
    const { cause, errors } = e as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return null;
}

function ownFault(e: { code?: unknown; message?: unknown }): DatabaseFault | null {
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^08[0-9A-Z]{3}$/.test(code)) return 'connection-lost';
  if (PG_STATES[code]) return PG_STATES[code];
  if (NETWORK_CODES.has(code)) return 'connection-lost';
  if (SQLITE_CODES[code]) return SQLITE_CODES[code];
  const extended = SQLITE_CODES[code.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1')];
  if (extended) return extended;
  if (typeof e.message === 'string' && !code) {
    for (const [pattern, fault] of PG_CLIENT_MESSAGES) if (pattern.test(e.message)) return fault;
  }
  return null;
}

export const isTransientDatabaseError = (err: unknown): boolean => databaseFault(err) !== null;

/** A log-friendly summary (no stack): what failed and why, without the SQL's parameters. */
export function describeDatabaseError(err: unknown): { message: string; code?: string; fault: string } {
  const e = err as { message?: unknown; code?: unknown };
  return {
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    fault: databaseFault(err) ?? 'none',
  };
}
