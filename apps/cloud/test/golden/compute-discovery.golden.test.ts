import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import {
  type Capture,
  type CompareCaptureOptions,
  compareCapture,
  compareShapes,
  type Json,
  type JsonObject,
  loadCapture,
  mapCapturePath,
  replayHeaders,
} from './capture.js';

/**
 * Golden tests for compute discovery, flavors, zones, services and hypervisors: each recorded
 * exchange is replayed against the bundled cloud and its status, keys, value types, formats and
 * (for documents and faults) values compared. Zed's maximum microversion was 2.93; ours is 2.105.
 */
let tc: TestCloud;
let sessions: Record<'demo' | 'admin', Session>;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  sessions = { demo: demoSession, admin: adminSession };
});

type User = 'demo' | 'admin' | 'none';

const VERSION_HEADERS = ['OpenStack-API-Version', 'X-OpenStack-Nova-API-Version', 'Vary'];

async function replay(cap: Capture, user: User, replaceIds: Record<string, string> = {}) {
  const token = user === 'none' ? undefined : sessions[user].token;
  const headers = replayHeaders(cap, token !== undefined ? { token } : {});
  const path = mapCapturePath(cap.request.url, { replaceIds });
  const body = cap.request.body;
  return http(tc, cap.request.method, path, {
    headers,
    ...(body !== null && body !== '' ? { rawBody: JSON.stringify(body) } : {}),
  });
}

async function check(
  n: number,
  user: User,
  opts: CompareCaptureOptions = {},
  replaceIds: Record<string, string> = {},
) {
  const cap = loadCapture(n);
  const res = await replay(cap, user, replaceIds);
  const diffs = compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
    formats: true,
    baseUrl: tc.url,
    ...opts,
    headers: {
      actual: res.headers,
      names: [...VERSION_HEADERS, 'X-Openstack-Request-Id'],
      exactValues: VERSION_HEADERS,
      formats: true,
    },
  });
  return { cap, res, diffs };
}

/** Zed advertised 2.93 where we advertise 2.105 (seeds/002): the only value allowed to differ. */
const ourMax = (v: Json, _path: string, side: 'expected' | 'actual'): Json =>
  side === 'expected' && v === '2.93' ? '2.105' : v;

describe('version discovery (captures 01, 88)', () => {
  it.each([
    [1, 'demo'],
    [88, 'none'],
  ] as const)('capture %i replays exactly, max version aside', async (n, user) => {
    const { diffs } = await check(n, user, { exact: ['$'], normalize: ourMax });
    expect(diffs).toEqual([]);
  });

  it('accepts 2.96 and 2.100, which Zed refused with 406 (captures 122, 123)', async () => {
    for (const n of [122, 123]) {
      const cap = loadCapture(n);
      const version = cap.request.headers['OpenStack-API-Version'] ?? '';
      expect(cap.response.status).toBe(406);
      const res = await http(tc, 'GET', '/compute/v2.1/', { headers: { 'OpenStack-API-Version': version } });
      expect(res.status).toBe(200);
      expect(res.headers.get('openstack-api-version')).toBe(version);
    }
  });
});

describe('microversion fallback (capture 94)', () => {
  it('serves a request with only a volume microversion at compute 2.1', async () => {
    // Status, body shape and the version headers (compute 2.1) are all compared with the capture.
    const { diffs } = await check(94, 'demo', { allowEmptyArrays: true });
    expect(diffs).toEqual([]);
  });
});

describe('flavors (captures 95-102, 179, 180)', () => {
  it.each([95, 96, 98, 100])('list capture %i has the same shape', async (n) => {
    const { diffs } = await check(n, 'demo');
    expect(diffs).toEqual([]);
  });

  it.each([97, 99, 101])('show capture %i (flavor 1) replays exactly', async (n) => {
    const { diffs } = await check(n, 'demo', { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('unknown flavor (capture 102) and member create (capture 180) match exactly', async () => {
    expect((await check(102, 'demo', { exact: ['$'] })).diffs).toEqual([]);
    expect((await check(180, 'demo', { exact: ['$'] })).diffs).toEqual([]);
  });

  it('admin create (capture 179) has the same status and shape', async () => {
    const { diffs } = await check(179, 'admin', {
      exact: ['$.flavor.name', '$.flavor.ram', '$.flavor.vcpus'],
    });
    expect(diffs).toEqual([]);
  });
});

describe('availability zones (captures 103-105)', () => {
  it('member list (capture 103)', async () => {
    const { diffs } = await check(103, 'demo');
    expect(diffs).toEqual([]);
  });

  it('admin detail (capture 104): same zones shape, and every host/service entry shaped alike', async () => {
    const { cap, res, diffs } = await check(104, 'admin', { ignore: ['$.availabilityZoneInfo[*].hosts'] });
    expect(diffs).toEqual([]);
    const capZones = (cap.response.body as JsonObject)['availabilityZoneInfo'] as JsonObject[];
    const capService = Object.values(Object.values(capZones[1]!['hosts'] as JsonObject)[0] as JsonObject)[0]!;
    const ours = res.body.availabilityZoneInfo as {
      zoneName: string;
      hosts: Record<string, Record<string, Json>>;
    }[];
    expect(ours.map((z) => z.zoneName)).toEqual(['internal', 'nova', 'az2']);
    for (const z of ours) {
      for (const services of Object.values(z.hosts)) {
        for (const svc of Object.values(services))
          expect(compareShapes(capService, svc, { formats: true })).toEqual([]);
      }
    }
  });

  it('member detail is refused (capture 105)', async () => {
    expect((await check(105, 'demo', { exact: ['$'] })).diffs).toEqual([]);
  });
});

describe('os-services (captures 106-108, 187, 198)', () => {
  it.each([106, 107])('admin list capture %i', async (n) => {
    const { diffs } = await check(n, 'admin');
    expect(diffs).toEqual([]);
  });

  it('member list is refused (capture 108)', async () => {
    expect((await check(108, 'demo', { exact: ['$'] })).diffs).toEqual([]);
  });

  it('enable (capture 187) then delete (capture 198) a compute service by uuid', async () => {
    const list = await http(tc, 'GET', '/compute/v2.1/os-services?host=compute-2', {
      token: sessions.admin.token,
      version: 'compute 2.53',
    });
    const ours = list.body.services[0].id as string;
    const captured = '8fdb6693-baae-4c48-b5ac-9fa6babc162f';
    const put = await check(
      187,
      'admin',
      { exact: ['$.service.binary', '$.service.status'] },
      { [captured]: ours },
    );
    expect(put.diffs).toEqual([]);
    expect(put.res.body.service.id).toBe(ours);
    const del = await check(198, 'admin', {}, { [captured]: ours });
    expect(del.diffs).toEqual([]);
  });
});

describe('os-hypervisors (captures 109-115)', () => {
  it.each([109, 110, 111, 113])('admin capture %i', async (n) => {
    const { diffs } = await check(n, 'admin');
    expect(diffs).toEqual([]);
  });

  it('detail at 2.53 (capture 112): cpu_info is driver-specific, compared as an object', async () => {
    const { res, diffs } = await check(112, 'admin', { ignore: ['$.hypervisors[*].cpu_info'] });
    expect(diffs).toEqual([]);
    for (const h of res.body.hypervisors) expect(typeof h.cpu_info).toBe('object');
  });

  it('detail at 2.88 (capture 114): uptime is libvirt text here, null from the fake driver there', async () => {
    const { diffs } = await check(114, 'admin', { nullable: ['$.hypervisors[*].uptime'] });
    expect(diffs).toEqual([]);
  });

  it('member list is refused (capture 115)', async () => {
    expect((await check(115, 'demo', { exact: ['$'] })).diffs).toEqual([]);
  });
});
