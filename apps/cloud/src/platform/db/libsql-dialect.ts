import type { Client, InValue, Transaction } from '@libsql/client';
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

/**
 * Kysely over one @libsql/client connection. SQLite has one writer, so connections are
 * handed out one at a time: a transaction owns the database until it commits, which is
 * what makes every state change atomic and serial within one process.
 */
class LibsqlConnection implements DatabaseConnection {
  /** The client's own transaction while one is open: the client rolls back a BEGIN sent through execute(). */
  tx: Transaction | null = null;

  constructor(private readonly client: Client) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await (this.tx ?? this.client).execute({
      sql: query.sql,
      args: query.parameters as InValue[],
    });
    const isSelect = result.columns.length > 0;
    return {
      rows: result.rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (const c of result.columns) out[c] = row[c];
        return out as R;
      }),
      ...(isSelect ? {} : { numAffectedRows: BigInt(result.rowsAffected) }),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by this dialect
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('libsql dialect: streaming is not supported');
  }
}

class LibsqlDriver implements Driver {
  #queue: Promise<void> = Promise.resolve();
  readonly #release = new WeakMap<DatabaseConnection, () => void>();

  constructor(private readonly client: Client) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#queue;
    this.#queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    const connection = new LibsqlConnection(this.client);
    this.#release.set(connection, release);
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#release.get(connection)?.();
    this.#release.delete(connection);
  }

  async beginTransaction(c: DatabaseConnection): Promise<void> {
    // 'write' is BEGIN IMMEDIATE.
    (c as LibsqlConnection).tx = await this.client.transaction('write');
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as LibsqlConnection;
    const tx = conn.tx;
    conn.tx = null;
    await tx?.commit();
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as LibsqlConnection;
    const tx = conn.tx;
    conn.tx = null;
    await tx?.rollback();
  }

  async destroy(): Promise<void> {
    this.client.close();
  }
}

export class LibsqlDialect implements Dialect {
  constructor(private readonly client: Client) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver() {
    return new LibsqlDriver(this.client);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
