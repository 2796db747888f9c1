import { describe, expect } from 'vitest';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

/** Cinder's os-hosts (admins) and /extensions (any token). */

let tc: TestCloud;
let demo: Session;
let admin: Session;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, adminSession);
});

describe('os-hosts', () => {
  it('lists the enabled cinder services by host for admins, filtered by zone', async () => {
    const res = await a.call('GET', '/os-hosts');
    expect(res.status).toBe(200);
    const hosts = res.body.hosts as Record<string, string>[];
    expect(hosts.map((h) => `${h.service} ${h.host_name}`).sort()).toEqual([
      'cinder-scheduler cloud',
      'cinder-volume cloud@lvmdriver-1',
    ]);
    expect(hosts[0]).toEqual({
      host_name: expect.any(String),
      service: expect.any(String),
      zone: 'nova',
      'service-status': 'available',
      'service-state': 'enabled',
      'last-update': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000$/),
    });
    expect((await a.call('GET', '/os-hosts?zone=nowhere')).body).toEqual({ hosts: [] });
    expect((await a.call('GET', '/os-hosts?zone=')).body.hosts).toHaveLength(2);
    const member = await d.call('GET', '/os-hosts');
    expect(member.status).toBe(403);
    expect(member.body).toEqual(fault(403, "Policy doesn't allow volume_extension:hosts to be performed."));
  });

  it('shows a volume host’s usage in total and per project, counts as strings', async () => {
    const volumeId = await d.createVolume({ size: 2 });
    const snap = await d.call('POST', '/snapshots', { body: { snapshot: { volume_id: volumeId } } });
    expect(snap.status).toBe(202);
    await tc.settle();
    const res = await a.call('GET', '/os-hosts/cloud@lvmdriver-1');
    expect(res.status).toBe(200);
    const rows = (res.body.host as { resource: Record<string, string> }[]).map((r) => r.resource);
    expect(rows[0]).toMatchObject({ host: 'cloud@lvmdriver-1', project: '(total)' });
    const own = rows.find((r) => r.project === demo.projectId)!;
    expect(own.host).toBe('cloud@lvmdriver-1');
    expect(Number(own.volume_count)).toBeGreaterThanOrEqual(1);
    expect(Number(own.snapshot_count)).toBeGreaterThanOrEqual(1);
    expect(Number(own.total_snapshot_gb)).toBeGreaterThanOrEqual(2);
    expect(Object.values(own).every((v) => typeof v === 'string')).toBe(true);
    const sum = (k: string) => rows.slice(1).reduce((n, r) => n + Number(r[k]), 0);
    for (const k of ['volume_count', 'total_volume_gb', 'snapshot_count', 'total_snapshot_gb']) {
      expect(rows[0]![k]).toBe(String(sum(k)));
    }
    // The scheduler's host runs no cinder-volume.
    const scheduler = await a.call('GET', '/os-hosts/nosuch');
    expect(scheduler.status).toBe(404);
    expect(scheduler.body).toEqual(fault(404, 'Service cinder-volume could not be found on host nosuch.'));
    expect(admin.projectId).not.toBe(demo.projectId);
  });
});

describe('extensions', () => {
  it('lists Cinder’s extensions to any token and shows one by alias', async () => {
    const res = await d.call('GET', '/extensions');
    expect(res.status).toBe(200);
    const exts = res.body.extensions as { name: string; alias: string }[];
    expect(exts).toHaveLength(32);
    expect(exts.map((e) => e.name)).toContain('Hosts');
    const shown = await d.call('GET', '/extensions/os-hosts');
    expect(shown.body).toEqual({
      extension: {
        name: 'Hosts',
        alias: 'os-hosts',
        description: 'Admin-only host administration.',
        updated: '2011-06-29T00:00:00+00:00',
        links: [],
      },
    });
    const missing = await d.call('GET', '/extensions/nosuch');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(fault(404, 'The resource could not be found.'));
  });
});

describe('backend capabilities', () => {
  it('shows the LVM backend’s capabilities to admins by pool or backend name; 404 for another', async () => {
    const res = await a.call('GET', '/capabilities/cloud@lvmdriver-1#lvmdriver-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      namespace: 'OS::Storage::Capabilities::cloud@lvmdriver-1',
      vendor_name: 'Open Source',
      volume_backend_name: 'lvmdriver-1',
      pool_name: null,
      driver_version: '3.0.0',
      storage_protocol: 'iSCSI',
      display_name: null,
      description: null,
      visibility: null,
      replication_targets: [],
      properties: {
        thin_provisioning: {
          title: 'Thin Provisioning',
          description: 'Sets thin provisioning.',
          type: 'boolean',
        },
        compression: { title: 'Compression', description: 'Enables compression.', type: 'boolean' },
        qos: { title: 'QoS', description: 'Enables QoS.', type: 'boolean' },
        replication_enabled: { title: 'Replication', description: 'Enables replication.', type: 'boolean' },
      },
    });
    // The same values the scheduler's pool stats report.
    const pools = await a.call('GET', '/scheduler-stats/get_pools?detail=True');
    const pool = pools.body.pools[0].capabilities;
    for (const k of ['vendor_name', 'volume_backend_name', 'storage_protocol', 'driver_version']) {
      expect(res.body[k]).toBe(pool[k]);
    }
    expect((await a.call('GET', '/capabilities/cloud@lvmdriver-1')).status).toBe(200);
    const missing = await a.call('GET', '/capabilities/cloud');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(fault(404, "Can't find service: cloud"));
    const member = await d.call('GET', '/capabilities/cloud@lvmdriver-1');
    expect(member.body).toEqual(
      fault(403, "Policy doesn't allow volume_extension:capabilities to be performed."),
    );
  });
});
