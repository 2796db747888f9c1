import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import Database from 'libsql';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { LibsqlDialect } from './libsql-dialect.js';
import { migrations } from './migrations/index.js';
import type { Schema } from './schema.js';
import { databaseFault, describeDatabaseError } from './unavailable.js';

export type Engine = 'sqlite' | 'postgres';
export type Tx = Transaction<Schema>;

/**
 * The cloud's database. Reads may use `db`; every state change goes through `transaction`,
 * which on PostgreSQL retries serialization failures and deadlocks so callers never see them.
 */
export interface Store {
  readonly db: Kysely<Schema>;
  readonly engine: Engine;
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** `SELECT ... FOR UPDATE` on PostgreSQL; SQLite transactions are already serial. */
  forUpdate<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL only: work inside this schema (tests give each file its own). */
  pgSchema?: string;
}

const RETRYABLE_PG_CODES = new Set(['40001', '40P01']);
/** Up to about 6 s of backoff in all before a failure is let through. */
const MAX_ATTEMPTS = 12;

/**
 * PostgreSQL timeouts, so a frozen network or a stuck server cannot hang a request for ever: it
 * answers 503 instead (`http/faults.ts`), within about 7 s. A connection not opened (or a pooled
 * one not free) within `connectMs` fails; a statement the server runs longer than `statementMs`
 * (lock waits included: every statement here takes milliseconds) is cancelled there; an answer
 * that does not arrive within `queryMs` (the network, not the server) fails and the connection
 * is thrown away; a session left idle inside a transaction (its client gone) is closed by the
 * server after `idleInTransactionMs`, releasing its row locks.
 */
export const PG_TIMEOUTS = {
  connectMs: 5_000,
  statementMs: 5_000,
  queryMs: 7_000,
  idleInTransactionMs: 30_000,
} as const;

export async function openStore(url: string, log: Logger, options: StoreOptions = {}): Promise<Store> {
  const engine: Engine = /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
  let db: Kysely<Schema>;
  if (engine === 'postgres') {
    if (options.pgSchema) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema if not exists "${options.pgSchema}"`);
      await admin.end();
    }
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
      statement_timeout: PG_TIMEOUTS.statementMs,
      query_timeout: PG_TIMEOUTS.queryMs,
      idle_in_transaction_session_timeout: PG_TIMEOUTS.idleInTransactionMs,
      keepAlive: true,
      ...(options.pgSchema ? { options: `-c search_path="${options.pgSchema}"` } : {}),
    });
    // Without these listeners a connection the server closes (restart, failover,
    // pg_terminate_backend, a proxy's timeout) re-throws from the client and the process exits:
    // the pool's for idle connections, each client's own for one checked out between statements.
    pool.on('error', (err) => log.warn({ err: describeDatabaseError(err) }, 'idle database connection lost'));
    pool.on('connect', (client) => {
      client.on('error', (err) => log.debug({ err: describeDatabaseError(err) }, 'database connection lost'));
    });
    db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: discardingLostConnections(pool) }) });
  } else {
    const path = url.startsWith('file:') ? url.slice('file:'.length) : null;
    if (path && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    // One connection: the per-connection pragmas below then hold for every query, and the
    // dialect serialises transactions anyway (SQLite has one writer).
    if (!path && url !== ':memory:') throw new Error(`Unsupported database URL: ${url}`);
    const sqlite = new Database(path ?? ':memory:');
    sqlite.exec('pragma foreign_keys = on');
    if (path && path !== ':memory:') {
      sqlite.exec('pragma journal_mode = wal');
      sqlite.exec('pragma synchronous = normal');
      sqlite.exec('pragma busy_timeout = 5000');
    }
    db = new Kysely<Schema>({ dialect: new LibsqlDialect(sqlite) });
  }

  await migrate(db, log, engine === 'postgres' ? options.pgSchema : undefined);

  return {
    db,
    engine,
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(fn);
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (engine !== 'postgres' || !code || !RETRYABLE_PG_CODES.has(code) || attempt >= MAX_ATTEMPTS) {
            throw err;
          }
          log.debug({ code, attempt }, 'retrying transaction');
          // Exponential backoff with full jitter: contenders that retried at once would collide again.
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(1_000, 10 * 2 ** attempt)));
        }
      }
    },
    forUpdate(qb) {
      return engine === 'postgres' ? qb.forUpdate() : qb;
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * The pool as Kysely sees it, except that a connection on which a query failed because the
 * connection was lost or stuck (a read timeout on a frozen network) goes back to the pool as
 * broken, so the pool closes it instead of handing it to the next request, and any later query
 * on it (Kysely's ROLLBACK) fails at once instead of queueing behind the stuck one.
 */
function discardingLostConnections(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let lost: Error | null = null;
    const query = async (sql: string, parameters: ReadonlyArray<unknown>) => {
      if (lost) throw lost;
      try {
        return await client.query(sql, [...parameters]);
      } catch (err) {
        if (databaseFault(err) === 'connection-lost') lost = err as Error;
        throw err;
      }
    };
    return {
      // Kysely calls the cursor overload only for streaming, which the cloud does not use.
      query: query as unknown as PostgresPoolClient['query'],
      release: () => client.release(lost ?? undefined),
    };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let connection = wrapped.get(client);
      if (!connection) {
        connection = wrap(client);
        // Kysely keeps its connection object per client object: hand the same one out each time.
        wrapped.set(client, connection);
      }
      return connection;
    },
    end: () => pool.end(),
  };
}

async function migrate(db: Kysely<Schema>, log: Logger, pgSchema?: string): Promise<void> {
  // Unordered: a migration added by a later commit may sort before one already applied.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
    // Kysely looks for its tables across schemas unless told which one is ours.
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Success') log.info({ migration: r.migrationName }, 'migration applied');
    if (r.status === 'Error') log.error({ migration: r.migrationName }, 'migration failed');
  }
  if (error) throw error;
}

/** Drops a test schema made with `pgSchema`. */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.end();
}
