import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { startCloud, type TestCloud } from '../../../cloud/test/helpers/cloud.js';
import type { CloudConfig } from '../../../cloud/src/config.js';
import { createBffApp } from '../../src/app.js';
import { type BffConfig, loadConfig } from '../../src/config.js';
import {
  type LaunchLeases,
  type LaunchService,
  launchService,
  launchStoreFor,
} from '../../src/features/launch/launch.service.js';
import { ChangeBus } from '../../src/platform/events.js';
import { volumeLockFor } from '../../src/platform/volume-lock.js';
import { clientErrorResponder } from '../../src/platform/client-error.js';
import { createLogger } from '../../src/platform/logger.js';
import { MemorySessionStore, type SessionStore } from '../../src/platform/session-store.js';

/** The real bundled cloud and a BFF pointed at its Keystone, both on ephemeral ports. */
export interface TestStack {
  cloud: TestCloud;
  bffUrl: string;
  config: BffConfig;
  sessions: SessionStore;
  /** The BFF's launches (stop it to stand in for the process dying). */
  launches: LaunchService;
  /** A browser-like client: keeps the session cookie, sends the CSRF token on mutations. */
  client(): ApiClient;
  /** A client already signed in as `demo` or `admin` (password = user name). */
  signIn(user: string, project?: string): Promise<ApiClient>;
  close(): Promise<void>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  body: any;
  text: string;
}

export interface ApiClient {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResult>;
  get(path: string): Promise<ApiResult>;
  post(path: string, body?: unknown): Promise<ApiResult>;
  put(path: string, body?: unknown): Promise<ApiResult>;
  delete(path: string): Promise<ApiResult>;
  cookie: string | null;
  csrf: string | null;
}

export async function startStack(
  opts: {
    bff?: Partial<BffConfig>;
    cloud?: Partial<CloudConfig>;
    sessions?: SessionStore;
    /** Another stack's cloud: this BFF joins it (a second BFF process), and leaves it running on close. */
    sharedCloud?: TestCloud;
    leases?: Partial<LaunchLeases>;
  } = {},
): Promise<TestStack> {
  const cloud = opts.sharedCloud ?? (await startCloud(opts.cloud));
  const config: BffConfig = {
    ...loadConfig({}),
    databaseFile: ':memory:',
    port: 0,
    authUrl: `${cloud.url}/identity/v3`,
    logLevel: 'silent',
    webDist: '/nonexistent',
    loginRateLimit: 1000,
    loginAccountRateLimit: 1000,
    ...opts.bff,
  };
  const sessions = opts.sessions ?? new MemorySessionStore();
  const logger = createLogger(process.env.BFF_TEST_LOG_LEVEL ?? 'silent');
  const changes = new ChangeBus();
  const volumeLock = volumeLockFor(config.sessionDatabaseUrl, logger);
  const launches = launchService({
    volumeLock,
    store: launchStoreFor(config, logger),
    changes,
    logger,
    sessions,
    ...(opts.leases ? { leases: opts.leases } : {}),
  });
  const app = createBffApp({ config, logger, sessions, changes, launches, volumeLock });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // As main.ts does.
  server.on('clientError', clientErrorResponder(logger));
  const bffUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const client = (): ApiClient => {
    const c: ApiClient = {
      cookie: null,
      csrf: null,
      async request(method, path, body, headers = {}) {
        const h: Record<string, string> = { Accept: 'application/json', ...headers };
        if (c.cookie) h.Cookie = c.cookie;
        if (c.csrf && method !== 'GET' && !('X-CSRF-Token' in headers)) h['X-CSRF-Token'] = c.csrf;
        if (body !== undefined) h['Content-Type'] = 'application/json';
        const res = await fetch(bffUrl + path, {
          method,
          headers: h,
          ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
        });
        const setCookie = res.headers.get('set-cookie');
        if (setCookie) {
          const value = setCookie.split(';')[0] ?? '';
          c.cookie = value.endsWith('=') ? null : value;
        }
        const text = await res.text();
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        if (parsed && typeof parsed === 'object' && 'csrfToken' in parsed) c.csrf = String(parsed.csrfToken);
        return { status: res.status, headers: res.headers, body: parsed, text };
      },
      get: (path) => c.request('GET', path),
      post: (path, body) => c.request('POST', path, body),
      put: (path, body) => c.request('PUT', path, body),
      delete: (path) => c.request('DELETE', path),
    };
    return c;
  };

  return {
    cloud,
    bffUrl,
    config,
    sessions,
    launches,
    client,
    async signIn(user, project) {
      const c = client();
      const res = await c.post('/api/session', {
        username: user,
        password: user,
        ...(project ? { project } : {}),
      });
      if (res.status !== 201) throw new Error(`sign-in as ${user} failed: ${res.status} ${res.text}`);
      return c;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await launches.close();
      await volumeLock.close();
      await sessions.close();
      if (!opts.sharedCloud) await cloud.close();
    },
  };
}
