import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { allHostsEnabled, fault, novaClient, onlyHosts, serverRow } from './servers-fixtures.js';

/**
 * `os-server-groups` (nova/api/openstack/compute/server_groups.py) and the `group` scheduler hint
 * at server create, honoured by the emulated scheduler.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
});
beforeEach(async () => {
  await tc.settle();
  await allHostsEnabled(tc);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function createGroup(group: Record<string, unknown>, version = '2.64', session: Session = demo) {
  const res = await nova('POST', '/os-server-groups', { body: { server_group: group }, version, session });
  expect(res.status, res.text).toBe(200);
  return res.body.server_group;
}

async function boot(groupId: string, count = 1, name = 'grp') {
  const res = await nova('POST', '/servers', {
    version: '2.60',
    body: {
      server: {
        name,
        flavorRef: '1',
        imageRef: SEED_IMAGE_ID,
        networks: 'none',
        min_count: count,
        max_count: count,
      },
      'os:scheduler_hints': { group: groupId },
    },
  });
  expect(res.status, res.text).toBe(202);
  await tc.settle();
  const rows = await tc.cloud.deps.store.db
    .selectFrom('servers')
    .select(['id', 'host', 'vm_state'])
    .where('name', 'like', count > 1 ? `${name}-%` : name)
    .where('deleted', '=', 0)
    .execute();
  return rows;
}

describe('create and the views per microversion', () => {
  it('2.1: policies and an empty metadata; no owner', async () => {
    const g = await createGroup({ name: 'g-21', policies: ['anti-affinity'] }, '2.1');
    expect(g).toEqual({
      id: expect.stringMatching(UUID),
      name: 'g-21',
      policies: ['anti-affinity'],
      metadata: {},
      members: [],
    });
    expect(Object.keys(g)).toEqual(['id', 'name', 'policies', 'metadata', 'members']);
  });

  it('2.13: the owner; 2.15: the soft policies', async () => {
    const g = await createGroup({ name: 'g-215', policies: ['soft-affinity'] }, '2.15');
    expect(g).toEqual({
      id: expect.stringMatching(UUID),
      name: 'g-215',
      policies: ['soft-affinity'],
      metadata: {},
      members: [],
      project_id: demo.projectId,
      user_id: demo.userId,
    });
    const res = await nova('POST', '/os-server-groups', {
      body: { server_group: { name: 'x', policies: ['soft-affinity'] } },
      version: '2.14',
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toMatch(
      /^Invalid input for field\/attribute 0\. Value: soft-affinity\. 'soft-affinity' is not one of \['anti-affinity', 'affinity'\]/,
    );
  });

  it('2.64: policy and rules instead of policies and metadata', async () => {
    const g = await createGroup({
      name: 'g-264',
      policy: 'anti-affinity',
      rules: { max_server_per_host: 2 },
    });
    expect(g).toEqual({
      id: expect.stringMatching(UUID),
      name: 'g-264',
      policy: 'anti-affinity',
      rules: { max_server_per_host: 2 },
      members: [],
      project_id: demo.projectId,
      user_id: demo.userId,
    });
    expect(await createGroup({ name: 'g-aff', policy: 'affinity' })).toMatchObject({
      policy: 'affinity',
      rules: {},
    });
    // Shown the old way below 2.64.
    const old = await nova('GET', `/os-server-groups/${g.id}`, { version: '2.63' });
    expect(old.body.server_group).toMatchObject({ policies: ['anti-affinity'], metadata: {} });
    expect(old.body.server_group).not.toHaveProperty('rules');
  });

  it.each([
    [
      '2.64',
      { name: 'r', policy: 'affinity', rules: { max_server_per_host: 2 } },
      'Only anti-affinity policy supports rules.',
    ],
    [
      '2.64',
      { name: 'r', policies: ['affinity'] },
      "Invalid input for field/attribute server_group. Value: {'name': 'r', 'policies': ['affinity']}. 'policy' is a required property",
    ],
    [
      '2.1',
      { name: 'r', policies: [] },
      'Invalid input for field/attribute policies. Value: []. [] is too short',
    ],
    [
      '2.1',
      { name: 'r', policies: ['affinity', 'affinity'] },
      "Invalid input for field/attribute policies. Value: ['affinity', 'affinity']. ['affinity', 'affinity'] has non-unique elements",
    ],
    [
      '2.1',
      { name: 'r', policies: ['affinity', 'anti-affinity'] },
      "Invalid input for field/attribute policies. Value: ['affinity', 'anti-affinity']. ['affinity', 'anti-affinity'] is too long",
    ],
    [
      '2.64',
      { name: 'r', policy: 'anti-affinity', rules: { max_server_per_host: 0 } },
      'Invalid input for field/attribute max_server_per_host. Value: 0. 0 is less than the minimum of 1',
    ],
    [
      '2.64',
      { policy: 'affinity' },
      "Invalid input for field/attribute server_group. Value: {'policy': 'affinity'}. 'name' is a required property",
    ],
  ])('%s %j: 400', async (version, group, message) => {
    const res = await nova('POST', '/os-server-groups', { body: { server_group: group }, version });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, message));
  });
});

describe('list, show, delete', () => {
  it('a member lists its project only; an admin with all_projects every project', async () => {
    const mine = await createGroup({ name: 'listed', policy: 'affinity' });
    const theirs = await createGroup({ name: 'admins', policy: 'affinity' }, '2.64', admin);
    const own = (await nova('GET', '/os-server-groups', { version: '2.64' })).body.server_groups.map(
      (g: { id: string }) => g.id,
    );
    expect(own).toContain(mine.id);
    expect(own).not.toContain(theirs.id);
    // A member's all_projects is ignored, not refused.
    const asked = await nova('GET', '/os-server-groups?all_projects=1', { version: '2.64' });
    expect(asked.status).toBe(200);
    expect(asked.body.server_groups.map((g: { id: string }) => g.id)).not.toContain(theirs.id);
    const all = await nova('GET', '/os-server-groups?all_projects=1', { version: '2.64', session: admin });
    expect(all.body.server_groups.map((g: { id: string }) => g.id)).toEqual(
      expect.arrayContaining([mine.id, theirs.id]),
    );
    const paged = await nova('GET', '/os-server-groups?limit=1&offset=1', { version: '2.64' });
    expect(paged.body.server_groups).toHaveLength(1);
    const strict = await nova('GET', '/os-server-groups?foo=1', { version: '2.75' });
    expect(strict.status).toBe(400);
    expect((await nova('GET', '/os-server-groups?foo=1', { version: '2.74' })).status).toBe(200);
  });

  it('show and delete: 404 for an unknown group, 403 for another project’s, 204 then gone', async () => {
    const g = await createGroup({ name: 'gone', policy: 'anti-affinity' });
    expect((await nova('GET', `/os-server-groups/${g.id}`, { version: '2.64' })).body.server_group).toEqual(
      g,
    );
    const theirs = await createGroup({ name: 'theirs', policy: 'affinity' }, '2.64', admin);
    const show = await nova('GET', `/os-server-groups/${theirs.id}`);
    expect(show.status).toBe(403);
    expect(show.body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-server-groups:show to be performed."),
    );
    const del = await nova('DELETE', `/os-server-groups/${theirs.id}`);
    expect(del.body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-server-groups:delete to be performed."),
    );
    expect((await nova('DELETE', `/os-server-groups/${g.id}`)).status).toBe(204);
    const again = await nova('GET', `/os-server-groups/${g.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(fault(404, `Instance group ${g.id} could not be found.`));
    expect((await nova('DELETE', `/os-server-groups/${g.id}`)).status).toBe(404);
  });
});

describe('the group hint at server create', () => {
  it('servers join the group; show at 2.71 names it; a deleted server leaves the members', async () => {
    const g = await createGroup({ name: 'joined', policy: 'soft-anti-affinity' });
    const [s] = await boot(g.id, 1, 'joined-1');
    const group = await nova('GET', `/os-server-groups/${g.id}`, { version: '2.64' });
    expect(group.body.server_group.members).toEqual([s!.id]);
    const show = await nova('GET', `/servers/${s!.id}`, { version: '2.71' });
    expect(show.body.server.server_groups).toEqual([g.id]);
    expect((await nova('GET', `/servers/${s!.id}`, { version: '2.70' })).body.server).not.toHaveProperty(
      'server_groups',
    );
    await nova('DELETE', `/servers/${s!.id}`);
    await tc.settle();
    expect((await nova('GET', `/os-server-groups/${g.id}`)).body.server_group.members).toEqual([]);
  });

  it('anti-affinity: one server per host (max_server_per_host raises it); the rest find no valid host', async () => {
    await onlyHosts(tc, ['compute-1', 'compute-2']);
    const g = await createGroup({ name: 'anti', policy: 'anti-affinity' });
    const rows = await boot(g.id, 3, 'anti');
    expect(
      rows
        .filter((r) => r.vm_state === 'active')
        .map((r) => r.host)
        .sort(),
    ).toEqual(['compute-1', 'compute-2']);
    expect(rows.filter((r) => r.vm_state === 'error')).toHaveLength(1);
    const two = await createGroup({
      name: 'anti2',
      policy: 'anti-affinity',
      rules: { max_server_per_host: 2 },
    });
    const placed = await boot(two.id, 4, 'antitwo');
    expect(placed.filter((r) => r.vm_state === 'active')).toHaveLength(4);
    const later = await boot(two.id, 1, 'antitwo-late');
    expect(later[0]!.vm_state).toBe('error');
    for (const r of [...rows, ...placed, ...later]) await nova('DELETE', `/servers/${r.id}`);
  });

  it('affinity: every server on the first one’s host, one build after another too', async () => {
    const g = await createGroup({ name: 'aff', policy: 'affinity' });
    const rows = await boot(g.id, 3, 'aff');
    expect(new Set(rows.map((r) => r.host)).size).toBe(1);
    const [later] = await boot(g.id, 1, 'aff-late');
    expect((await serverRow(tc, later!.id))?.host).toBe(rows[0]!.host);
    for (const r of [...rows, later!]) await nova('DELETE', `/servers/${r.id}`);
  });

  it('an unknown group: 400 as Nova words InstanceGroupNotFound', async () => {
    const id = '00000000-0000-4000-8000-00000000abcd';
    const res = await nova('POST', '/servers', {
      version: '2.60',
      body: {
        server: { name: 'nogroup', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' },
        'os:scheduler_hints': { group: id },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, `Instance group ${id} could not be found.`));
  });
});

describe('quotas and policy', () => {
  it('server_groups and server_group_members are enforced with Nova’s messages', async () => {
    const other = await login(tc, 'admin');
    const project = demo.projectId;
    const set = (quota: Record<string, number>) =>
      nova('PUT', `/os-quota-sets/${project}`, {
        body: { quota_set: quota },
        session: other,
        version: '2.64',
      });
    const used = (await nova('GET', '/os-server-groups', { version: '2.64' })).body.server_groups.length;
    expect((await set({ server_groups: used + 1, server_group_members: 2 })).status).toBe(200);
    const g = await createGroup({ name: 'q', policy: 'soft-affinity' });
    const over = await nova('POST', '/os-server-groups', {
      body: { server_group: { name: 'q2', policy: 'affinity' } },
      version: '2.64',
    });
    expect(over.status).toBe(403);
    expect(over.body).toEqual(fault(403, 'Quota exceeded, too many server groups.'));
    const res = await nova('POST', '/servers', {
      version: '2.60',
      body: {
        server: { name: 'q3', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', min_count: 3 },
        'os:scheduler_hints': { group: g.id },
      },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(fault(403, 'Quota exceeded, too many servers in group'));
    const usage = await nova('GET', `/os-quota-sets/${project}/detail`, { version: '2.64' });
    expect(usage.body.quota_set.server_groups.in_use).toBe(used + 1);
    expect((await set({ server_groups: 10, server_group_members: 10 })).status).toBe(200);
  });
});
