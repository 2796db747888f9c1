import type { Launch } from '@sv/shared';
import type pg from 'pg';
import type { Logger } from '../../platform/logger.js';
import { createPgPool, queryOrUnavailable } from '../../platform/pg-pool.js';

/** A launch and whose it is: only its project may read it. */
export interface LaunchRecord {
  launch: Launch;
  projectId: string;
  userId: string;
}

/**
 * Where launches live while they run and after. In memory by default; in PostgreSQL when the
 * BFF has a DATABASE_URL, so any BFF process can report a launch another one drives.
 */
export interface LaunchStore {
  save(record: LaunchRecord): Promise<void>;
  get(id: string): Promise<LaunchRecord | null>;
  /** The project's launches, newest first. */
  list(projectId: string, limit: number): Promise<LaunchRecord[]>;
  close(): Promise<void>;
}

/** Keeps the newest launches in this process, forgetting finished ones past the cap. */
export class MemoryLaunchStore implements LaunchStore {
  readonly #records = new Map<string, LaunchRecord>();

  constructor(readonly cap = 1000) {}

  async save(record: LaunchRecord) {
    // Structured copies: callers keep mutating their own object.
    this.#records.set(record.launch.id, structuredClone(record));
    if (this.#records.size > this.cap) {
      for (const [id, r] of this.#records) {
        if (r.launch.status !== 'running') {
          this.#records.delete(id);
          break;
        }
      }
    }
  }
  async get(id: string) {
    const r = this.#records.get(id);
    return r ? structuredClone(r) : null;
  }
  async list(projectId: string, limit: number) {
    return [...this.#records.values()]
      .filter((r) => r.projectId === projectId)
      .sort((a, b) => (a.launch.startedAt < b.launch.startedAt ? 1 : -1))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }
  async close() {}
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Launches in PostgreSQL (table `bff_launches` by default), next to the sessions. While the
 * database cannot be reached every call fails with the typed 503 `database_unavailable`, and the
 * next call after it is back works again.
 */
export class PgLaunchStore implements LaunchStore {
  readonly #pool: pg.Pool;
  #ready: Promise<void> | null = null;

  constructor(
    url: string,
    private readonly logger: Logger,
    readonly table = 'bff_launches',
  ) {
    if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`);
    // Idle connections must not keep a process alive that is otherwise done.
    this.#pool = createPgPool(url, logger, { max: 5, allowExitOnIdle: true });
  }

  #query<R extends pg.QueryResultRow>(text: string, values?: unknown[]) {
    return queryOrUnavailable<R>(this.#pool, this.logger, text, values);
  }

  #init(): Promise<void> {
    this.#ready ??= this.#query(
      `create table if not exists ${this.table} (
         id text primary key, project_id text not null, user_id text not null,
         status text not null, data jsonb not null,
         started_at timestamptz not null, updated_at timestamptz not null default now());
       create index if not exists ${this.table}_project on ${this.table} (project_id, started_at desc)`,
    ).then(
      () => undefined,
      (err: unknown) => {
        // Forget the failure (PostgreSQL down at the first call) so the next call tries again.
        this.#ready = null;
        throw err;
      },
    );
    return this.#ready;
  }

  async save(record: LaunchRecord) {
    await this.#init();
    const { launch } = record;
    await this.#query(
      `insert into ${this.table} (id, project_id, user_id, status, data, started_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, now())
       on conflict (id) do update set status = excluded.status, data = excluded.data, updated_at = now()`,
      [launch.id, record.projectId, record.userId, launch.status, JSON.stringify(launch), launch.startedAt],
    );
  }
  async get(id: string) {
    await this.#init();
    const r = await this.#query<{ data: Launch; project_id: string; user_id: string }>(
      `select data, project_id, user_id from ${this.table} where id = $1`,
      [id],
    );
    const row = r.rows[0];
    return row ? { launch: row.data, projectId: row.project_id, userId: row.user_id } : null;
  }
  async list(projectId: string, limit: number) {
    await this.#init();
    const r = await this.#query<{ data: Launch; project_id: string; user_id: string }>(
      `select data, project_id, user_id from ${this.table} where project_id = $1
       order by started_at desc limit $2`,
      [projectId, limit],
    );
    return r.rows.map((row) => ({ launch: row.data, projectId: row.project_id, userId: row.user_id }));
  }
  async close() {
    await this.#pool.end();
  }
}
