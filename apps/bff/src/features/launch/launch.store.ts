import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Launch, launchSchema } from '@sv/shared';
import { type Generated, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import Database from 'libsql';
import { createPgPool, databaseUnavailable, isDatabaseUnavailable } from '../../platform/pg-pool.js';
import type { Logger } from '../../platform/logger.js';

/** A launch, whose it is (only its project may read it) and the session that drives it. */
export interface LaunchRecord {
  launch: Launch;
  projectId: string;
  userId: string;
  /** The session that started (or last resumed) it: a process that picks the launch up uses it. */
  sessionId: string | null;
}

/**
 * Where launches live, while they run and after: one table (`bff_launches`) in the BFF's
 * PostgreSQL when DATABASE_URL is set, else in an embedded SQLite file. A running launch is
 * leased by the process that drives it (`lease_owner`, `lease_until`), which renews the lease
 * while it works; a launch whose lease ran out belongs to a process that died, and exactly one
 * other process takes it over (`claim` is one conditional UPDATE).
 */
export interface LaunchStore {
  /** Inserts or updates; a new row is leased to `lease.owner` from the start. */
  save(record: LaunchRecord, lease?: { owner: string; leaseMs: number }): Promise<void>;
  get(id: string): Promise<LaunchRecord | null>;
  /** The project's launches, newest first. */
  list(projectId: string, limit: number): Promise<LaunchRecord[]>;
  /**
   * Takes the launch's lease for `owner` until `now + leaseMs`, when it is free (never leased,
   * run out) or already `owner`'s. True when `owner` holds it now.
   */
  claim(id: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Renews `owner`'s leases on these launches. */
  renew(owner: string, ids: string[], leaseMs: number): Promise<void>;
  /** Lets go of a lease (the launch finished or was handed on). */
  release(id: string, owner: string): Promise<void>;
  /** Running launches whose lease has run out: their process stopped. */
  orphans(limit: number): Promise<string[]>;
  close(): Promise<void>;
}

interface LaunchTable {
  id: string;
  project_id: string;
  user_id: string;
  session_id: string | null;
  status: string;
  /** The Launch as JSON (jsonb on PostgreSQL, text on SQLite). */
  data: unknown;
  started_at: string;
  updated_at: Generated<string>;
  lease_owner: string | null;
  /** Epoch milliseconds. */
  lease_until: Generated<number | string>;
}

interface Tables {
  bff_launches: LaunchTable;
}

const nowMs = () => Date.now();

function toRecord(row: {
  data: unknown;
  project_id: string;
  user_id: string;
  session_id: string | null;
}): LaunchRecord {
  const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
  return {
    launch: launchSchema.parse(data),
    projectId: row.project_id,
    userId: row.user_id,
    sessionId: row.session_id,
  };
}

/** The one store, over either engine. */
export class SqlLaunchStore implements LaunchStore {
  #ready: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  /** An embedded SQLite file (`:memory:` for one process's memory), created on first use. */
  static sqlite(file: string): SqlLaunchStore {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new Database(file);
    // Several BFF processes may share the file: wait for the writer instead of failing.
    database.exec('pragma busy_timeout = 5000');
    if (file !== ':memory:') database.exec('pragma journal_mode = wal');
    const db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: database as never }),
    });
    return new SqlLaunchStore(db, 'sqlite');
  }

  static postgres(url: string, logger: Logger): SqlLaunchStore {
    const pool = createPgPool(url, logger, { max: 5, allowExitOnIdle: true });
    return new SqlLaunchStore(new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
  }

  async #do<T>(fn: () => Promise<T>): Promise<T> {
    try {
      await this.#init();
      return await fn();
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw databaseUnavailable();
      throw err;
    }
  }

  #init(): Promise<void> {
    this.#ready ??= this.#migrate().catch((err: unknown) => {
      // Forget the failure (database down at the first call) so the next call tries again.
      this.#ready = null;
      throw err;
    });
    return this.#ready;
  }

  async #migrate(): Promise<void> {
    const pg = this.engine === 'postgres';
    await this.db.schema
      .createTable('bff_launches')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('data', pg ? 'jsonb' : 'text', (c) => c.notNull())
      .addColumn('started_at', pg ? 'timestamptz' : 'text', (c) => c.notNull())
      .addColumn('updated_at', pg ? 'timestamptz' : 'text', (c) =>
        c.notNull().defaultTo(pg ? sql`now()` : sql`CURRENT_TIMESTAMP`),
      )
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    if (pg) {
      // A table made by an earlier version (sessions' neighbour, without leases).
      await sql`alter table bff_launches add column if not exists session_id text`.execute(this.db);
      await sql`alter table bff_launches add column if not exists lease_owner text`.execute(this.db);
      await sql`alter table bff_launches add column if not exists lease_until bigint not null default 0`.execute(
        this.db,
      );
    }
    await this.db.schema
      .createIndex('bff_launches_project')
      .ifNotExists()
      .on('bff_launches')
      .columns(['project_id', 'started_at desc'])
      .execute();
    await this.db.schema
      .createIndex('bff_launches_running')
      .ifNotExists()
      .on('bff_launches')
      .columns(['status', 'lease_until'])
      .execute();
  }

  save(record: LaunchRecord, lease?: { owner: string; leaseMs: number }): Promise<void> {
    const { launch } = record;
    const updatedAt = new Date().toISOString();
    return this.#do(async () => {
      await this.db
        .insertInto('bff_launches')
        .values({
          id: launch.id,
          project_id: record.projectId,
          user_id: record.userId,
          session_id: record.sessionId,
          status: launch.status,
          data: JSON.stringify(launch),
          started_at: launch.startedAt,
          updated_at: updatedAt,
          ...(lease ? { lease_owner: lease.owner, lease_until: nowMs() + lease.leaseMs } : {}),
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            data: eb.ref('excluded.data'),
            session_id: eb.ref('excluded.session_id'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    });
  }

  get(id: string): Promise<LaunchRecord | null> {
    return this.#do(async () => {
      const row = await this.db
        .selectFrom('bff_launches')
        .select(['data', 'project_id', 'user_id', 'session_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    });
  }

  list(projectId: string, limit: number): Promise<LaunchRecord[]> {
    return this.#do(async () => {
      const rows = await this.db
        .selectFrom('bff_launches')
        .select(['data', 'project_id', 'user_id', 'session_id'])
        .where('project_id', '=', projectId)
        .orderBy('started_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    });
  }

  claim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.#do(async () => {
      const now = nowMs();
      const r = await this.db
        .updateTable('bff_launches')
        .set({ lease_owner: owner, lease_until: now + leaseMs })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('lease_owner', '=', owner), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    });
  }

  renew(owner: string, ids: string[], leaseMs: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.#do(async () => {
      await this.db
        .updateTable('bff_launches')
        .set({ lease_until: nowMs() + leaseMs })
        .where('lease_owner', '=', owner)
        .where('id', 'in', ids)
        .execute();
    });
  }

  release(id: string, owner: string): Promise<void> {
    return this.#do(async () => {
      await this.db
        .updateTable('bff_launches')
        .set({ lease_owner: null, lease_until: 0 })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    });
  }

  orphans(limit: number): Promise<string[]> {
    return this.#do(async () => {
      const rows = await this.db
        .selectFrom('bff_launches')
        .select('id')
        .where('status', '=', 'running')
        .where('lease_until', '<', nowMs())
        .orderBy('started_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
