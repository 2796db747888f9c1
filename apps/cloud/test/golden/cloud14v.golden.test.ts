import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { type CompareCaptureOptions, compareCapture, loadCapture } from './capture.js';

/**
 * Golden tests for Keystone's services, endpoints and regions, and Cinder's os-hosts, /extensions
 * and backups (captures 750-759): each recorded request is sent to the bundled cloud and the status,
 * keys, value types and formats compared; fault messages and fixed documents exactly.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

async function check(n: number, session: Session, path: string, opts: CompareCaptureOptions = {}) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const res = await http(tc, cap.request.method, path, {
    token: session.token,
    ...(version ? { version } : {}),
  });
  return {
    res,
    diffs: compareCapture(cap, res.status, res.text === '' ? '' : res.body, { formats: true, ...opts }),
  };
}

describe('Keystone services, endpoints and regions (captures 750-754)', () => {
  it('lists services and public endpoints to the admin as Keystone does', async () => {
    const services = await check(750, admin, '/identity/v3/services');
    expect(services.diffs).toEqual([]);
    expect(services.res.body.links).toEqual({
      next: null,
      self: `${tc.url}/identity/v3/services`,
      previous: null,
    });
    const endpoints = await check(751, admin, '/identity/v3/endpoints?interface=public');
    expect(endpoints.diffs).toEqual([]);
    // Cinder's endpoints carry the project template the reference registers.
    const recorded = loadCapture(751).response.body as { endpoints: { url: string }[] };
    expect(recorded.endpoints.map((e) => e.url)).toContain('http://127.0.0.1:8776/v3/%(project_id)s');
    const urls = (endpoints.res.body.endpoints as { url: string }[]).map((e) => e.url);
    expect(urls).toContain(`${tc.url}/volume/v3/%(project_id)s`);
  });

  it('refuses endpoints to a member, shows RegionOne to anyone and 404s a missing service', async () => {
    for (const [n, session, path] of [
      [752, demo, '/identity/v3/endpoints'],
      [753, demo, '/identity/v3/regions/RegionOne'],
      [754, admin, '/identity/v3/services/nosuch'],
    ] as const) {
      const { diffs } = await check(n, session, path, {
        exact: ['$.error', '$.region.id', '$.region.description', '$.region.parent_region_id'],
      });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });
});

describe('Cinder os-hosts, extensions and backups (captures 755-759)', () => {
  it('lists hosts to admins only, as Cinder does', async () => {
    const hosts = await check(755, admin, `${admin.volumeBase}/os-hosts`, {
      exact: [
        '$.hosts[*].service',
        '$.hosts[*].zone',
        '$.hosts[*].service-status',
        '$.hosts[*].service-state',
      ],
    });
    expect(hosts.diffs).toEqual([]);
    const refused = await check(758, demo, `${demo.volumeBase}/os-hosts`, { exact: ['$'] });
    expect(refused.diffs).toEqual([]);
  });

  it('lists the same extensions, in the same order, and 404s an unknown alias', async () => {
    const listed = await check(756, admin, `${admin.volumeBase}/extensions`, { exact: ['$'] });
    expect(listed.diffs).toEqual([]);
    const missing = await check(759, admin, `${admin.volumeBase}/extensions/nosuch`, { exact: ['$'] });
    expect(missing.diffs).toEqual([]);
  });

  it('lists no backups', async () => {
    const { diffs } = await check(757, admin, `${admin.volumeBase}/backups/detail`, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });
});
