import pg from 'pg';
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
    // A frozen network must not hang a request for ever.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
    query_timeout: 15_000,
  });
  pool.on('error', (err) => {
    logger.warn(
      { err: { message: err.message, code: (err as { code?: string }).code } },
      'idle database connection lost',
    );
  });
  return pool;
}
