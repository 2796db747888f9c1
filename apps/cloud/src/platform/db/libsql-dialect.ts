import type Database from 'libsql';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

type Db = InstanceType<typeof Database>;
type Statement = ReturnType<Db['prepare']>;

/** A prepared statement and, for a query that returns rows, its column names. */
interface Prepared {
  stmt: Statement;
  columns: string[] | null;
}

/**
 * Statements kept prepared, by SQL text. Why: preparing a statement and reading its columns
 * cost ~60 µs, several times what running a typical query here costs; the cloud sends a small
 * set of distinct statements over and over. Bounded, as IN lists make the text vary.
 */
const STATEMENT_CACHE_SIZE = 500;

/** SQLite's primary result codes by number, for the base `code` callers test (SQLITE_CONSTRAINT). */
const BASE_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
};

/** The engine's error with the base code as `code` and the extended one as `extendedCode`. */
function sqliteError(err: unknown): unknown {
  const e = err as { code?: unknown; rawCode?: unknown; message?: unknown };
  if (typeof e?.rawCode !== 'number' || typeof e.message !== 'string') return err;
  const out = new Error(e.message, { cause: err }) as Error & { code: string; extendedCode: unknown };
  out.code = BASE_CODES[e.rawCode & 0xff] ?? String(e.code);
  out.extendedCode = e.code;
  return out;
}

/** Kysely's parameters as SQLite takes them (booleans as 0/1, dates as epoch ms). */
function toSqlValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database');
  return value;
}

/**
 * Kysely over one libsql (SQLite) connection, used synchronously as SQLite is in-process. SQLite
 * has one writer, so the connection is handed out one holder at a time: a transaction owns the
 * database until it commits, which is what makes every state change atomic and serial within one
 * process.
 */
class LibsqlConnection implements DatabaseConnection {
  constructor(
    private readonly db: Db,
    private readonly statements: Map<string, Prepared>,
  ) {}

  #prepare(sql: string): Prepared {
    const cached = this.statements.get(sql);
    if (cached) {
      // Most recently used last: the first entry is the one to evict.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const stmt = this.db.prepare(sql);
    let columns: string[] | null = null;
    if (stmt.reader) {
      stmt.raw(true);
      columns = stmt.columns().map((c) => c.name);
    }
    const prepared = { stmt, columns };
    // Schema changes (migrations) invalidate what was read about columns.
    if (/^\s*(create|alter|drop)\b/i.test(sql)) this.statements.clear();
    else {
      this.statements.set(sql, prepared);
      if (this.statements.size > STATEMENT_CACHE_SIZE) {
        this.statements.delete(this.statements.keys().next().value as string);
      }
    }
    return prepared;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const { stmt, columns } = this.#prepare(query.sql);
      const args = query.parameters.map(toSqlValue);
      if (columns) {
        const rows = (stmt.all(args) as unknown[][]).map((cells) => {
          const row: Record<string, unknown> = {};
          // A name that occurs twice keeps its first value (what the joins here expect).
          for (let i = 0; i < columns.length; i++) if (!(columns[i]! in row)) row[columns[i]!] = cells[i];
          return row as R;
        });
        return { rows };
      }
      const info = stmt.run(args);
      return { rows: [], numAffectedRows: BigInt(info.changes) };
    } catch (err) {
      throw sqliteError(err);
    }
  }

  /** Statements outside the cache: BEGIN, COMMIT, ROLLBACK. */
  exec(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (err) {
      throw sqliteError(err);
    }
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by this dialect
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('libsql dialect: streaming is not supported');
  }
}

class LibsqlDriver implements Driver {
  #queue: Promise<void> = Promise.resolve();
  readonly #release = new WeakMap<DatabaseConnection, () => void>();
  readonly #statements = new Map<string, Prepared>();

  constructor(private readonly db: Db) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#queue;
    this.#queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    const connection = new LibsqlConnection(this.db, this.#statements);
    this.#release.set(connection, release);
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // Never hand the database on mid-transaction (a BEGIN sent as a query, a failed COMMIT).
    const conn = connection as LibsqlConnection;
    if (conn.inTransaction) conn.exec('ROLLBACK');
    this.#release.get(connection)?.();
    this.#release.delete(connection);
  }

  async beginTransaction(c: DatabaseConnection): Promise<void> {
    (c as LibsqlConnection).exec('BEGIN IMMEDIATE');
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    (c as LibsqlConnection).exec('COMMIT');
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as LibsqlConnection;
    if (conn.inTransaction) conn.exec('ROLLBACK');
  }

  async destroy(): Promise<void> {
    this.#statements.clear();
    this.db.close();
  }
}

export class LibsqlDialect implements Dialect {
  constructor(private readonly db: Db) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver() {
    return new LibsqlDriver(this.db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
