import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

/**
 * `os-simple-tenant-usage` (nova/api/openstack/compute/simple_tenant_usage.py): hours per server
 * within a window, weighted by the flavor; the whole cloud for admins, a project for its members.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;
let running: string;
let gone: string;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
  const boot = async (name: string) => {
    const res = await nova('POST', '/servers', {
      body: { server: { name, flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
    });
    expect(res.status).toBe(202);
    return res.body.server.id as string;
  };
  running = await boot('usage-running');
  gone = await boot('usage-gone');
  await tc.settle();
  await nova('DELETE', `/servers/${gone}`);
  await tc.settle();
  // Known times: one launched on New Year 2026 and still running, one that ran from 01:00 to 01:30.
  const db = tc.cloud.deps.store.db;
  await db
    .updateTable('servers')
    .set({ launched_at: '2026-01-01T00:00:00.000Z' })
    .where('id', '=', running)
    .execute();
  await db
    .updateTable('servers')
    .set({ launched_at: '2026-01-01T01:00:00.000Z', terminated_at: '2026-01-01T01:30:00.000Z' })
    .where('id', '=', gone)
    .execute();
});

const WINDOW = 'start=2025-12-31T23:00:00&end=2026-01-01T02:00:00.250000';

describe('a project’s usage', () => {
  it('hours within the window, weighted by m1.tiny; the deleted server up to its termination', async () => {
    const res = await nova('GET', `/os-simple-tenant-usage/${demo.projectId}?${WINDOW}`);
    expect(res.status).toBe(200);
    const u = res.body.tenant_usage;
    expect(Object.keys(u)).toEqual([
      'tenant_id',
      'server_usages',
      'total_local_gb_usage',
      'total_vcpus_usage',
      'total_memory_mb_usage',
      'total_hours',
      'start',
      'stop',
    ]);
    const hours = 2 + 0.25 / 3600 + 0.5;
    expect(u).toMatchObject({
      tenant_id: demo.projectId,
      start: '2025-12-31T23:00:00.000000',
      stop: '2026-01-01T02:00:00.250000',
    });
    expect(u.total_hours).toBeCloseTo(hours, 9);
    expect(u.total_vcpus_usage).toBeCloseTo(hours, 9);
    expect(u.total_memory_mb_usage).toBeCloseTo(512 * hours, 6);
    expect(u.total_local_gb_usage).toBeCloseTo(hours, 9);
    const byId = Object.fromEntries(u.server_usages.map((s: { instance_id: string }) => [s.instance_id, s]));
    expect(byId[running]).toEqual({
      hours: expect.closeTo(2 + 0.25 / 3600, 9),
      flavor: 'm1.tiny',
      instance_id: running,
      name: 'usage-running',
      tenant_id: demo.projectId,
      memory_mb: 512,
      local_gb: 1,
      vcpus: 1,
      started_at: '2026-01-01T00:00:00.000000',
      ended_at: null,
      state: 'active',
      uptime: expect.any(Number),
    });
    expect(byId[gone]).toMatchObject({
      hours: 0.5,
      state: 'terminated',
      ended_at: '2026-01-01T01:30:00.000000',
      uptime: 1800,
    });
  });

  it('a window before any launch: an empty object', async () => {
    const res = await nova(
      'GET',
      `/os-simple-tenant-usage/${demo.projectId}?start=2020-01-01T00:00:00&end=2020-01-02T00:00:00`,
    );
    expect(res.body).toEqual({ tenant_usage: {} });
  });

  it('2.40 pages by server: limit and a next link with the marker', async () => {
    const res = await nova('GET', `/os-simple-tenant-usage/${demo.projectId}?${WINDOW}&limit=1`, {
      version: '2.40',
    });
    expect(res.body.tenant_usage.server_usages).toHaveLength(1);
    const first = res.body.tenant_usage.server_usages[0].instance_id;
    const next = res.body.tenant_usage_links[0];
    expect(next.rel).toBe('next');
    expect(next.href).toContain(`/compute/v2.1/os-simple-tenant-usage/${demo.projectId}?`);
    expect(next.href).toContain(`marker=${first}`);
    const rest = await nova(
      'GET',
      `/os-simple-tenant-usage/${demo.projectId}?${WINDOW}&limit=1&marker=${first}`,
      {
        version: '2.40',
      },
    );
    expect(
      rest.body.tenant_usage.server_usages.map((s: { instance_id: string }) => s.instance_id),
    ).not.toContain(first);
    const bad = await nova('GET', `/os-simple-tenant-usage/${demo.projectId}?${WINDOW}&marker=nope`, {
      version: '2.40',
    });
    expect(bad.body).toEqual(fault(400, 'Marker nope could not be found.'));
  });

  it('another project’s usage: the show rule’s 403', async () => {
    const res = await nova('GET', `/os-simple-tenant-usage/${admin.projectId}?${WINDOW}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-simple-tenant-usage:show to be performed."),
    );
  });
});

describe('every project’s usage (admin)', () => {
  it('summaries per project; detailed=1 adds the servers', async () => {
    const res = await nova('GET', `/os-simple-tenant-usage?${WINDOW}`, { session: admin });
    expect(res.status).toBe(200);
    const mine = res.body.tenant_usages.find((t: { tenant_id: string }) => t.tenant_id === demo.projectId);
    expect(mine).not.toHaveProperty('server_usages');
    expect(mine.total_hours).toBeCloseTo(2.5 + 0.25 / 3600, 9);
    const detailed = await nova('GET', `/os-simple-tenant-usage?${WINDOW}&detailed=1`, { session: admin });
    const d = detailed.body.tenant_usages.find((t: { tenant_id: string }) => t.tenant_id === demo.projectId);
    expect(d.server_usages).toHaveLength(2);
  });

  it('a member: the list rule’s 403', async () => {
    const res = await nova('GET', `/os-simple-tenant-usage?${WINDOW}`);
    expect(res.body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-simple-tenant-usage:list to be performed."),
    );
  });
});

describe('bad windows', () => {
  it.each([
    // Captures 1018, 1019: any text reaches Nova's own parser, whatever the schema's format says.
    ['start=yesterday', 'Invalid datetime string: Datetime is in invalid format'],
    ['start=2026-01-01T00:00:00Z', 'Invalid datetime string: Datetime is in invalid format'],
    [
      'start=2026-01-02T00:00:00&end=2026-01-01T00:00:00',
      'Invalid start time. The start time cannot occur after the end time.',
    ],
    [
      'detailed=yes',
      "Invalid input for query parameters detailed. Value: yes. 'yes' is not one of ['0', '1']",
    ],
  ])('%s: 400', async (query, message) => {
    const res = await nova('GET', `/os-simple-tenant-usage?${query}`, { session: admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, message));
  });

  it('an empty tenant id (a trailing slash) is no route: 404', async () => {
    const res = await nova('GET', `/os-simple-tenant-usage/?${WINDOW}`, { session: admin });
    expect(res.status).toBe(404);
  });

  it('2.75 refuses unknown parameters; below it they are ignored', async () => {
    expect(
      (await nova('GET', `/os-simple-tenant-usage?${WINDOW}&foo=1`, { session: admin, version: '2.75' }))
        .status,
    ).toBe(400);
    expect(
      (await nova('GET', `/os-simple-tenant-usage?${WINDOW}&foo=1`, { session: admin, version: '2.74' }))
        .status,
    ).toBe(200);
  });
});
