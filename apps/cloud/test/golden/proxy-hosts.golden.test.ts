import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { createServer } from '../helpers/compute-fixtures.js';
import { type CompareCaptureOptions, compareCapture, loadCapture } from './capture.js';

/**
 * Golden tests for the compute os-volumes / os-snapshots proxy, os-hosts, os-aggregates and the
 * instance usage audit log (captures 970-999): each recorded request is replayed against the
 * bundled cloud and its status, keys, value types and formats compared, with fault messages and
 * fixed values exactly. Host names differ (the reference has one host, `oracle-compute`).
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

async function check(
  n: number,
  session: Session,
  path: string,
  opts: CompareCaptureOptions & { body?: unknown } = {},
) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const { body, ...compare } = opts;
  const sent = body !== undefined ? body : cap.request.body;
  const res = await http(tc, cap.request.method, `/compute/v2.1${path}`, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(sent !== null && sent !== '' ? { body: sent } : {}),
  });
  return {
    res,
    diffs: compareCapture(cap, res.status, res.text === '' ? '' : res.body, { formats: true, ...compare }),
  };
}

const FAULT = ['$'];

describe('os-volumes / os-snapshots proxy (captures 970-980)', () => {
  it('creates, shows, lists, snapshots and deletes a volume as Nova proxies Cinder', async () => {
    const created = await check(970, demo, '/os-volumes', {
      exact: [
        '$.volume.displayName',
        '$.volume.displayDescription',
        '$.volume.metadata',
        '$.volume.attachments',
      ],
    });
    expect(created.diffs).toEqual([]);
    const id = created.res.body.volume.id as string;
    expect(created.res.headers.get('location')).toMatch(new RegExp(`/compute/v2.1/os-volumes/${id}$`));
    await tc.settle();
    const shown = await check(971, demo, `/os-volumes/${id}`, {
      exact: ['$.volume.status', '$.volume.size', '$.volume.metadata', '$.volume.attachments'],
    });
    expect(shown.diffs).toEqual([]);
    expect((await check(972, demo, '/os-volumes/detail?limit=1&offset=0')).diffs).toEqual([]);

    const snap = await check(976, demo, '/os-snapshots', {
      body: { snapshot: { volume_id: id, display_name: 'proxy-snap', display_description: 'snap via nova' } },
      exact: ['$.snapshot.displayName', '$.snapshot.displayDescription', '$.snapshot.size'],
    });
    expect(snap.diffs).toEqual([]);
    expect(snap.res.body.snapshot.volumeId).toBe(id);
    await tc.settle();
    const snapId = snap.res.body.snapshot.id as string;
    expect(
      (await check(977, demo, `/os-snapshots/${snapId}`, { exact: ['$.snapshot.status'] })).diffs,
    ).toEqual([]);
    expect((await check(978, demo, `/os-volumes/${id}`, { exact: FAULT })).diffs).toEqual([]);

    const del = await http(tc, 'DELETE', `/compute/v2.1/os-snapshots/${snapId}`, { token: demo.token });
    expect(del.status).toBe(202);
    await tc.settle();
    const gone = await http(tc, 'DELETE', `/compute/v2.1/os-volumes/${id}`, { token: demo.token });
    expect(gone.status).toBe(202);
  });

  it('shows an attached volume with its server and device (capture 979), refuses deleting it (980)', async () => {
    const created = await http(tc, 'POST', '/compute/v2.1/os-volumes', {
      token: demo.token,
      body: {
        volume: {
          size: 1,
          display_name: 'proxy-vol',
          display_description: 'made through nova',
          metadata: { k1: 'v1' },
        },
      },
    });
    const id = created.body.volume.id as string;
    await tc.settle();
    const server = await createServer(tc, { projectId: demo.projectId, userId: demo.userId });
    const attach = await http(tc, 'POST', `/compute/v2.1/servers/${server.id}/os-volume_attachments`, {
      token: demo.token,
      version: 'compute 2.60',
      body: { volumeAttachment: { volumeId: id } },
    });
    expect(attach.status).toBe(200);
    await tc.settle();
    const shown = await check(979, demo, `/os-volumes/${id}`, {
      exact: ['$.volume.status', '$.volume.metadata'],
    });
    expect(shown.diffs).toEqual([]);
    expect(shown.res.body.volume.attachments).toEqual([
      // The fake driver names sdb where the emulated QEMU host names vdb: the device is the attach's.
      { id, volumeId: id, serverId: server.id, device: attach.body.volumeAttachment.device },
    ]);
    const refused = await check(980, demo, `/os-volumes/${id}`);
    expect(refused.diffs).toEqual([]);
    const norm = (m: string) => m.replace(/req-[0-9a-f-]{36}/, 'req-*');
    expect(norm(refused.res.body.badRequest.message)).toBe(
      norm((loadCapture(980).response.body as { badRequest: { message: string } }).badRequest.message),
    );
  });

  it.each([973, 974, 975])('refuses the size of capture %i with Nova’s message', async (n) => {
    expect((await check(n, demo, '/os-volumes', { exact: FAULT })).diffs).toEqual([]);
  });
});

describe('os-hosts (captures 981-986)', () => {
  it('lists every enabled service by host, and filters by zone (981, 982)', async () => {
    const all = await check(981, admin, '/os-hosts');
    expect(all.diffs).toEqual([]);
    const services = (all.res.body.hosts as { service: string; zone: string }[]).map(
      (h) => `${h.service}/${h.zone}`,
    );
    expect(services).toEqual(
      expect.arrayContaining(['conductor/internal', 'scheduler/internal', 'compute/nova']),
    );
    const nova = await check(982, admin, '/os-hosts?zone=nova');
    expect(nova.diffs).toEqual([]);
    expect(new Set((nova.res.body.hosts as { zone: string }[]).map((h) => h.zone))).toEqual(
      new Set(['nova']),
    );
    const blank = await http(tc, 'GET', '/compute/v2.1/os-hosts?zone=', { token: admin.token });
    expect(blank.body.hosts).toEqual(all.res.body.hosts);
    const none = await http(tc, 'GET', '/compute/v2.1/os-hosts?zone=xxx', { token: admin.token });
    expect(none.body).toEqual({ hosts: [] });
  });

  it('shows a host’s totals, current and maximal use, and use by project (983)', async () => {
    await createServer(tc, { projectId: demo.projectId, userId: demo.userId, host: 'compute-2' });
    const shown = await check(983, admin, '/os-hosts/compute-2', { pairwiseArrays: ['$.host'] });
    expect(shown.diffs).toEqual([]);
    const projects = (shown.res.body.host as { resource: { project: string } }[]).map(
      (r) => r.resource.project,
    );
    expect(projects).toEqual(['(total)', '(used_now)', '(used_max)', demo.projectId]);
  });

  it('refuses members, unknown hosts and null updates with Nova’s messages (984-986)', async () => {
    expect((await check(984, demo, '/os-hosts', { exact: FAULT })).diffs).toEqual([]);
    expect((await check(985, admin, '/os-hosts/nohost-xyz', { exact: FAULT })).diffs).toEqual([]);
    expect((await check(986, admin, '/os-hosts/compute-1', { exact: FAULT })).diffs).toEqual([]);
  });

  it('echoes the fake driver’s answers to updates and power actions, and is gone from 2.43', async () => {
    const both = await http(tc, 'PUT', '/compute/v2.1/os-hosts/compute-1', {
      token: admin.token,
      body: { status: 'enable', maintenance_mode: 'enable' },
    });
    expect(both.body).toEqual({ host: 'compute-1', status: 'enabled', maintenance_mode: 'on_maintenance' });
    const empty = await http(tc, 'PUT', '/compute/v2.1/os-hosts/compute-1', { token: admin.token, body: {} });
    expect(empty.body).toEqual({ host: 'compute-1' });
    const reboot = await http(tc, 'GET', '/compute/v2.1/os-hosts/compute-1/reboot', { token: admin.token });
    expect(reboot.body).toEqual({ host: 'compute-1', power_action: 'reboot' });
    const start = await http(tc, 'GET', '/compute/v2.1/os-hosts/compute-1/startup', { token: demo.token });
    expect(start.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-hosts:start to be performed.",
    );
    const gone = await http(tc, 'GET', '/compute/v2.1/os-hosts/nohost-xyz/shutdown', { token: admin.token });
    expect(gone.body.itemNotFound.message).toBe("Host 'nohost-xyz' is not mapped to any cell");
    const v243 = await http(tc, 'GET', '/compute/v2.1/os-hosts', {
      token: admin.token,
      version: 'compute 2.43',
    });
    expect(v243.status).toBe(404);
  });
});

describe('os-instance_usage_audit_log (captures 997-999)', () => {
  it('reports the last completed month with every host not run (997)', async () => {
    const listed = await check(997, admin, '/os-instance_usage_audit_log', {
      exact: [
        '$.instance_usage_audit_logs.num_hosts_done',
        '$.instance_usage_audit_logs.num_hosts_running',
        '$.instance_usage_audit_logs.total_instances',
        '$.instance_usage_audit_logs.log',
      ],
    });
    expect(listed.diffs).toEqual([]);
    const before = await http(tc, 'GET', '/compute/v2.1/os-instance_usage_audit_log/2026-11-25%2006:00:00', {
      token: admin.token,
    });
    const log = before.body.instance_usage_audit_log;
    expect([log.period_beginning, log.period_ending]).toEqual(['2026-10-01 00:00:00', '2026-11-01 00:00:00']);
    expect(log.overall_status).toBe(`0 of ${log.num_hosts} hosts done. 0 errors.`);
  });

  it('refuses an invalid time and members with Nova’s messages (998, 999)', async () => {
    expect(
      (await check(998, admin, '/os-instance_usage_audit_log/invalid_time', { exact: FAULT })).diffs,
    ).toEqual([]);
    expect((await check(999, demo, '/os-instance_usage_audit_log', { exact: FAULT })).diffs).toEqual([]);
  });
});

describe('os-aggregates (captures 987-996)', () => {
  it('creates an aggregate with a zone, adds, lists and removes a host, sets metadata', async () => {
    const created = await check(987, admin, '/os-aggregates', {
      body: { aggregate: { name: 'golden-agg', availability_zone: 'golden-az' } },
      exact: ['$.aggregate.updated_at', '$.aggregate.deleted_at', '$.aggregate.deleted'],
    });
    expect(created.diffs).toEqual([]);
    const id = created.res.body.aggregate.id as number;
    expect(created.res.body.aggregate.availability_zone).toBe('golden-az');

    const added = await check(988, admin, `/os-aggregates/${id}/action`, {
      body: { add_host: { host: 'compute-2' } },
    });
    expect(added.diffs).toEqual([]);
    expect(added.res.body.aggregate.hosts).toEqual(['compute-2']);
    expect(added.res.body.aggregate.metadata).toEqual({ availability_zone: 'golden-az' });
    const zones = await http(tc, 'GET', '/compute/v2.1/os-hosts?zone=golden-az', {
      token: admin.token,
      version: 'compute 2.1',
    });
    expect(zones.body.hosts).toEqual([{ host_name: 'compute-2', service: 'compute', zone: 'golden-az' }]);

    const again = await check(989, admin, `/os-aggregates/${id}/action`, {
      body: { add_host: { host: 'compute-2' } },
    });
    expect(again.diffs).toEqual([]);
    expect(again.res.body.conflictingRequest.message).toBe(`Aggregate ${id} already has host compute-2.`);

    const meta = await check(990, admin, `/os-aggregates/${id}/action`, {
      exact: ['$.aggregate.metadata.k'],
    });
    expect(meta.diffs).toEqual([]);
    expect(meta.res.body.aggregate.metadata).toEqual({ availability_zone: 'golden-az', k: 'v' });
    expect(
      (await check(991, admin, `/os-aggregates/${id}`, { exact: ['$.aggregate.updated_at'] })).diffs,
    ).toEqual([]);
    expect((await check(992, admin, '/os-aggregates')).diffs).toEqual([]);

    const dup = await check(993, admin, '/os-aggregates', { body: { aggregate: { name: 'golden-agg' } } });
    expect(dup.diffs).toEqual([]);
    expect(dup.res.body.conflictingRequest.message).toBe('Aggregate golden-agg already exists.');
    const unknownAdd = await check(994, admin, `/os-aggregates/${id}/action`, { exact: FAULT });
    expect(unknownAdd.diffs).toEqual([]);
    const unknownRemove = await check(995, admin, `/os-aggregates/${id}/action`);
    expect(unknownRemove.diffs).toEqual([]);
    expect(unknownRemove.res.body.itemNotFound.message).toBe(
      `Cannot remove host nohost-xyz in aggregate ${id}`,
    );
    const notEmpty = await check(996, admin, `/os-aggregates/${id}`);
    expect(notEmpty.diffs).toEqual([]);
    expect(notEmpty.res.body.badRequest.message).toBe(
      `Cannot remove host from aggregate ${id}. Reason: Host aggregate is not empty.`,
    );

    const removed = await http(tc, 'POST', `/compute/v2.1/os-aggregates/${id}/action`, {
      token: admin.token,
      body: { remove_host: { host: 'compute-2' } },
    });
    expect(removed.body.aggregate.hosts).toEqual([]);
    const back = await http(tc, 'GET', '/compute/v2.1/os-hosts?zone=nova', {
      token: admin.token,
      version: 'compute 2.1',
    });
    expect((back.body.hosts as { host_name: string }[]).map((h) => h.host_name)).toContain('compute-2');
    const deleted = await http(tc, 'DELETE', `/compute/v2.1/os-aggregates/${id}`, { token: admin.token });
    expect([deleted.status, deleted.text]).toEqual([200, '']);
    const gone = await http(tc, 'GET', `/compute/v2.1/os-aggregates/${id}`, { token: admin.token });
    expect(gone.body.itemNotFound.message).toBe(`Aggregate ${id} could not be found.`);
  });

  it('refuses names out of bounds and members with Nova’s messages', async () => {
    for (const name of ['', 'a'.repeat(256)]) {
      const res = await http(tc, 'POST', '/compute/v2.1/os-aggregates', {
        token: admin.token,
        body: { aggregate: { name } },
      });
      expect(res.status).toBe(400);
    }
    const member = await http(tc, 'GET', '/compute/v2.1/os-aggregates', { token: demo.token });
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-aggregates:index to be performed.",
    );
  });

  it('places a server asked for an aggregate’s zone on the aggregate’s host', async () => {
    const agg = await http(tc, 'POST', '/compute/v2.1/os-aggregates', {
      token: admin.token,
      body: { aggregate: { name: 'golden-place', availability_zone: 'golden-place-az' } },
    });
    const id = agg.body.aggregate.id as number;
    await http(tc, 'POST', `/compute/v2.1/os-aggregates/${id}/action`, {
      token: admin.token,
      body: { add_host: { host: 'compute-old' } },
    });
    const seeded = await http(tc, 'POST', `/compute/v2.1/os-aggregates/${id}/action`, {
      token: admin.token,
      body: { add_host: { host: 'compute-3' } },
    });
    expect(seeded.body.conflictingRequest.message).toBe(
      `Cannot add host to aggregate ${id}. Reason: One or more hosts already in availability zone(s) ['az2'].`,
    );
    const server = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: admin.token,
      body: {
        server: {
          name: 'golden-az-server',
          flavorRef: '1',
          imageRef: await anImage(),
          networks: 'none',
          availability_zone: 'golden-place-az',
        },
      },
      version: 'compute 2.37',
    });
    expect(server.status).toBe(202);
    await tc.settle();
    const shown = await http(tc, 'GET', `/compute/v2.1/servers/${server.body.server.id}`, {
      token: admin.token,
    });
    expect(shown.body.server['OS-EXT-SRV-ATTR:host']).toBe('compute-old');
    expect(shown.body.server['OS-EXT-AZ:availability_zone']).toBe('golden-place-az');
    const rezone = await http(tc, 'PUT', `/compute/v2.1/os-aggregates/${id}`, {
      token: admin.token,
      body: { aggregate: { availability_zone: 'elsewhere' } },
    });
    expect(rezone.body.badRequest.message).toBe(
      `Cannot update aggregate ${id}. Reason: One or more hosts contain instances in this zone.`,
    );
  });
});

async function anImage(): Promise<string> {
  const images = await http(tc, 'GET', '/image/v2/images', { token: admin.token });
  return images.body.images[0].id as string;
}
