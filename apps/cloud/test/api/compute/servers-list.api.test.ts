import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;
const ids: Record<string, string> = {};
let reservation: string;

const boot = async (name: string, session: Session, extra: Record<string, unknown> = {}) => {
  const res = await nova('POST', '/servers', {
    session,
    body: { server: { name, flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID, ...extra } },
  });
  expect(res.status).toBe(202);
  return res.body;
};

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
  ids.alpha = (await boot('alpha', demo)).server.id;
  ids.beta = (await boot('beta', demo)).server.id;
  reservation = (await boot('gamma', demo, { min_count: 2, return_reservation_id: true })).reservation_id;
  ids.other = (await boot('other', admin)).server.id;
  await tc.settle();
  // beta stopped, so the status filter has something to tell apart.
  await nova('POST', `/servers/${ids.beta}/action`, { body: { 'os-stop': null } });
  await tc.settle();
});

const names = (res: { body: { servers: { name: string }[] } }) => res.body.servers.map((s) => s.name);

describe('GET /servers and /servers/detail', () => {
  it('index items are {id, name, links}, newest first, only the caller project (127)', async () => {
    const res = await nova('GET', '/servers');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['servers']);
    expect(names(res).sort()).toEqual(['alpha', 'beta', 'gamma-1', 'gamma-2']);
    for (const s of res.body.servers) {
      expect(Object.keys(s)).toEqual(['id', 'name', 'links']);
      expect(s.links[0].href).toBe(`${tc.url}/compute/v2.1/servers/${s.id}`);
    }
    expect(names(res).indexOf('beta')).toBeLessThan(names(res).indexOf('alpha'));
  });

  it('detail has the show view per item, without server_groups (2.71+)', async () => {
    const res = await nova('GET', '/servers/detail', { version: '2.73' });
    expect(res.body.servers).toHaveLength(4);
    for (const s of res.body.servers) {
      expect(s).toHaveProperty('locked_reason');
      expect(s).not.toHaveProperty('server_groups');
      expect(s).not.toHaveProperty('OS-EXT-SRV-ATTR:host');
    }
  });

  it('name is a regular expression; reservation_id lists the members (128, 132)', async () => {
    expect(names(await nova('GET', '/servers?name=^gam')).sort()).toEqual(['gamma-1', 'gamma-2']);
    expect(names(await nova('GET', '/servers?name=et'))).toEqual(['beta']);
    expect(names(await nova('GET', `/servers?reservation_id=${reservation}`)).sort()).toEqual([
      'gamma-1',
      'gamma-2',
    ]);
  });

  it('status filters by state; an unknown status is 400 from 2.38 and an empty list before', async () => {
    expect(names(await nova('GET', '/servers?status=SHUTOFF'))).toEqual(['beta']);
    expect(names(await nova('GET', '/servers?status=active')).sort()).toEqual([
      'alpha',
      'gamma-1',
      'gamma-2',
    ]);
    expect(names(await nova('GET', '/servers?status=ACTIVE&status=SHUTOFF'))).toHaveLength(4);
    expect((await nova('GET', '/servers?status=BOGUS', { version: '2.38' })).body).toEqual(
      fault(400, 'Invalid status value'),
    );
    expect((await nova('GET', '/servers?status=BOGUS', { version: '2.37' })).body).toEqual({ servers: [] });
    expect((await nova('GET', '/servers?status=DELETED')).body).toEqual(
      fault(403, 'Only administrators may list deleted instances'),
    );
  });

  it('all_tenants is admin-only; admins see every project and may filter by host', async () => {
    expect((await nova('GET', '/servers?all_tenants=1')).body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:servers:index:get_all_tenants to be performed."),
    );
    expect((await nova('GET', '/servers/detail?all_tenants=1')).body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:servers:detail:get_all_tenants to be performed."),
    );
    const all = await nova('GET', '/servers/detail?all_tenants=1', { session: admin });
    expect(all.body.servers).toHaveLength(5);
    expect(all.body.servers[0]).toHaveProperty('OS-EXT-SRV-ATTR:host');
    expect(all.body.servers[0]).toHaveProperty('host_status');
    const mine = await nova('GET', '/servers', { session: admin });
    expect(names(mine)).toEqual(['other']);
    const onProject = await nova('GET', `/servers?all_tenants=1&project_id=${demo.projectId}`, {
      session: admin,
    });
    expect(onProject.body.servers).toHaveLength(4);
    const host = all.body.servers.find((s: { id: string }) => s.id === ids.alpha)['OS-EXT-SRV-ATTR:host'];
    const onHost = await nova('GET', `/servers/detail?all_tenants=1&host=${host}`, { session: admin });
    expect(onHost.body.servers.length).toBeGreaterThan(0);
    expect(onHost.body.servers.every((s: Record<string, string>) => s['OS-EXT-SRV-ATTR:host'] === host)).toBe(
      true,
    );
  });

  it('members: admin-only filters are ignored below 2.75; unknown keys are 400 from 2.75', async () => {
    expect(names(await nova('GET', '/servers?host=nowhere&bogus=1'))).toHaveLength(4);
    expect((await nova('GET', '/servers?bogus=1', { version: '2.75' })).body).toEqual(
      fault(400, "'bogus' does not match any of the regexes: '^_'"),
    );
  });

  it('limit and marker page through, with a next link while a page is full', async () => {
    const first = await nova('GET', '/servers?limit=3');
    expect(first.body.servers).toHaveLength(3);
    const last = first.body.servers[2].id;
    expect(first.body.servers_links).toEqual([
      { rel: 'next', href: `${tc.url}/compute/v2.1/servers?limit=3&marker=${last}` },
    ]);
    const second = await nova('GET', `/servers?limit=3&marker=${last}`);
    expect(second.body.servers).toHaveLength(1);
    expect(second.body).not.toHaveProperty('servers_links');
    const detail = await nova('GET', '/servers/detail?limit=1');
    expect(detail.body.servers_links[0].href).toContain('/compute/v2.1/servers/detail?limit=1&marker=');
    const missing = 'c99ffad6-4b83-43f3-a071-0f23f3c4212a';
    expect((await nova('GET', `/servers?marker=${missing}`)).body).toEqual(
      fault(400, `marker [${missing}] not found`),
    );
    expect((await nova('GET', '/servers?limit=abc')).body).toEqual(
      fault(400, 'limit param must be an integer'),
    );
    expect((await nova('GET', '/servers?limit=-1')).body).toEqual(fault(400, 'limit param must be positive'));
  });

  it('sort_key and the hostname and tag filters see their columns (the list reads only those)', async () => {
    const byName = async (dir: string) =>
      names(await nova('GET', `/servers?sort_key=display_name&sort_dir=${dir}`));
    expect(await byName('asc')).toEqual(['alpha', 'beta', 'gamma-1', 'gamma-2']);
    expect(await byName('desc')).toEqual(['gamma-2', 'gamma-1', 'beta', 'alpha']);
    expect(names(await nova('GET', '/servers?hostname=^gamma-2$', { version: '2.90' }))).toEqual(['gamma-2']);
    const tagged = (await boot('tagged', admin, { tags: ['blue', 'big'] })).server.id;
    await tc.settle();
    const admins = async (q: string) =>
      names(await nova('GET', `/servers?${q}`, { session: admin, version: '2.26' }));
    expect(await admins('tags=blue,big')).toEqual(['tagged']);
    expect(await admins('tags-any=red,blue')).toEqual(['tagged']);
    expect(await admins('not-tags-any=blue')).toEqual(['other']);
    await nova('DELETE', `/servers/${tagged}`, { session: admin });
    await tc.settle();
  });

  it('changes-since also returns deleted servers, as DELETED', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const gone = (await boot('gone', demo)).server.id;
    await tc.settle();
    await nova('DELETE', `/servers/${gone}`);
    await tc.settle();
    expect(names(await nova('GET', '/servers'))).not.toContain('gone');
    const res = await nova('GET', `/servers/detail?changes-since=${since}`);
    const item = res.body.servers.find((s: { id: string }) => s.id === gone);
    expect(item).toMatchObject({ status: 'DELETED', 'OS-EXT-STS:vm_state': 'deleted' });
    expect((await nova('GET', '/servers?changes-since=yesterday')).status).toBe(400);
  });
});
