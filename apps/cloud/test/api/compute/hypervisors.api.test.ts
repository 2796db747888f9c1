import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  // One image-booted m1.small and one volume-backed m1.tiny on compute-1.
  await insertServer('compute-1', 'aaaaaaaa-0000-4000-8000-000000000001', 'img', {
    vcpus: 1,
    ram: 2048,
    disk: 20,
  });
  await insertServer('compute-1', 'aaaaaaaa-0000-4000-8000-000000000002', null, {
    vcpus: 1,
    ram: 512,
    disk: 1,
  });
});

const H = '/compute/v2.1/os-hypervisors';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const get = (path: string, v: string, s = admin) =>
  http(tc, 'GET', path, { token: s.token, version: `compute ${v}` });

async function insertServer(
  host: string,
  id: string,
  imageId: string | null,
  flavor: Record<string, number>,
) {
  const now = new Date().toISOString();
  await tc.cloud.deps.store.db
    .insertInto('servers')
    .values({
      id,
      project_id: demo.projectId,
      user_id: demo.userId,
      name: `srv-${id.slice(-1)}`,
      hostname: 'srv',
      description: null,
      vm_state: 'active',
      task_state: null,
      power_state: 1,
      host,
      node: host,
      availability_zone: 'nova',
      requested_availability_zone: null,
      flavor_id: '2',
      flavor: JSON.stringify({ ephemeral: 0, swap: 0, ...flavor }),
      old_flavor: null,
      image_id: imageId,
      reservation_id: 'r-00000000',
      launch_index: 0,
      key_name: null,
      metadata: '{}',
      tags: '[]',
      security_groups: '[]',
      config_drive: '',
      locked: 0,
      locked_reason: null,
      locked_by: null,
      access_ip_v4: null,
      access_ip_v6: null,
      auto_disk_config: 0,
      password: null,
      user_data: null,
      trusted_certs: null,
      fault: null,
      created_at: now,
      updated_at: now,
      launched_at: now,
      terminated_at: null,
      deleted: 0,
    })
    .execute();
}

const BRIEF = ['id', 'hypervisor_hostname', 'state', 'status'];
const DETAIL_BASE = [...BRIEF, 'hypervisor_type', 'hypervisor_version', 'host_ip', 'service'];
const USAGE = [
  'vcpus',
  'memory_mb',
  'local_gb',
  'vcpus_used',
  'memory_mb_used',
  'local_gb_used',
  'free_ram_mb',
  'free_disk_gb',
  'current_workload',
  'running_vms',
  'disk_available_least',
  'cpu_info',
];

describe('os-hypervisors list and detail per microversion', () => {
  it('lists integer ids at 2.1 (capture 109) and uuids from 2.53 (capture 111)', async () => {
    const r21 = await get(H, '2.1');
    expect(r21.status).toBe(200);
    expect(r21.body.hypervisors).toHaveLength(5);
    expect(r21.body.hypervisors[0]).toEqual({
      id: 1,
      hypervisor_hostname: 'compute-1',
      state: 'up',
      status: 'enabled',
    });
    const r253 = await get(H, '2.53');
    expect(Object.keys(r253.body.hypervisors[0])).toEqual(BRIEF);
    expect(r253.body.hypervisors[0].id).toMatch(UUID);
  });

  it('details usage with a JSON-string cpu_info at 2.1 (capture 110) and an object from 2.28', async () => {
    const r21 = await get(`${H}/detail`, '2.1');
    const c1 = r21.body.hypervisors[0];
    expect(Object.keys(c1)).toEqual([...DETAIL_BASE, ...USAGE]);
    expect(c1).toMatchObject({
      hypervisor_type: 'QEMU',
      host_ip: '10.0.0.11',
      service: { id: 3, host: 'compute-1', disabled_reason: null },
      vcpus: 64,
      vcpus_used: 2,
      memory_mb_used: 512 + 2048 + 512,
      local_gb_used: 20,
      free_ram_mb: 262_144 - 3072,
      free_disk_gb: 2000 - 20,
      running_vms: 2,
    });
    expect(typeof c1.cpu_info).toBe('string');
    expect(JSON.parse(c1.cpu_info).arch).toBe('x86_64');
    expect(c1.cpu_info).toContain('{"arch": "x86_64", ');
    const idle = r21.body.hypervisors[1];
    expect(idle).toMatchObject({ vcpus_used: 0, memory_mb_used: 512, running_vms: 0 });
    const ironic = r21.body.hypervisors.find(
      (h: { hypervisor_type: string }) => h.hypervisor_type === 'ironic',
    );
    expect(ironic.cpu_info).toBe('');
    const r228 = await get(`${H}/detail`, '2.28');
    expect(r228.body.hypervisors[0].cpu_info).toMatchObject({ arch: 'x86_64', vendor: 'Intel' });
    expect(
      r228.body.hypervisors.find((h: { hypervisor_type: string }) => h.hypervisor_type === 'ironic').cpu_info,
    ).toEqual({});
  });

  it('uses uuids for the hypervisor and its service at 2.53 (capture 112)', async () => {
    const r = await get(`${H}/detail`, '2.53');
    const h = r.body.hypervisors[0];
    expect(h.id).toMatch(UUID);
    expect(h.service.id).toMatch(UUID);
    expect(Object.keys(h)).toEqual([...DETAIL_BASE, ...USAGE]);
  });

  it('drops the usage fields and adds uptime at 2.88 (captures 113, 114)', async () => {
    const r = await get(`${H}/detail`, '2.88');
    const h = r.body.hypervisors[0];
    expect(Object.keys(h)).toEqual([...DETAIL_BASE, 'uptime']);
    expect(h.uptime).toMatch(/^ \d{2}:\d{2}:\d{2} up .*load average/);
    const ironic = r.body.hypervisors.find(
      (x: { hypervisor_type: string }) => x.hypervisor_type === 'ironic',
    );
    expect(ironic.uptime).toBeNull();
  });

  it('is admin only (capture 115)', async () => {
    const r = await get(H, '2.60', demo);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      forbidden: {
        code: 403,
        message: "Policy doesn't allow os_compute_api:os-hypervisors:list to be performed.",
      },
    });
    expect((await get(`${H}/detail`, '2.60', demo)).body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-hypervisors:list-detail to be performed.",
    );
  });
});

describe('os-hypervisors paging and filters', () => {
  it('ignores limit below 2.33 and pages with links from 2.33', async () => {
    expect((await get(`${H}?limit=1`, '2.32')).body.hypervisors).toHaveLength(5);
    const p1 = await get(`${H}?limit=2`, '2.33');
    expect(p1.body.hypervisors.map((h: { id: number }) => h.id)).toEqual([1, 2]);
    expect(p1.body.hypervisors_links).toEqual([
      { rel: 'next', href: `${tc.url}/compute/v2.1/os-hypervisors?limit=2&marker=2` },
    ]);
    const p2 = await get(`${H}/detail?limit=2&marker=2`, '2.33');
    expect(p2.body.hypervisors.map((h: { id: number }) => h.id)).toEqual([3, 4]);
    expect(p2.body.hypervisors_links[0].href).toBe(
      `${tc.url}/compute/v2.1/os-hypervisors/detail?limit=2&marker=4`,
    );
    const bad = await get(`${H}?marker=99`, '2.33');
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toBe('marker [99] not found');
    const uuids = (await get(H, '2.53')).body.hypervisors.map((h: { id: string }) => h.id);
    const p253 = await get(`${H}?limit=1&marker=${uuids[3]}`, '2.53');
    expect(p253.body.hypervisors.map((h: { id: string }) => h.id)).toEqual([uuids[4]]);
  });

  it('filters by hostname pattern and returns servers at 2.53+', async () => {
    const r = await get(`${H}?hypervisor_hostname_pattern=compute&with_servers=true`, '2.53');
    expect(r.body.hypervisors.map((h: { hypervisor_hostname: string }) => h.hypervisor_hostname)).toEqual([
      'compute-1',
      'compute-2',
      'compute-old',
      'compute-3',
    ]);
    expect(r.body.hypervisors[0].servers).toEqual([
      { name: 'srv-1', uuid: 'aaaaaaaa-0000-4000-8000-000000000001' },
      { name: 'srv-2', uuid: 'aaaaaaaa-0000-4000-8000-000000000002' },
    ]);
    expect(r.body.hypervisors[1].servers).toBeUndefined();
    expect(r.body.hypervisors_links).toBeUndefined();
    const r275 = await get(`${H}?hypervisor_hostname_pattern=compute-2&with_servers=yes`, '2.75');
    expect(r275.body.hypervisors[0].servers).toEqual([]);
    const none = await get(`${H}?hypervisor_hostname_pattern=nothing`, '2.53');
    expect(none.status).toBe(404);
    expect(none.body.itemNotFound.message).toBe("No hypervisor matching 'nothing' could be found.");
    const paged = await get(`${H}?hypervisor_hostname_pattern=compute&limit=1`, '2.53');
    expect(paged.body.badRequest.message).toBe(
      'Paging over hypervisors with the hypervisor_hostname_pattern query parameter is not supported.',
    );
    const unknown = await get(`${H}?colour=red`, '2.53');
    expect(unknown.body.badRequest.message).toBe(
      "Additional properties are not allowed ('colour' was unexpected)",
    );
    const badBool = await get(`${H}?with_servers=perhaps`, '2.53');
    expect(badBool.body.badRequest.message).toMatch(
      /^Invalid input for query parameters with_servers\. Value: perhaps\. 'perhaps' is not one of \[True, 'True'/,
    );
  });

  it('keeps the search and servers routes below 2.53 only', async () => {
    const search = await get(`${H}/old/search`, '2.1');
    expect(search.body.hypervisors).toEqual([
      { id: 3, hypervisor_hostname: 'compute-old', state: 'up', status: 'enabled' },
    ]);
    const servers = await get(`${H}/compute-1/servers`, '2.1');
    expect(servers.body.hypervisors[0].servers).toHaveLength(2);
    expect((await get(`${H}/nothing/search`, '2.1')).status).toBe(404);
    expect((await get(`${H}/old/search`, '2.53')).status).toBe(404);
  });
});

describe('os-hypervisors show, uptime, statistics', () => {
  it('shows one hypervisor by integer id below 2.53 and by uuid from 2.53', async () => {
    const r = await get(`${H}/1`, '2.1');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.hypervisor)).toEqual([...DETAIL_BASE, ...USAGE]);
    const notInt = await get(`${H}/abc`, '2.1');
    expect(notInt.status).toBe(404);
    expect(notInt.body.itemNotFound.message).toBe("Hypervisor with ID 'abc' could not be found.");
    const uuid = (await get(H, '2.53')).body.hypervisors[0].id;
    const r253 = await get(`${H}/${uuid}?with_servers=1`, '2.53');
    expect(r253.body.hypervisor.id).toBe(uuid);
    expect(r253.body.hypervisor.servers).toHaveLength(2);
    const notUuid = await get(`${H}/1`, '2.53');
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.badRequest.message).toBe('Invalid uuid 1');
    const missing = await get(`${H}/00000000-0000-4000-8000-000000000000`, '2.53');
    expect(missing.status).toBe(404);
    expect((await get(`${H}/1`, '2.1', demo)).body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-hypervisors:show to be performed.",
    );
  });

  it('answers uptime below 2.88; ironic does not implement it', async () => {
    const r = await get(`${H}/1/uptime`, '2.1');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.hypervisor)).toEqual([...BRIEF, 'uptime']);
    expect(r.body.hypervisor.uptime).toContain(' up ');
    const ironic = await get(`${H}/5/uptime`, '2.1');
    expect(ironic.status).toBe(501);
    expect(ironic.body).toEqual({
      notImplemented: { code: 501, message: 'The requested functionality is not supported.' },
    });
    expect((await get(`${H}/1/uptime`, '2.88')).status).toBe(404);
  });

  it('sums statistics below 2.88', async () => {
    const r = await get(`${H}/statistics`, '2.1');
    expect(r.body.hypervisor_statistics).toMatchObject({
      count: 5,
      vcpus_used: 2,
      running_vms: 2,
      vcpus: 256,
    });
    expect((await get(`${H}/statistics`, '2.88')).status).toBe(404);
  });
});

describe('os-emulator-hosts extension', () => {
  it('lists every host with its capabilities, traits, capacity and usage, for admins', async () => {
    const r = await get('/compute/v2.1/os-emulator-hosts', '2.105');
    expect(r.status).toBe(200);
    const byHost = Object.fromEntries(r.body.emulator_hosts.map((h: { host: string }) => [h.host, h]));
    expect(Object.keys(byHost)).toEqual(['compute-1', 'compute-2', 'compute-old', 'compute-3', 'ironic-1']);
    expect(byHost['compute-1']).toMatchObject({
      zone: 'nova',
      state: 'up',
      status: 'enabled',
      schedulable: true,
      service_version: 70,
      supports_multiattach: true,
      supports_attach_modes: true,
      capacity: { vcpus: 64, memory_mb: 262_144, local_gb: 2000 },
      usage: { vcpus: 2, memory_mb: 3072, local_gb: 20, running_vms: 2 },
    });
    expect(byHost['compute-1'].traits).toContain('COMPUTE_VOLUME_MULTI_ATTACH');
    expect(byHost['compute-old']).toMatchObject({ service_version: 66, supports_attach_modes: false });
    expect(byHost['compute-old'].traits).not.toContain('CUSTOM_VOLUME_ATTACH_MODE');
    expect(byHost['ironic-1']).toMatchObject({
      zone: 'az2',
      supports_multiattach: false,
      hypervisor_type: 'ironic',
    });
    expect(byHost['ironic-1'].traits).not.toContain('COMPUTE_VOLUME_MULTI_ATTACH');
    const member = await get('/compute/v2.1/os-emulator-hosts', '2.105', demo);
    expect(member.status).toBe(403);
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-emulator-hosts:list to be performed.",
    );
  });
});
