import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

/** Compute limits, quota sets and quota classes, and the quota enforced at create and resize. */

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest({}, { realQuotas: true });
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const nova = (method: string, path: string, version: string, body?: unknown, session: Session = demo) =>
  http(tc, method, `/compute/v2.1${path}`, {
    token: session.token,
    version: `compute ${version}`,
    ...(body !== undefined ? { body } : {}),
  });
const boot = (name: string, extra: Record<string, unknown> = {}) =>
  nova('POST', '/servers', '2.60', {
    server: { name, flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', ...extra },
  });

describe('quota sets', () => {
  it('shows the defaults with the resources of each microversion', async () => {
    const res = await nova('GET', `/os-quota-sets/${demo.projectId}`, '2.57');
    expect(res.status).toBe(200);
    expect(res.body.quota_set).toEqual({
      id: demo.projectId,
      cores: 20,
      instances: 10,
      key_pairs: 100,
      metadata_items: 128,
      ram: 51200,
      server_group_members: 10,
      server_groups: 10,
    });
    const old = await nova('GET', `/os-quota-sets/${demo.projectId}`, '2.1');
    expect(Object.keys(old.body.quota_set)).toContain('floating_ips');
    expect(Object.keys(old.body.quota_set)).toContain('injected_files');
    const mid = await nova('GET', `/os-quota-sets/${demo.projectId}/defaults`, '2.36');
    expect(Object.keys(mid.body.quota_set)).not.toContain('floating_ips');
    expect(Object.keys(mid.body.quota_set)).toContain('injected_files');
  });

  it('refuses another project to a member, and an unknown project to the admin', async () => {
    const other = await nova('GET', `/os-quota-sets/${admin.projectId}`, '2.1');
    expect(other.status).toBe(403);
    expect(other.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-quota-sets:show to be performed.",
    );
    const unknown = await nova('GET', '/os-quota-sets/no-such-project', '2.1', undefined, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.badRequest.message).toBe('Project ID no-such-project is not a valid project.');
  });

  it('updates (admin only), checks usage, and deletes back to the defaults', async () => {
    const member = await nova('PUT', `/os-quota-sets/${demo.projectId}`, '2.1', { quota_set: { cores: 5 } });
    expect(member.status).toBe(403);
    const res = await nova(
      'PUT',
      `/os-quota-sets/${demo.projectId}`,
      '2.1',
      { quota_set: { cores: '15', key_pairs: 7 } },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.quota_set.id).toBeUndefined();
    expect(res.body.quota_set).toMatchObject({ cores: 15, key_pairs: 7 });
    const bad = await nova(
      'PUT',
      `/os-quota-sets/${demo.projectId}`,
      '2.1',
      { quota_set: { ram: -2 } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toBe(
      'Invalid input for field/attribute ram. Value: -2. -2 is less than the minimum of -1',
    );
    const nets = await nova(
      'PUT',
      `/os-quota-sets/${demo.projectId}`,
      '2.1',
      { quota_set: { networks: 1 } },
      admin,
    );
    expect(nets.body.badRequest.message).toBe('The networks quota has been removed');
    const gone = await nova(
      'PUT',
      `/os-quota-sets/${demo.projectId}`,
      '2.57',
      { quota_set: { networks: 1 } },
      admin,
    );
    expect(gone.body.badRequest.message).toMatch(
      /Additional properties are not allowed \('networks' was unexpected\)/,
    );
    expect((await nova('DELETE', `/os-quota-sets/${demo.projectId}`, '2.1', undefined, admin)).status).toBe(
      202,
    );
    const back = await nova('GET', `/os-quota-sets/${demo.projectId}`, '2.57');
    expect(back.body.quota_set.cores).toBe(20);
  });

  it('details usage: servers counted, key pairs always 0', async () => {
    await nova('POST', '/os-keypairs', '2.1', { keypair: { name: 'q-key' } });
    const s = await boot('q-usage');
    expect(s.status).toBe(202);
    const res = await nova('GET', `/os-quota-sets/${demo.projectId}/detail`, '2.57');
    expect(res.status).toBe(200);
    expect(res.body.quota_set.instances).toEqual({ in_use: 1, limit: 10, reserved: 0 });
    expect(res.body.quota_set.cores.in_use).toBe(1);
    expect(res.body.quota_set.ram.in_use).toBe(512);
    expect(res.body.quota_set.key_pairs).toEqual({ in_use: 0, limit: 100, reserved: 0 });
    const limits = await nova('GET', '/limits', '2.57');
    expect(limits.body.limits.rate).toEqual([]);
    expect(limits.body.limits.absolute).toEqual({
      maxTotalRAMSize: 51200,
      maxTotalInstances: 10,
      maxTotalCores: 20,
      maxTotalKeypairs: 100,
      maxServerMeta: 128,
      maxServerGroups: 10,
      maxServerGroupMembers: 10,
      totalRAMUsed: 512,
      totalCoresUsed: 1,
      totalInstancesUsed: 1,
      totalServerGroupsUsed: 0,
    });
    const low = await nova(
      'PUT',
      `/os-quota-sets/${demo.projectId}`,
      '2.1',
      { quota_set: { instances: 0 } },
      admin,
    );
    expect(low.status).toBe(400);
    expect(low.body.badRequest.message).toBe(
      'Quota limit 0 for instances must be greater than or equal to already used and reserved 1.',
    );
    await nova('DELETE', `/servers/${s.body.server.id}`, '2.60');
    await tc.settle();
  });
});

describe('enforcement', () => {
  it('refuses a create over the instances quota with Nova’s message, and trims a range to what fits', async () => {
    await nova('PUT', `/os-quota-sets/${demo.projectId}`, '2.1', { quota_set: { instances: 3 } }, admin);
    const first = await boot('q-one');
    expect(first.status).toBe(202);
    const over = await boot('q-many', { min_count: 5, max_count: 5 });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({
      forbidden: {
        code: 403,
        message: 'Quota exceeded for instances: Requested 5, but already used 1 of 3 instances',
      },
    });
    const range = await boot('q-range', { min_count: 1, max_count: 5, return_reservation_id: true });
    expect(range.status).toBe(202);
    const created = await nova('GET', `/servers?reservation_id=${range.body.reservation_id}`, '2.60');
    expect(created.body.servers).toHaveLength(2);
    const none = await boot('q-none', { min_count: 2, max_count: 4 });
    expect(none.body.forbidden.message).toBe(
      'Quota exceeded for instances: Requested 2-4, but already used 3 of 3 instances',
    );
    await nova('DELETE', `/os-quota-sets/${demo.projectId}`, '2.1', undefined, admin);
  });

  it('refuses a resize whose growth does not fit the cores quota', async () => {
    await nova('PUT', `/os-quota-sets/${demo.projectId}`, '2.1', { quota_set: { cores: 4 } }, admin);
    const servers = await nova('GET', '/servers/detail', '2.60');
    const used = servers.body.servers.length;
    const s = await boot('q-resize');
    await tc.settle();
    const big = await nova(
      'POST',
      '/flavors',
      '2.60',
      { flavor: { name: 'q-big', ram: 512, vcpus: 8, disk: 1 } },
      admin,
    );
    const res = await nova('POST', `/servers/${s.body.server.id}/action`, '2.60', {
      resize: { flavorRef: big.body.flavor.id },
    });
    expect(res.status).toBe(403);
    expect(res.body.forbidden.message).toBe(
      `Quota exceeded for cores: Requested 7, but already used ${used + 1} of 4 cores`,
    );
    await nova('DELETE', `/os-quota-sets/${demo.projectId}`, '2.1', undefined, admin);
  });

  it('counts key pairs against key_pairs', async () => {
    await nova('PUT', `/os-quota-sets/${demo.projectId}`, '2.1', { quota_set: { key_pairs: 1 } }, admin);
    const list = await nova('GET', '/os-keypairs', '2.2');
    for (const k of list.body.keypairs) await nova('DELETE', `/os-keypairs/${k.keypair.name}`, '2.2');
    expect((await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'k1' } })).status).toBe(201);
    const over = await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'k2' } });
    expect(over.status).toBe(403);
    expect(over.body.forbidden.message).toBe('Quota exceeded, too many key pairs.');
    await nova('DELETE', `/os-quota-sets/${demo.projectId}`, '2.1', undefined, admin);
  });
});

describe('quota classes', () => {
  it('shows and updates the default class (admin), which becomes every project’s default', async () => {
    const member = await nova('GET', '/os-quota-class-sets/default', '2.1');
    expect(member.status).toBe(403);
    const shown = await nova('GET', '/os-quota-class-sets/default', '2.50', undefined, admin);
    expect(shown.body.quota_class_set).toMatchObject({ id: 'default', instances: 10, server_groups: 10 });
    const old = await nova('GET', '/os-quota-class-sets/default', '2.1', undefined, admin);
    expect(old.body.quota_class_set.server_groups).toBeUndefined();
    const upd = await nova(
      'PUT',
      '/os-quota-class-sets/default',
      '2.57',
      { quota_class_set: { metadata_items: 64 } },
      admin,
    );
    expect(upd.status).toBe(200);
    expect(upd.body.quota_class_set).toMatchObject({ metadata_items: 64 });
    expect(upd.body.quota_class_set.id).toBeUndefined();
    const defaults = await nova('GET', `/os-quota-sets/${demo.projectId}/defaults`, '2.57');
    expect(defaults.body.quota_set.metadata_items).toBe(64);
    await nova(
      'PUT',
      '/os-quota-class-sets/default',
      '2.57',
      { quota_class_set: { metadata_items: 128 } },
      admin,
    );
  });
});
