import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBffApp } from '../src/app.js';
import { type BffConfig, loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { MemorySessionStore } from '../src/platform/session-store.js';
import { PgVolumeLock } from '../src/platform/volume-lock.js';
import { inventory } from './helpers/inventory.js';
import { type ApiClient, type ApiResult, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, finding 3: the two-writer acknowledgement must hold under concurrency. Ten read-write
 * attaches of one shared volume at once, none acknowledged: exactly one may win (the volume had no
 * writer), every other one gets the typed 409 asking for the acknowledgement. Acknowledged, all ten
 * succeed. Through one BFF, and through two BFFs that agree through one PostgreSQL.
 */

const N = 10;

type Attach = (serverId: string, body: Record<string, unknown>) => Promise<ApiResult>;

/** N attaches of one volume at once, each to its own server; the answers in server order. */
const attachAll = (attach: Attach, servers: string[], volumeId: string, ack: boolean) =>
  Promise.all(
    servers.map((s, i) =>
      attach(s, {
        volumeId,
        mode: 'rw',
        ...(ack ? { acknowledgeMultipleWriters: true } : {}),
      }).then((r) => ({ i, r })),
    ),
  );

function tally(results: { r: ApiResult }[]) {
  const won = results.filter((x) => x.r.status === 201);
  const refused = results.filter((x) => x.r.status === 409);
  return { won, refused, other: results.filter((x) => x.r.status !== 201 && x.r.status !== 409) };
}

/** The rule's outcome on a volume that had no holder: one writer, the rest asked to acknowledge. */
function expectOneWriter(results: { r: ApiResult }[]) {
  const { won, refused, other } = tally(results);
  expect(other.map((x) => `${x.r.status} ${x.r.text}`)).toEqual([]);
  expect(won).toHaveLength(1);
  expect(refused).toHaveLength(N - 1);
  const winner = won[0]!.r.body.serverId as string;
  for (const x of refused) {
    expect(x.r.body.error.code).toBe('multiple_writers_unacknowledged');
    expect(x.r.body.error.message).toMatch(/cluster file system/);
    expect(x.r.body.error.details.writers).toEqual([expect.objectContaining({ serverId: winner })]);
  }
  return winner;
}

async function rwHolders(client: ApiClient, volumeId: string): Promise<string[]> {
  const v = await client.get(`/api/volumes/${volumeId}`);
  expect(v.status).toBe(200);
  return v.body.attachments
    .filter((a: { mode: string }) => a.mode === 'rw')
    .map((a: { serverId: string }) => a.serverId)
    .sort();
}

describe('concurrent read-write attaches through one BFF', () => {
  let stack: TestStack;
  let inv: ReturnType<typeof inventory>;
  let demo: ApiClient;
  const servers: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
    inv = inventory(stack);
    await inv.modernHostsOnly();
    demo = await stack.signIn('demo');
    for (let i = 0; i < N; i++) servers.push(await inv.server('demo', `race-${i}`));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const attach: Attach = (s, body) => demo.post(`/api/servers/${s}/attachments`, body);

  it('without the acknowledgement: exactly one writer, the others get the typed 409', async () => {
    const vol = await inv.volume('demo', 'race-unacked', { shared: true });
    const winner = expectOneWriter(await attachAll(attach, servers, vol, false));
    await stack.cloud.settle();
    expect(await rwHolders(demo, vol)).toEqual([winner]);
  });

  it('with an existing writer: none of ten unacknowledged writers gets in', async () => {
    const vol = await inv.volume('demo', 'race-held', { shared: true });
    await inv.attach('demo', servers[0]!, vol, 'rw');
    const { won, refused, other } = tally(await attachAll(attach, servers.slice(1), vol, false));
    expect(other).toEqual([]);
    expect(won).toEqual([]);
    expect(refused).toHaveLength(N - 1);
    await stack.cloud.settle();
    expect(await rwHolders(demo, vol)).toEqual([servers[0]]);
  });

  it('with the acknowledgement: all ten attach read-write', async () => {
    const vol = await inv.volume('demo', 'race-acked', { shared: true });
    const results = await attachAll(attach, servers, vol, true);
    expect(results.map((x) => x.r.status)).toEqual(Array(N).fill(201));
    await stack.cloud.settle();
    expect(await rwHolders(demo, vol)).toEqual([...servers].sort());
  });

  it('read-only attaches need no acknowledgement and do not count as writers', async () => {
    const vol = await inv.volume('demo', 'race-readers', { shared: true });
    // Nine readers and one writer at once: every one attaches (the writer is the only writer).
    const results = await Promise.all(
      servers.map((s, i) => attach(s, { volumeId: vol, mode: i === N - 1 ? 'rw' : 'ro' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(201));
    await stack.cloud.settle();
    expect(await rwHolders(demo, vol)).toEqual([servers[N - 1]]);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)(
  'concurrent read-write attaches through two BFFs on one PostgreSQL (needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)',
  () => {
    let stack: TestStack;
    let inv: ReturnType<typeof inventory>;
    const bffs: { server: Server; lock: PgVolumeLock; demo: ApiClient }[] = [];
    const servers: string[] = [];
    // Each run takes its own lock keys, so parallel runs on one database do not wait on each other.
    const namespace = `writers-race-${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      // The first stack gives the cloud and a client factory; the two BFFs under test are built here.
      stack = await startStack();
      inv = inventory(stack);
      await inv.modernHostsOnly();
      for (let i = 0; i < 2; i++) {
        const config: BffConfig = {
          ...loadConfig({}),
          databaseFile: ':memory:',
          port: 0,
          authUrl: `${stack.cloud.url}/identity/v3`,
          sessionDatabaseUrl: url!,
          logLevel: 'silent',
          webDist: '/nonexistent',
          loginRateLimit: 1000,
        };
        const logger = createLogger('silent');
        const lock = new PgVolumeLock(url!, logger, { namespace });
        const app = createBffApp({ config, logger, sessions: new MemorySessionStore(), volumeLock: lock });
        const server: Server = await new Promise((resolve) => {
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
        });
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        bffs.push({ server, lock, demo: await signInAt(base) });
      }
      for (let i = 0; i < N; i++) servers.push(await inv.server('demo', `pg-race-${i}`));
    });
    afterAll(async () => {
      for (const b of bffs) {
        await new Promise<void>((resolve) => b.server.close(() => resolve()));
        b.server.closeAllConnections();
        await b.lock.close();
      }
      await stack?.close();
    });

    // Alternate between the two BFFs, as a load balancer would.
    const attach: Attach = (s, body) => {
      const i = servers.indexOf(s);
      return bffs[i % 2]!.demo.post(`/api/servers/${s}/attachments`, body);
    };

    it('without the acknowledgement: exactly one writer across both BFFs', async () => {
      const vol = await inv.volume('demo', 'pg-race-unacked', { shared: true });
      const winner = expectOneWriter(await attachAll(attach, servers, vol, false));
      await stack.cloud.settle();
      expect(await rwHolders(bffs[0]!.demo, vol)).toEqual([winner]);
    });

    it('with the acknowledgement: all ten attach read-write', async () => {
      const vol = await inv.volume('demo', 'pg-race-acked', { shared: true });
      const results = await attachAll(attach, servers, vol, true);
      expect(results.map((x) => x.r.status)).toEqual(Array(N).fill(201));
      await stack.cloud.settle();
      expect(await rwHolders(bffs[1]!.demo, vol)).toEqual([...servers].sort());
    });
  },
);

/** A signed-in demo client against a BFF at `base` (the stack's client only knows its own BFF). */
async function signInAt(base: string): Promise<ApiClient> {
  const c: ApiClient = {
    cookie: null,
    csrf: null,
    async request(method, path, body, headers = {}) {
      const h: Record<string, string> = { Accept: 'application/json', ...headers };
      if (c.cookie) h.Cookie = c.cookie;
      if (c.csrf && method !== 'GET') h['X-CSRF-Token'] = c.csrf;
      if (body !== undefined) h['Content-Type'] = 'application/json';
      const res = await fetch(base + path, {
        method,
        headers: h,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const setCookie = res.headers.get('set-cookie');
      if (setCookie) c.cookie = setCookie.split(';')[0] ?? null;
      const text = await res.text();
      const parsed = text ? JSON.parse(text) : undefined;
      if (parsed && typeof parsed === 'object' && 'csrfToken' in parsed) c.csrf = String(parsed.csrfToken);
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    get: (path) => c.request('GET', path),
    post: (path, body) => c.request('POST', path, body),
    put: (path, body) => c.request('PUT', path, body),
    delete: (path) => c.request('DELETE', path),
  };
  const res = await c.post('/api/session', { username: 'demo', password: 'demo' });
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return c;
}
