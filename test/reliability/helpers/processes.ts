import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Real cloud and BFF processes for the reliability tests and the benches: each one is
 * `node --import tsx apps/<app>/src/main.ts` with its own environment, so it can be killed with
 * SIGKILL and started again on the same database like a deployed process.
 */

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const pgUrl = (): string | undefined => process.env.TEST_DATABASE_URL;

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface AppProcess {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** kill -9: no shutdown hook runs. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

interface SpawnOptions {
  name: string;
  app: 'cloud' | 'bff';
  port: number;
  env: Record<string, string>;
  /** Path polled until it answers (any HTTP status). */
  readyPath: string;
  timeoutMs?: number;
}

async function spawnApp(opts: SpawnOptions): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', `apps/${opts.app}/src/main.ts`], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out += b.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${opts.port}`;
  const proc: AppProcess = {
    name: opts.name,
    url,
    port: opts.port,
    child,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${opts.name} exited before answering:\n${out}`);
    }
    try {
      await fetch(url + opts.readyPath, { signal: AbortSignal.timeout(2_000) });
      return proc;
    } catch {
      if (Date.now() > deadline) {
        await proc.kill();
        throw new Error(`${opts.name} did not answer within ${opts.timeoutMs ?? 60_000} ms:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export interface CloudProcessOptions {
  /** `file:/path/cloud.db` or a postgres:// URL. */
  databaseUrl: string;
  port?: number;
  backendDelayMs?: number;
  env?: Record<string, string>;
  name?: string;
}

/** A bundled-cloud process; answers once Keystone's version document does. */
export async function spawnCloud(opts: CloudProcessOptions): Promise<AppProcess> {
  const port = opts.port ?? (await freePort());
  return spawnApp({
    name: opts.name ?? `cloud:${port}`,
    app: 'cloud',
    port,
    readyPath: '/identity/v3',
    env: {
      CLOUD_PORT: String(port),
      DATABASE_URL: opts.databaseUrl,
      CLOUD_BACKEND_DELAY_MS: String(opts.backendDelayMs ?? 0),
      ...opts.env,
    },
  });
}

export interface BffProcessOptions {
  /** The cloud's Keystone, e.g. `${cloud.url}/identity/v3`. */
  authUrl: string;
  /** postgres:// to keep sessions in PostgreSQL. */
  databaseUrl?: string;
  port?: number;
  env?: Record<string, string>;
  name?: string;
}

/** A BFF process; ready once /api/health answers. */
export async function spawnBff(opts: BffProcessOptions): Promise<AppProcess> {
  const port = opts.port ?? (await freePort());
  return spawnApp({
    name: opts.name ?? `bff:${port}`,
    app: 'bff',
    port,
    readyPath: '/api/health',
    env: {
      PORT: String(port),
      OS_AUTH_URL: opts.authUrl,
      WEB_DIST: '/nonexistent',
      LOGIN_RATE_LIMIT: '10000',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...opts.env,
    },
  });
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty PostgreSQL database on the server of TEST_DATABASE_URL, for processes that take a
 * plain DATABASE_URL (they cannot be told a schema). Dropped, with its connections, by `drop()`.
 */
export async function scratchDatabase(prefix = 'rel'): Promise<ScratchDatabase> {
  const base = pgUrl();
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
