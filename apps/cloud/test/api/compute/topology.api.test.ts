import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { topologyFixtures } from '../../helpers/topology-fixtures.js';

const PATH = '/compute/v2.1/os-emulator-topology';

let tc: TestCloud;
let admin: Session;
let demo: Session;
// Ids of the fixture rows, by role in the scenario.
const ids = {} as Record<
  'd1' | 'd2' | 'a1' | 'a2' | 'gone' | 'shared' | 'data' | 'adminVol' | 'd1Shared' | 'd2Shared',
  string
>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
  const fx = topologyFixtures(tc);
  // demo: two servers on two hosts sharing a multiattach volume, plus a data volume also
  // read by an admin server. admin: two servers, one holding a plain volume.
  const d1 = await fx.server({ project_id: demo.projectId, host: 'compute-1', name: 'd1' });
  const d2 = await fx.server({ project_id: demo.projectId, host: 'compute-2', name: 'd2' });
  const a1 = await fx.server({
    project_id: admin.projectId,
    host: 'compute-3',
    name: 'a1',
    availability_zone: 'az2',
  });
  const a2 = await fx.server({ project_id: admin.projectId, host: 'compute-old', name: 'a2' });
  const gone = await fx.server({ project_id: demo.projectId, host: 'compute-1', name: 'gone', deleted: 1 });
  const shared = await fx.volume({ project_id: demo.projectId, name: 'shared', size: 10 });
  const data = await fx.volume({ project_id: demo.projectId, name: 'data' });
  const adminVol = await fx.volume({ project_id: admin.projectId, name: 'admin-vol', multiattach: false });
  const d1Shared = await fx.attach(d1, shared, { mode: 'rw', boot_index: 0, delete_on_termination: 1 });
  const d2Shared = await fx.attach(d2, shared, { mode: 'ro' });
  await fx.attach(d1, data, { mode: 'ro' });
  await fx.attach(a2, data, { mode: 'ro' });
  await fx.attach(a1, adminVol, { mode: null, cinder_mode: 'null' });
  await fx.attach(gone, shared, { mode: 'rw' });
  Object.assign(ids, {
    d1: d1.id,
    d2: d2.id,
    a1: a1.id,
    a2: a2.id,
    gone: gone.id,
    shared: shared.id,
    data: data.id,
    adminVol: adminVol.id,
    d1Shared: d1Shared.attachmentId!,
    d2Shared: d2Shared.attachmentId!,
  });
});

const get = (s: Session | null, query = '', version?: string) =>
  http(tc, 'GET', PATH + query, { ...(s ? { token: s.token } : {}), ...(version ? { version } : {}) });

const serverIds = (body: { topology: { servers: { id: string }[] } }) =>
  body.topology.servers.map((s) => s.id).sort();

describe('GET /compute/v2.1/os-emulator-topology', () => {
  it('answers an admin with the whole cloud as flat normalised arrays', async () => {
    const res = await get(admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-openstack-request-id')).toMatch(/^req-/);
    const t = res.body.topology;
    expect(Object.keys(t).sort()).toEqual(
      [
        'attachments',
        'generated_at',
        'host_ids_hashed',
        'hosts',
        'project_id',
        'risks',
        'servers',
        'summary',
        'volumes',
      ].sort(),
    );
    expect(t.project_id).toBeNull();
    expect(t.host_ids_hashed).toBe(false);
    expect(t.generated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Every compute host, empty ones too; the controller is not a compute host.
    expect(t.hosts.map((h: { name: string }) => h.name)).toEqual([
      'compute-1',
      'compute-2',
      'compute-3',
      'compute-old',
      'ironic-1',
    ]);
    const byHost = Object.fromEntries(t.hosts.map((h: { name: string }) => [h.name, h]));
    expect(byHost['compute-1']).toEqual({
      name: 'compute-1',
      availability_zone: 'nova',
      state: 'up',
      status: 'enabled',
      service_version: 70,
      supports_multiattach: true,
      supports_attach_modes: true,
      servers: [ids.d1],
    });
    expect(byHost['compute-old']).toMatchObject({ supports_attach_modes: false, servers: [ids.a2] });
    expect(byHost['ironic-1']).toMatchObject({
      availability_zone: 'az2',
      supports_multiattach: false,
      servers: [],
    });

    // The deleted server and its mapping are gone.
    expect(serverIds(res.body)).toEqual([ids.d1, ids.d2, ids.a1, ids.a2].sort());
    const d1 = t.servers.find((s: { id: string }) => s.id === ids.d1);
    expect(d1).toEqual({
      id: ids.d1,
      name: 'd1',
      project_id: demo.projectId,
      status: 'ACTIVE',
      host: 'compute-1',
      availability_zone: 'nova',
      attachments: expect.arrayContaining([ids.d1Shared]),
    });
    expect(d1.attachments).toHaveLength(2);

    const att = t.attachments.find((a: { id: string }) => a.id === ids.d1Shared);
    expect(att).toEqual({
      id: ids.d1Shared,
      bdm_uuid: expect.any(String),
      server_id: ids.d1,
      volume_id: ids.shared,
      device: '/dev/vdb',
      attach_mode: 'rw',
      attach_status: 'attached',
      boot_index: 0,
      delete_on_termination: true,
      created_at: expect.stringMatching(/Z$/),
      attached_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    // No mode on the mapping and 'null' in Cinder: Cinder's default, rw.
    const plain = t.attachments.find((a: { volume_id: string }) => a.volume_id === ids.adminVol);
    expect(plain.attach_mode).toBe('rw');

    const shared = t.volumes.find((v: { id: string }) => v.id === ids.shared);
    expect(shared).toEqual({
      id: ids.shared,
      name: 'shared',
      project_id: demo.projectId,
      status: 'in-use',
      size: 10,
      multiattach: true,
      volume_type: 'multiattach',
      attachment_count: 2,
      rw_count: 1,
      ro_count: 1,
    });
    expect(t.volumes.find((v: { id: string }) => v.id === ids.adminVol)).toMatchObject({
      multiattach: false,
      volume_type: '__DEFAULT__',
    });
    expect(t.risks).toEqual([]);
    expect(t.summary).toEqual({
      hosts: 5,
      servers: 4,
      volumes: 3,
      attachments: 5,
      rw: 2,
      ro: 3,
      multiple_writer_volumes: 0,
      stuck_attachments: 0,
    });
  });

  it('answers at any microversion', async () => {
    for (const v of ['compute 2.1', 'compute 2.60', 'compute 2.105', 'compute latest']) {
      const res = await get(admin, '', v);
      expect(res.status).toBe(200);
      expect(res.body.topology.summary.servers).toBe(4);
    }
  });

  it('shows a member only their project, with Nova hostIds instead of host names', async () => {
    const res = await get(demo);
    expect(res.status).toBe(200);
    const t = res.body.topology;
    expect(t.project_id).toBe(demo.projectId);
    expect(t.host_ids_hashed).toBe(true);
    expect(serverIds(res.body)).toEqual([ids.d1, ids.d2].sort());
    const hostId = (host: string) =>
      createHash('sha224')
        .update(demo.projectId + host)
        .digest('hex');
    // Only the hosts holding the member's servers, and no service facts.
    expect(t.hosts).toEqual(
      [
        { name: hostId('compute-1'), availability_zone: 'nova', servers: [ids.d1] },
        { name: hostId('compute-2'), availability_zone: 'nova', servers: [ids.d2] },
      ].sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
    expect(t.servers.find((s: { id: string }) => s.id === ids.d1).host).toBe(hostId('compute-1'));
    expect(res.text).not.toContain('compute-1');
    expect(res.text).not.toContain(ids.a1);
    expect(t.volumes.map((v: { id: string }) => v.id).sort()).toEqual([ids.shared, ids.data].sort());
    // The data volume is the member's: its counts include the admin server reading it (Cinder shows that too).
    expect(t.volumes.find((v: { id: string }) => v.id === ids.data)).toMatchObject({
      attachment_count: 2,
      ro_count: 2,
    });
    expect(t.attachments.every((a: { server_id: string }) => [ids.d1, ids.d2].includes(a.server_id))).toBe(
      true,
    );
    expect(t.summary).toMatchObject({ hosts: 2, servers: 2, volumes: 2, attachments: 3 });
  });

  it('ignores admin-only filters from a member and refuses them all tenants', async () => {
    const res = await get(demo, `?project_id=${admin.projectId}&host=compute-3`);
    expect(res.status).toBe(200);
    expect(serverIds(res.body)).toEqual([ids.d1, ids.d2].sort());

    const all = await get(demo, '?all_tenants=1');
    expect(all.status).toBe(403);
    expect(all.body).toEqual({
      forbidden: {
        code: 403,
        message: "Policy doesn't allow os_compute_api:os-emulator-topology:all_tenants to be performed.",
      },
    });
  });

  it('filters an admin view by project, all_tenants=0, host, server and volume', async () => {
    const byProject = await get(admin, `?project_id=${demo.projectId}`);
    expect(byProject.body.topology.project_id).toBe(demo.projectId);
    expect(serverIds(byProject.body)).toEqual([ids.d1, ids.d2].sort());
    // Narrowed: only the hosts holding the servers shown, still with names.
    expect(byProject.body.topology.hosts.map((h: { name: string }) => h.name)).toEqual([
      'compute-1',
      'compute-2',
    ]);

    const own = await get(admin, '?all_tenants=0');
    expect(serverIds(own.body)).toEqual([ids.a1, ids.a2].sort());
    expect(own.body.topology.project_id).toBe(admin.projectId);

    const byHost = await get(admin, '?host=compute-2');
    expect(serverIds(byHost.body)).toEqual([ids.d2]);
    expect(byHost.body.topology.hosts.map((h: { name: string }) => h.name)).toEqual(['compute-2']);
    // The volume's counts cover all its attachments, not only those on the filtered host.
    expect(byHost.body.topology.volumes.find((v: { id: string }) => v.id === ids.shared)).toMatchObject({
      attachment_count: 2,
      rw_count: 1,
    });

    const byServer = await get(admin, `?server_id=${ids.d1}`);
    expect(serverIds(byServer.body)).toEqual([ids.d1]);
    expect(byServer.body.topology.attachments).toHaveLength(2);

    const byVolume = await get(admin, `?volume_id=${ids.data}`);
    expect(serverIds(byVolume.body)).toEqual([ids.d1, ids.a2].sort());
    expect(byVolume.body.topology.attachments.map((a: { volume_id: string }) => a.volume_id)).toEqual([
      ids.data,
      ids.data,
    ]);
    expect(byVolume.body.topology.volumes.map((v: { id: string }) => v.id)).toEqual([ids.data]);

    const none = await get(admin, '?server_id=00000000-0000-0000-0000-000000000000');
    expect(none.status).toBe(200);
    expect(none.body.topology.summary).toMatchObject({ servers: 0, attachments: 0, volumes: 0, hosts: 0 });
  });

  it('rejects malformed filters with 400', async () => {
    for (const q of ['?stuck_after=abc', '?stuck_after=-1', '?all_tenants=maybe']) {
      const res = await get(admin, q);
      expect(res.status).toBe(400);
      expect(res.body.badRequest.code).toBe(400);
      expect(res.body.badRequest.message).toMatch(
        /^Invalid input for query parameters (stuck_after|all_tenants)/,
      );
    }
  });

  it('answers 401 without a valid token, as keystonemiddleware does', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = token ? await http(tc, 'GET', PATH, { token }) : await get(null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: {
          code: 401,
          message: 'The request you have made requires authentication.',
          title: 'Unauthorized',
        },
      });
      expect(res.headers.get('www-authenticate')).toBe(`Keystone uri="${tc.url}/identity/v3"`);
    }
  });
});
