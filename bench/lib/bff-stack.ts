/**
 * The stack the dashboard and BFF benches run against, as it runs in production: the bundled cloud
 * and the BFF as two processes (`node --import tsx apps/<app>/src/main.ts`, via
 * test/reliability/helpers/processes.ts), the cloud on a fresh SQLite file or a fresh PostgreSQL
 * database; plus the cloud's API as the client that seeds volumes, servers and attachments.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type AppProcess, spawnBff, spawnCloud } from '../../test/reliability/helpers/processes.js';
import type { BenchContext, Engine } from './types.js';

export const ENGINE_NAME: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export interface BenchDatabase {
  engine: Engine;
  /** DATABASE_URL for the cloud: `file:/tmp/…/cloud.db` or `postgres://…/bench_…`. */
  url: string;
  drop(): Promise<void>;
}

/** An empty database: a SQLite file in a new temp dir, or a new database on ctx.pgUrl's server. */
export async function freshDatabase(
  ctx: Pick<BenchContext, 'pgUrl'>,
  engine: Engine,
  prefix: string,
): Promise<BenchDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    return {
      engine,
      url: `file:${join(dir, 'cloud.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!ctx.pgUrl) throw new Error('a PostgreSQL bench without a PostgreSQL URL');
  const base = ctx.pgUrl;
  const name = `bench_${prefix.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    engine,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface Stack {
  engine: Engine;
  cloud: AppProcess;
  bff: AppProcess;
  stop(): Promise<void>;
}

/**
 * Cloud and BFF processes on a fresh database of `engine`, emulated backends without delay, logging
 * warnings only. On PostgreSQL the BFF keeps its sessions in the same database, as `npm start` does
 * with a postgres:// DATABASE_URL; on SQLite in memory. `webDist` makes the BFF serve the web app.
 */
export async function startStack(
  ctx: Pick<BenchContext, 'pgUrl'>,
  engine: Engine,
  opts: { prefix: string; webDist?: string; bffEnv?: Record<string, string> },
): Promise<Stack> {
  const db = await freshDatabase(ctx, engine, opts.prefix);
  let cloud: AppProcess | undefined;
  let bff: AppProcess | undefined;
  const stop = async () => {
    await bff?.stop();
    await cloud?.stop();
    await db.drop();
  };
  try {
    cloud = await spawnCloud({ databaseUrl: db.url, name: 'cloud' });
    bff = await spawnBff({
      authUrl: `${cloud.url}/identity/v3`,
      name: 'bff',
      env: {
        // Never a DATABASE_URL inherited from the bench's own environment.
        DATABASE_URL: engine === 'postgres' ? db.url : '',
        ...(opts.webDist ? { WEB_DIST: opts.webDist } : {}),
        ...opts.bffEnv,
      },
    });
    return { engine, cloud, bff, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// --- HTTP ------------------------------------------------------------------------------------------

// A timeout makes Node honour the server's `Keep-Alive: timeout=N` hint (see apps/bff/src/openstack/http.ts).
const keepAlive = new Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 });

/**
 * GET over node:http with a keep-alive agent (the quickest plain client); the body as text. Like the
 * BFF's own client, a pooled connection the server closed just as it was reused is retried once on a
 * new one.
 */
export function httpGet(
  url: string,
  headers: Record<string, string>,
  fresh = false,
): Promise<{ status: number; text: string }> {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const r = request(url, { agent: fresh ? false : keepAlive, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    r.on('error', (err) => reject(Object.assign(err, { reusedSocket: r.reusedSocket })));
    r.end();
  }).catch((err: Error & { reusedSocket?: boolean }) => {
    if (err.reusedSocket && !fresh) return httpGet(url, headers, true);
    throw err;
  });
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${res.url}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

// --- The cloud's API -------------------------------------------------------------------------------

/** A Keystone token scoped to the user's namesake project, and the catalog's public endpoints. */
export interface CloudLogin {
  token: string;
  projectId: string;
  compute: string;
  volume: string;
  image: string;
}

export async function cloudLogin(cloudUrl: string, user: 'demo' | 'admin' = 'demo'): Promise<CloudLogin> {
  const res = await fetch(`${cloudUrl}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: user, domain: { name: 'Default' }, password: user } },
        },
        scope: { project: { name: user, domain: { name: 'Default' } } },
      },
    }),
  });
  const body = await json<{
    token: {
      project: { id: string };
      catalog: { type: string; endpoints: { interface: string; url: string }[] }[];
    };
  }>(res);
  const endpoint = (type: string) =>
    body.token.catalog.find((s) => s.type === type)?.endpoints.find((e) => e.interface === 'public')?.url ??
    '';
  return {
    token: res.headers.get('x-subject-token') ?? '',
    projectId: body.token.project.id,
    compute: endpoint('compute'),
    volume: endpoint('block-storage') || endpoint('volumev3'),
    image: endpoint('image'),
  };
}

/** Headers for one OpenStack call at `version` (`compute 2.105`, `volume 3.54`), as the BFF sends them. */
export function osHeaders(c: CloudLogin, version?: string): Record<string, string> {
  const headers: Record<string, string> = { 'X-Auth-Token': c.token, Accept: 'application/json' };
  if (version) {
    headers['OpenStack-API-Version'] = version;
    if (version.startsWith('compute ')) headers['X-OpenStack-Nova-API-Version'] = version.slice(8);
  }
  return headers;
}

/** A JSON call to the cloud with fetch (seeding only; timing uses httpGet). */
export function cloudCall(c: CloudLogin) {
  return async <T>(
    url: string,
    version: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<T> => {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        ...osHeaders(c, version),
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    return json<T>(res);
  };
}

export interface Seeded {
  volumes: string[];
  servers: string[];
  /** The volume held by the most servers. */
  busiestVolume: string;
  attachments: number;
}

/**
 * `volumes` volumes and `servers` servers in the user's project, through the cloud's API: a third of
 * the volumes multiattach and held by 2-4 servers (every other holder read-only), half of the rest
 * held by one server, the others free.
 */
export async function seedVolumesAndServers(
  c: CloudLogin,
  size: { volumes: number; servers: number },
): Promise<Seeded> {
  const call = cloudCall(c);
  const images = await call<{ images: { id: string }[] }>(`${c.image}/v2/images`, 'image 2');
  const image = images.images[0]!.id;
  const volumes: string[] = [];
  for (let i = 0; i < size.volumes; i++) {
    const shared = i % 3 === 0;
    const v = await call<{ volume: { id: string } }>(`${c.volume}/volumes`, 'volume 3.50', {
      method: 'POST',
      body: { volume: { name: `bench-${i}`, size: 1, ...(shared ? { volume_type: 'multiattach' } : {}) } },
    });
    volumes.push(v.volume.id);
  }
  const servers: string[] = [];
  for (let i = 0; i < size.servers; i++) {
    const s = await call<{ server: { id: string } }>(`${c.compute}/servers`, 'compute 2.105', {
      method: 'POST',
      body: { server: { name: `bench-srv-${i}`, flavorRef: '1', imageRef: image, networks: 'none' } },
    });
    servers.push(s.server.id);
  }
  await waitUntil('servers ACTIVE', async () => {
    const list = await call<{ servers: { status: string }[] }>(
      `${c.compute}/servers/detail`,
      'compute 2.105',
    );
    return list.servers.filter((s) => s.status === 'ACTIVE').length === size.servers;
  });
  await waitUntil('volumes available', async () => {
    const list = await call<{ volumes: { status: string }[] }>(`${c.volume}/volumes/detail`, 'volume 3.50');
    return list.volumes.filter((v) => v.status === 'available').length === size.volumes;
  });
  let attachments = 0;
  let busiest = { volume: volumes[0]!, holders: -1 };
  for (const [i, v] of volumes.entries()) {
    const holders = Math.min(size.servers, i % 3 === 0 ? 2 + (i % 3) + (i % 2) : i % 2 === 0 ? 1 : 0);
    if (holders > busiest.holders) busiest = { volume: v, holders };
    for (let k = 0; k < holders; k++) {
      const server = servers[(i + k) % servers.length]!;
      await call(`${c.compute}/servers/${server}/os-volume_attachments`, 'compute 2.105', {
        method: 'POST',
        body: { volumeAttachment: { volumeId: v, attach_mode: k % 2 === 1 ? 'ro' : 'rw' } },
      });
      attachments++;
      await waitUntil(`volume ${v} attached to ${server}`, async () => {
        const vol = await call<{ volume: { attachments: { server_id: string }[] } }>(
          `${c.volume}/volumes/${v}`,
          'volume 3.50',
        );
        return vol.volume.attachments.some((a) => a.server_id === server);
      });
    }
  }
  return { volumes, servers, busiestVolume: busiest.volume, attachments };
}

// --- The BFF ---------------------------------------------------------------------------------------

export interface BffSession {
  /** `sv_session=…`, for a Cookie header. */
  cookie: string;
  csrfToken: string;
}

/** POST /api/session as the web app does. */
export async function bffSignIn(bffUrl: string, user: 'demo' | 'admin' = 'demo'): Promise<BffSession> {
  const res = await fetch(`${bffUrl}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: user, password: user }),
  });
  if (res.status !== 201) throw new Error(`BFF sign-in: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { csrfToken: string };
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrfToken: body.csrfToken };
}

/** A process's CPU time so far, user + system in ms (Linux /proc; 0 elsewhere). */
export function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
