import { describe, expect } from 'vitest';
import { BACKEND } from '../../../src/volume/service/backend.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

let tc: TestCloud;
let demo: Session;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, adminSession);
});

describe('version discovery', () => {
  it('answers GET / with 300 and no token (captures 02, 220)', async () => {
    const res = await http(tc, 'GET', '/volume/');
    expect(res.status).toBe(300);
    expect(res.headers.get('openstack-api-version')).toBe('volume 3.0');
    expect(res.body.versions[0]).toMatchObject({
      id: 'v3.0',
      status: 'CURRENT',
      version: '3.71',
      min_version: '3.0',
    });
    expect(res.body.versions[0].links[1]).toEqual({ rel: 'self', href: `${tc.url}/volume/v3/` });
  });

  it('answers GET /v3/ with 200 with a token, 401 without (captures 221, 222)', async () => {
    const ok = await http(tc, 'GET', '/volume/v3/', { token: demo.token });
    expect(ok.status).toBe(200);
    expect(ok.body.versions).toHaveLength(1);
    const denied = await http(tc, 'GET', '/volume/v3/');
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({
      error: {
        code: 401,
        message: 'The request you have made requires authentication.',
        title: 'Unauthorized',
      },
    });
  });
});

describe('microversion negotiation on the volume API', () => {
  it('refuses a bad format without version headers (capture 223)', async () => {
    const res = await d.call('GET', '/volumes', { version: '3.x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(400, 'API Version String 3.x is of invalid format. Must be of format MajorNum.MinorNum.'),
    );
  });

  it('refuses an out-of-range version with 406 computeFault (capture 224)', async () => {
    const res = await d.call('GET', '/volumes', { version: '3.200' });
    expect(res.status).toBe(406);
    expect(res.body).toEqual({
      computeFault: {
        code: 406,
        message: 'Version 3.200 is not supported by the API. Minimum is 3.0 and maximum is 3.71.',
      },
    });
  });

  it('answers a header without a volume entry with webob’s 400 (capture 226)', async () => {
    const res = await http(tc, 'GET', `${demo.volumeBase}/volumes`, {
      token: demo.token,
      version: 'compute 2.60',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(
        400,
        'The server could not comply with the request since it is either malformed or otherwise incorrect.',
      ),
    );
  });

  it('asks for a token (capture 227)', async () => {
    const res = await http(tc, 'GET', `${demo.volumeBase}/volumes`, { version: 'volume 3.50' });
    expect(res.status).toBe(401);
  });

  it('answers 3.0 without a header and unknown paths with webob’s 404', async () => {
    const res = await d.call('GET', '/volumes', { version: null });
    expect(res.headers.get('openstack-api-version')).toBe('volume 3.0');
    const missing = await d.call('GET', '/no-such-thing');
    // The routes mapper's miss is webob's own body, as for a trailing slash (capture 610).
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      message: 'The resource could not be found.<br /><br />\n\n\n',
      code: '404 Not Found',
      title: 'Not Found',
    });
    expect(missing.headers.get('openstack-api-version')).toBeNull();
  });
});

describe('GET /scheduler-stats/get_pools', () => {
  it('is admin-only', async () => {
    const res = await d.call('GET', '/scheduler-stats/get_pools');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      fault(403, "Policy doesn't allow scheduler_extension:scheduler_stats:get_pools to be performed."),
    );
  });

  it('lists the backend pool by name, with its capabilities in detail', async () => {
    await d.createVolume({ size: 3 });
    const summary = await a.call('GET', '/scheduler-stats/get_pools');
    expect(summary.body).toEqual({ pools: [{ name: BACKEND.host }] });
    const detail = await a.call('GET', '/scheduler-stats/get_pools?detail=True');
    const pool = detail.body.pools[0];
    expect(pool.name).toBe('cloud@lvmdriver-1#lvmdriver-1');
    expect(pool.capabilities).toMatchObject({
      pool_name: 'lvmdriver-1',
      volume_backend_name: 'lvmdriver-1',
      storage_protocol: 'iSCSI',
      vendor_name: 'Open Source',
      driver_version: '3.0.0',
      multiattach: true,
      total_capacity_gb: 1000,
      free_capacity_gb: 997,
      allocated_capacity_gb: 3,
      total_volumes: 1,
      thin_provisioning_support: true,
      backend_state: 'up',
    });
    expect(pool.capabilities.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
  });

  it('filters by name (3.28) and volume type (3.35); refuses other filters from 3.33', async () => {
    const names = async (q: string, version: string) =>
      (
        (await a.call('GET', `/scheduler-stats/get_pools?${q}`, { version })).body.pools as { name: string }[]
      ).map((p) => p.name);
    expect(await names('name=other', '3.27')).toEqual([BACKEND.host]);
    expect(await names('name=other', '3.28')).toEqual([]);
    expect(await names(`name=${encodeURIComponent(BACKEND.host)}`, '3.28')).toEqual([BACKEND.host]);
    expect(await names('volume_type=multiattach', '3.35')).toEqual([BACKEND.host]);
    const far = `far-${Date.now()}`;
    await a.call('POST', '/types', {
      body: { volume_type: { name: far, extra_specs: { storage_protocol: 'FC' } } },
    });
    expect(await names(`volume_type=${far}`, '3.35')).toEqual([]);
    expect(await names(`volume_type=${far}`, '3.34')).toEqual([BACKEND.host]);
    const bad = await a.call('GET', '/scheduler-stats/get_pools?foo=1', { version: '3.33' });
    expect(bad.body).toEqual(fault(400, 'Invalid filters foo are found in query options.'));
    const badDetail = await a.call('GET', '/scheduler-stats/get_pools?detail=maybe');
    expect(badDetail.body).toEqual(fault(400, "Value 'maybe' for 'detail' is not a boolean."));
  });
});
