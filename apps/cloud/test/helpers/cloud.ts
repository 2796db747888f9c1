import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { bootCloud, type BootedCloud } from '../../src/boot.js';
import { type CloudConfig, testConfig } from '../../src/config.js';
import { dropPgSchema } from '../../src/platform/db/store.js';
import { clientErrorResponder } from '../../src/platform/http/client-error.js';
import { createLogger } from '../../src/platform/logger.js';
import type { NovaClient } from '../../src/volume/index.js';

/**
 * The real cloud app on an ephemeral port, on SQLite (in memory) by default, or on
 * PostgreSQL in a schema of its own when CLOUD_TEST_ENGINE=postgres and TEST_DATABASE_URL is set.
 */
export interface TestCloud {
  url: string;
  cloud: BootedCloud;
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL only: the schema this cloud works in. */
  pgSchema?: string;
  /** Waits until the emulated backends have finished everything scheduled. */
  settle(): Promise<void>;
  close(): Promise<void>;
  /** Dies like a killed process: scheduled work never runs, the database is left as it is. */
  crash(): Promise<void>;
}

export const usePostgres = (): boolean =>
  process.env.CLOUD_TEST_ENGINE === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

export interface StartOptions {
  /**
   * Reopen the database of a TestCloud that crashed (a restart): its `databaseUrl` on SQLite,
   * its schema on PostgreSQL, which this cloud then owns and drops on close.
   */
  reopen?: TestCloud;
  /** Plays Nova when Cinder asks about an attachment (`scriptedNova`). */
  nova?: ScriptedNova;
  /**
   * Keep Nova's and Cinder's default quotas (10 servers, 20 cores, 10 volumes...). Without it the
   * `default` quota classes lift the counted limits, so tests that make many servers or volumes
   * are not refused; the quota tests ask for the real defaults.
   */
  realQuotas?: boolean;
}

/** The counted resources a test cloud does not limit unless it asks for `realQuotas`. */
async function liftDefaultQuotas(cloud: Awaited<ReturnType<typeof bootCloud>>): Promise<void> {
  const db = cloud.deps.store.db;
  const rows = (resources: string[]) =>
    resources.map((resource) => ({ class_name: 'default', resource, hard_limit: -1 }));
  await db
    .insertInto('compute_quota_classes')
    .values(rows(['instances', 'cores', 'ram']))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('volume_quota_classes')
    // Snapshots count since they became quota'd: suites that snapshot a lot (the BFF's authz) ran out at 10.
    .values(rows(['volumes', 'gigabytes', 'snapshots']))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * A Nova for Cinder's OSSA-2023-003 question that a test can script: `answer` when set, else
 * the cloud's own compute (once `startCloud` has wired it).
 */
export interface ScriptedNova extends NovaClient {
  answer: NovaClient['isUsingAttachment'] | null;
  compute: NovaClient | null;
}

export function scriptedNova(): ScriptedNova {
  const nova: ScriptedNova = {
    answer: null,
    compute: null,
    isUsingAttachment: (serverId, attachmentId) =>
      nova.answer
        ? nova.answer(serverId, attachmentId)
        : (nova.compute?.isUsingAttachment(serverId, attachmentId) ?? Promise.resolve(false)),
  };
  return nova;
}

export async function startCloud(
  overrides: Partial<CloudConfig> = {},
  opts: StartOptions = {},
): Promise<TestCloud> {
  const pgUrl = usePostgres() ? process.env.TEST_DATABASE_URL! : null;
  const reopened = opts.reopen;
  const pgSchema = pgUrl ? (reopened?.pgSchema ?? `t_${randomBytes(6).toString('hex')}`) : undefined;
  if (reopened && !pgUrl) overrides = { databaseUrl: reopened.cloud.deps.config.databaseUrl, ...overrides };
  const config = testConfig({ ...(pgUrl ? { databaseUrl: pgUrl } : {}), ...overrides });
  const logger = createLogger(process.env.CLOUD_TEST_LOG_LEVEL ?? config.logLevel);
  const cloud = await bootCloud(
    config,
    logger,
    pgSchema ? { pgSchema } : {},
    opts.nova ? { nova: opts.nova } : {},
  );
  if (opts.nova) opts.nova.compute = cloud.compute;
  if (!opts.realQuotas) await liftDefaultQuotas(cloud);
  const server: Server = await new Promise((resolve) => {
    const s = cloud.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // As main.ts does.
  server.on('clientError', clientErrorResponder(logger));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cloud,
    engine: pgUrl ? 'postgres' : 'sqlite',
    ...(pgSchema ? { pgSchema } : {}),
    settle: () => cloud.deps.tasks.idle(),
    async crash() {
      cloud.deps.tasks.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      // Also leaves the database, as a killed process's connections drop.
      await cloud.close();
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await cloud.close();
      if (pgUrl && pgSchema) await dropPgSchema(pgUrl, pgSchema);
    },
  };
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  body: T extends unknown ? any : T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (for malformed-body tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** `compute 2.60`, `volume 3.27`... sent as OpenStack-API-Version. */
  version?: string;
}

export async function http(
  tc: TestCloud,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.token) headers['X-Auth-Token'] = opts.token;
  if (opts.version) {
    headers['OpenStack-API-Version'] = opts.version;
    if (opts.version.startsWith('compute ')) headers['X-OpenStack-Nova-API-Version'] = opts.version.slice(8);
  }
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(tc.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export interface Session {
  token: string;
  userId: string;
  projectId: string;
  /** `/volume/v3/{project_id}` for this session's project. */
  volumeBase: string;
}

const DEFAULT_PASSWORDS: Record<string, string> = { admin: 'admin', demo: 'demo' };

/** Password auth scoped to a project (by default the user's namesake project: admin→admin, demo→demo). */
export async function login(
  tc: TestCloud,
  user: string,
  opts: { password?: string; project?: string } = {},
): Promise<Session> {
  const res = await http(tc, 'POST', '/identity/v3/auth/tokens', {
    body: {
      auth: {
        identity: {
          methods: ['password'],
          password: {
            user: {
              name: user,
              domain: { name: 'Default' },
              password: opts.password ?? DEFAULT_PASSWORDS[user] ?? user,
            },
          },
        },
        scope: { project: { name: opts.project ?? user, domain: { name: 'Default' } } },
      },
    },
  });
  if (res.status !== 201) throw new Error(`login ${user} failed: ${res.status} ${res.text}`);
  const projectId = res.body.token.project.id as string;
  return {
    token: res.headers.get('x-subject-token')!,
    userId: res.body.token.user.id,
    projectId,
    volumeBase: `/volume/v3/${projectId}`,
  };
}
