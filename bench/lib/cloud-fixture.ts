/**
 * A fresh bundled cloud for one bench on one engine, in this process (so the figures include the
 * cloud's own cost and nothing of a process boundary): `bootCloud` + `listen` on an ephemeral
 * port, emulated host delay 0, logs silent. SQLite is a file in a temporary directory (WAL, as
 * `npm start` runs it); PostgreSQL is a schema of its own on `ctx.pgUrl`. Both are removed on
 * close. Plus a keep-alive HTTP client and Keystone password login.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BootedCloud, bootCloud } from '../../apps/cloud/src/boot.js';
import { type CloudConfig, testConfig } from '../../apps/cloud/src/config.js';
import { dropPgSchema } from '../../apps/cloud/src/platform/db/store.js';
import { createLogger } from '../../apps/cloud/src/platform/logger.js';
import type { BenchContext, Engine } from './types.js';

export const ENGINE_LABEL: Record<Engine, string> = {
  sqlite: 'SQLite (file, WAL)',
  postgres: 'PostgreSQL',
};

export interface BenchCloud {
  engine: Engine;
  url: string;
  cloud: BootedCloud;
  /** Keep-alive client for this cloud (up to `maxSockets` connections). */
  http: BenchHttp;
  /** Waits until the emulated backends have finished everything scheduled (not a client's view). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startBenchCloud(
  engine: Engine,
  ctx: Pick<BenchContext, 'pgUrl'>,
  overrides: Partial<CloudConfig> = {},
  opts: { maxSockets?: number } = {},
): Promise<BenchCloud> {
  let dir: string | undefined;
  let pgSchema: string | undefined;
  let databaseUrl: string;
  if (engine === 'postgres') {
    if (!ctx.pgUrl) throw new Error('PostgreSQL bench without a pgUrl');
    pgSchema = `bench_${randomBytes(5).toString('hex')}`;
    databaseUrl = ctx.pgUrl;
  } else {
    dir = mkdtempSync(join(tmpdir(), 'cloud-bench-'));
    databaseUrl = `file:${join(dir, 'cloud.db')}`;
  }
  const removeData = async () => {
    if (pgSchema && ctx.pgUrl) await dropPgSchema(ctx.pgUrl, pgSchema);
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  let cloud: BootedCloud;
  try {
    cloud = await bootCloud(
      testConfig({ databaseUrl, logLevel: 'silent', backendDelayMs: 0, ...overrides }),
      createLogger('silent'),
      pgSchema ? { pgSchema } : {},
    );
  } catch (err) {
    await removeData();
    throw err;
  }
  const server: Server = await new Promise((resolve) => {
    const s = cloud.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // Many keep-alive clients at once: do not let Node's defaults close idle sockets under us.
  server.keepAliveTimeout = 60_000;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = new BenchHttp(url, opts.maxSockets ?? 64);
  return {
    engine,
    url,
    cloud,
    http,
    settle: () => cloud.deps.tasks.idle(),
    async close() {
      http.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await cloud.close();
      await removeData();
    },
  };
}

// --- HTTP ----------------------------------------------------------------------------------------

export interface BenchResponse {
  status: number;
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

export interface BenchRequest {
  token?: string;
  body?: unknown;
  /** `compute 2.105`, `volume 3.54`: sent as OpenStack-API-Version. */
  version?: string;
}

/**
 * node:http over keep-alive sockets: no connection set-up per request, and the body stays bytes
 * until a caller asks for JSON (a client's decode is not the server's time).
 */
export class BenchHttp {
  readonly #agent: Agent;

  constructor(
    readonly baseUrl: string,
    maxSockets: number,
  ) {
    this.#agent = new Agent({ keepAlive: true, maxSockets });
  }

  request(method: string, path: string, opts: BenchRequest = {}): Promise<BenchResponse> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (opts.token) headers['X-Auth-Token'] = opts.token;
    if (opts.version) headers['OpenStack-API-Version'] = opts.version;
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const req = request(this.baseUrl + path, { method, headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A request that must answer `expect` (a status or several); its body as JSON. */
  async json<T>(method: string, path: string, opts: BenchRequest & { expect?: number | number[] } = {}) {
    const res = await this.request(method, path, opts);
    const expected = opts.expect === undefined ? [200] : [opts.expect].flat();
    if (!expected.includes(res.status)) {
      throw new Error(`${method} ${path}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
    }
    return (res.body.length ? JSON.parse(res.body.toString('utf8')) : undefined) as T;
  }

  close(): void {
    this.#agent.destroy();
  }
}

export interface BenchSession {
  token: string;
  projectId: string;
  /** `/volume/v3/{project_id}`. */
  volumeBase: string;
}

/** Keystone password auth scoped to the user's namesake project (admin→admin, demo→demo). */
export async function login(http: BenchHttp, user: 'admin' | 'demo'): Promise<BenchSession> {
  const res = await http.request('POST', '/identity/v3/auth/tokens', {
    body: {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: user, domain: { name: 'Default' }, password: user } },
        },
        scope: { project: { name: user, domain: { name: 'Default' } } },
      },
    },
  });
  if (res.status !== 201) throw new Error(`login ${user}: ${res.status} ${res.body.toString('utf8')}`);
  const token = res.headers['x-subject-token'] as string;
  const projectId = (JSON.parse(res.body.toString('utf8')) as { token: { project: { id: string } } }).token
    .project.id;
  return { token, projectId, volumeBase: `/volume/v3/${projectId}` };
}

// --- Small shared helpers ------------------------------------------------------------------------

/** This process's CPU time (user + system) in ms since the call: client and in-process cloud. */
export function cpuClock(): () => number {
  const start = process.cpuUsage();
  return () => {
    const d = process.cpuUsage(start);
    return (d.user + d.system) / 1000;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work(i)` for i in [0, count) with at most `concurrency` in flight; results in order. */
export async function pool<T>(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}

/** A multiattach volume of `size` GB in the session's project, waited on until `available`. */
export async function createSharedVolume(
  http: BenchHttp,
  session: BenchSession,
  name: string,
  size = 1,
): Promise<string> {
  const created = await http.json<{ volume: { id: string } }>('POST', `${session.volumeBase}/volumes`, {
    token: session.token,
    version: 'volume 3.54',
    body: { volume: { name, size, volume_type: 'multiattach' } },
    expect: 202,
  });
  const id = created.volume.id;
  for (let i = 0; ; i++) {
    const v = await http.json<{ volume: { status: string } }>('GET', `${session.volumeBase}/volumes/${id}`, {
      token: session.token,
      version: 'volume 3.54',
    });
    if (v.volume.status === 'available') return id;
    if (v.volume.status === 'error' || i > 5000) throw new Error(`volume ${id}: ${v.volume.status}`);
    await sleep(1);
  }
}
