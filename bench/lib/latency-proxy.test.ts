import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchCloud, startBenchCloud } from './cloud-fixture.js';
import { LatencyProxy } from './latency-proxy.js';

// The proxy in front of the real bundled cloud (in this process, in-memory SQLite): what the BFF
// sees through it is what the round-trip bench measures.

let cloud: BenchCloud;
let proxy: LatencyProxy;

beforeAll(async () => {
  cloud = await startBenchCloud('sqlite', {}, { databaseUrl: ':memory:' });
  proxy = await LatencyProxy.start(cloud.url, {
    latencyMs: 40,
    hideExtensions: false,
    computeMaxVersion: null,
  });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await cloud?.close();
});

interface TokenBody {
  token: { catalog: { type: string; endpoints: { interface: string; url: string }[] }[] };
}

async function signIn(): Promise<{ token: string; compute: string; urls: string[] }> {
  const res = await fetch(`${proxy.url}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'demo', domain: { name: 'Default' }, password: 'demo' } },
        },
        scope: { project: { name: 'demo', domain: { name: 'Default' } } },
      },
    }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as TokenBody;
  const urls = body.token.catalog.flatMap((s) => s.endpoints.map((e) => e.url));
  const compute = body.token.catalog
    .find((s) => s.type === 'compute')!
    .endpoints.find((e) => e.interface === 'public')!.url;
  return { token: res.headers.get('x-subject-token')!, compute, urls };
}

const at = (version: string) => ({
  'OpenStack-API-Version': `compute ${version}`,
  'X-OpenStack-Nova-API-Version': version,
});

describe('the latency proxy', () => {
  it('hands out a catalog that names the proxy, so every later call comes back through it', async () => {
    const { urls } = await signIn();
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${proxy.url}/`)).toBe(true);
  });

  it('adds its latency to every call and records when each arrived and was answered', async () => {
    const { token, compute } = await signIn();
    const mark = proxy.mark();
    const t0 = performance.now();
    const res = await fetch(`${compute}/flavors`, { headers: { 'X-Auth-Token': token } });
    const wall = performance.now() - t0;
    expect(res.status).toBe(200);
    expect(wall).toBeGreaterThanOrEqual(39);
    const [recorded, ...more] = proxy.since(mark);
    expect(more).toEqual([]);
    expect(recorded).toMatchObject({
      method: 'GET',
      path: '/compute/v2.1/flavors',
      service: 'compute',
      status: 200,
    });
    expect(recorded!.end - recorded!.start).toBeGreaterThanOrEqual(39);
    await proxy.settled(20);
    expect(proxy.inFlight).toBe(0);
  });

  it("shows the cloud's extensions as they are, and hides them as a real Nova's 404 when told", async () => {
    const { token, compute } = await signIn();
    const topology = `${compute}/os-emulator-topology?server_id=none`;
    const shown = await fetch(topology, { headers: { 'X-Auth-Token': token } });
    expect(shown.status).not.toBe(404);

    proxy.profile = { ...proxy.profile, hideExtensions: true };
    try {
      const hidden = await fetch(topology, { headers: { 'X-Auth-Token': token } });
      expect(hidden.status).toBe(404);
      expect(await hidden.json()).toEqual({
        message: 'The resource could not be found.<br /><br />\n\n\n',
        code: '404 Not Found',
        title: 'Not Found',
      });
      const hosts = await fetch(`${compute}/os-emulator-hosts`, { headers: { 'X-Auth-Token': token } });
      expect(hosts.status).toBe(404);
      // Everything else still reaches the cloud.
      expect((await fetch(`${compute}/flavors`, { headers: { 'X-Auth-Token': token } })).status).toBe(200);
    } finally {
      proxy.profile = { ...proxy.profile, hideExtensions: false };
    }
  });

  it('caps the compute microversion when told, as a cloud without 2.105 would answer', async () => {
    const { token, compute } = await signIn();
    const doc = async () =>
      ((await (await fetch(`${compute}/`)).json()) as { version: { version: string } }).version;
    expect((await doc()).version).toBe('2.105');

    proxy.profile = { ...proxy.profile, computeMaxVersion: '2.104' };
    try {
      expect((await doc()).version).toBe('2.104');
      const list = (await (await fetch(`${proxy.url}/compute/`)).json()) as {
        versions: { version: string }[];
      };
      expect(list.versions.map((v) => v.version).filter((v) => v !== '')).toEqual(['2.104']);

      const above = await fetch(`${compute}/servers`, { headers: { 'X-Auth-Token': token, ...at('2.105') } });
      expect(above.status).toBe(406);
      expect(await above.json()).toEqual({
        computeFault: {
          code: 406,
          message: 'Version 2.105 is not supported by the API. Minimum is 2.1 and maximum is 2.104.',
        },
      });
      const latest = await fetch(`${compute}/servers`, {
        headers: { 'X-Auth-Token': token, ...at('latest') },
      });
      expect(latest.status).toBe(200);
      expect(latest.headers.get('openstack-api-version')).toBe('compute 2.104');
      const within = await fetch(`${compute}/servers`, {
        headers: { 'X-Auth-Token': token, ...at('2.104') },
      });
      expect(within.status).toBe(200);
    } finally {
      proxy.profile = { ...proxy.profile, computeMaxVersion: null };
    }
  });
});
