import type pg from 'pg';
import type { Capabilities, ProjectRef } from '@sv/shared';
import type { Logger } from './logger.js';
import { createPgPool, queryOrUnavailable } from './pg-pool.js';

/** A signed-in user, kept server-side: the browser only ever holds the opaque id. */
export interface SessionData {
  id: string;
  csrfToken: string;
  token: string;
  tokenExpiresAt: string;
  user: { id: string; name: string };
  domain: string;
  project: ProjectRef;
  projects: ProjectRef[];
  roles: string[];
  isAdmin: boolean;
  endpoints: {
    compute: string;
    volume: string;
    image: string | null;
    /** Neutron; absent in sessions made before it was read from the catalog. */
    network?: string | null;
    /** Placement (admins' capacity figures on a real cloud); absent as above. */
    placement?: string | null;
  };
  capabilities: Capabilities;
  createdAt: string;
}

export interface SessionStore {
  get(id: string): Promise<SessionData | null>;
  set(session: SessionData): Promise<void>;
  delete(id: string): Promise<void>;
  close(): Promise<void>;
}

const expired = (s: SessionData) => s.tokenExpiresAt <= new Date().toISOString();

/** The default: sessions in this process's memory, gone on restart. */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, SessionData>();

  async get(id: string) {
    const s = this.#sessions.get(id);
    if (!s) return null;
    if (expired(s)) {
      this.#sessions.delete(id);
      return null;
    }
    return s;
  }
  async set(session: SessionData) {
    this.#sessions.set(session.id, session);
  }
  async delete(id: string) {
    this.#sessions.delete(id);
  }
  async close() {}
}

/**
 * Sessions in PostgreSQL, so any BFF process behind a load balancer can serve any user. While the
 * database cannot be reached every call fails with the typed 503 `database_unavailable`, and the
 * next call after it is back works again.
 */
export class PgSessionStore implements SessionStore {
  readonly #pool: pg.Pool;
  #ready: Promise<void> | null = null;

  constructor(
    url: string,
    private readonly logger: Logger,
    readonly table = 'bff_sessions',
  ) {
    this.#pool = createPgPool(url, logger, { max: 5 });
  }

  #query<R extends pg.QueryResultRow>(text: string, values?: unknown[]) {
    return queryOrUnavailable<R>(this.#pool, this.logger, text, values);
  }

  #init(): Promise<void> {
    this.#ready ??= this.#query(
      `create table if not exists ${this.table} (id text primary key, data jsonb not null, expires_at timestamptz not null)`,
    ).then(
      () => undefined,
      (err: unknown) => {
        // Forget the failure so the next request tries again once PostgreSQL is back.
        this.#ready = null;
        throw err;
      },
    );
    return this.#ready;
  }

  async get(id: string) {
    await this.#init();
    const r = await this.#query<{ data: SessionData }>(
      `select data from ${this.table} where id = $1 and expires_at > now()`,
      [id],
    );
    return r.rows[0]?.data ?? null;
  }
  async set(session: SessionData) {
    await this.#init();
    await this.#query(
      `insert into ${this.table} (id, data, expires_at) values ($1, $2, $3)
       on conflict (id) do update set data = excluded.data, expires_at = excluded.expires_at`,
      [session.id, JSON.stringify(session), session.tokenExpiresAt],
    );
    // Expired sessions are swept now and then rather than on every read.
    if (Math.random() < 0.01) await this.#query(`delete from ${this.table} where expires_at <= now()`);
  }
  async delete(id: string) {
    await this.#init();
    await this.#query(`delete from ${this.table} where id = $1`, [id]);
  }
  async close() {
    await this.#pool.end();
  }
}
