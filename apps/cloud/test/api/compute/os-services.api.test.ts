import { describe, expect } from 'vitest';
import { listComputeHosts, listSchedulableHosts } from '../../../src/compute/host/compute-hosts.js';
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
});

const S = '/compute/v2.1/os-services';
const TIME_MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Svc {
  id: string | number;
  host: string;
  binary: string;
  status: string;
  state: string;
  disabled_reason: string | null;
  forced_down?: boolean;
}

async function services(v = '2.53', query = ''): Promise<Svc[]> {
  const r = await http(tc, 'GET', `${S}${query}`, { token: admin.token, version: `compute ${v}` });
  expect(r.status).toBe(200);
  return r.body.services;
}
const uuidOf = async (host: string) =>
  (await services('2.53', `?host=${host}&binary=nova-compute`))[0]!.id as string;

async function insertServer(host: string, id: string) {
  const now = new Date().toISOString();
  await tc.cloud.deps.store.db
    .insertInto('servers')
    .values({
      id,
      project_id: demo.projectId,
      user_id: demo.userId,
      name: `srv-${id.slice(0, 4)}`,
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
      flavor: JSON.stringify({ vcpus: 1, ram: 2048, disk: 20, ephemeral: 0, swap: 0 }),
      old_flavor: null,
      image_id: 'img',
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

describe('os-services listing', () => {
  it('shows integer ids and no forced_down at 2.1 (capture 106)', async () => {
    const list = await services('2.1');
    expect(list).toHaveLength(7);
    expect(Object.keys(list[0]!)).toEqual([
      'binary',
      'host',
      'id',
      'zone',
      'status',
      'state',
      'updated_at',
      'disabled_reason',
    ]);
    expect(list.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(list[0]).toMatchObject({
      binary: 'nova-scheduler',
      host: 'controller',
      zone: 'internal',
      state: 'up',
    });
    expect((list[0] as unknown as { updated_at: string }).updated_at).toMatch(TIME_MICRO);
  });

  it('adds forced_down from 2.11 and switches to uuids at 2.53 (capture 107)', async () => {
    const l211 = await services('2.11');
    expect(typeof l211[0]!.id).toBe('number');
    expect(l211[0]!.forced_down).toBe(false);
    const l253 = await services('2.53');
    expect(l253[0]!.id).toMatch(UUID);
    expect(Object.keys(l253[0]!)).toEqual([
      'binary',
      'host',
      'id',
      'zone',
      'status',
      'state',
      'updated_at',
      'disabled_reason',
      'forced_down',
    ]);
  });

  it('filters by host and binary; unknown parameters fail from 2.75', async () => {
    expect((await services('2.53', '?binary=nova-compute')).map((s) => s.host)).toEqual([
      'compute-1',
      'compute-2',
      'compute-old',
      'compute-3',
      'ironic-1',
    ]);
    expect((await services('2.53', '?host=controller')).map((s) => s.binary)).toEqual([
      'nova-scheduler',
      'nova-conductor',
    ]);
    expect(await services('2.74', '?colour=red')).toHaveLength(7);
    const strict = await http(tc, 'GET', `${S}?colour=red`, { token: admin.token, version: 'compute 2.75' });
    expect(strict.status).toBe(400);
    expect(strict.body.badRequest.message).toBe(
      "Additional properties are not allowed ('colour' was unexpected)",
    );
  });

  it('is admin only (capture 108)', async () => {
    const r = await http(tc, 'GET', S, { token: demo.token, version: 'compute 2.53' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      forbidden: {
        code: 403,
        message: "Policy doesn't allow os_compute_api:os-services:list to be performed.",
      },
    });
  });
});

describe('PUT /os-services/{id} (2.53)', () => {
  const put = (id: string, body: unknown, s = admin) =>
    http(tc, 'PUT', `${S}/${id}`, { token: s.token, version: 'compute 2.53', body });

  it('disables with a reason, and the scheduler stops offering the host', async () => {
    const id = await uuidOf('compute-2');
    const r = await put(id, { status: 'disabled', disabled_reason: 'maintenance' });
    expect(r.status).toBe(200);
    expect(r.body.service).toMatchObject({
      binary: 'nova-compute',
      host: 'compute-2',
      id,
      zone: 'nova',
      status: 'disabled',
      state: 'up',
      disabled_reason: 'maintenance',
      forced_down: false,
    });
    expect(r.body.service.updated_at).toMatch(TIME_MICRO);
    const schedulable = await listSchedulableHosts(tc.cloud.deps.store.db);
    expect(schedulable.map((h) => h.host)).toEqual(['compute-1', 'compute-old', 'compute-3', 'ironic-1']);
    const all = await listComputeHosts(tc.cloud.deps.store.db);
    expect(all.find((h) => h.host === 'compute-2')).toMatchObject({
      status: 'disabled',
      schedulable: false,
      disabledReason: 'maintenance',
    });

    // Enabling again (capture 187) clears the reason and brings the host back.
    const back = await put(id, { status: 'enabled' });
    expect(back.status).toBe(200);
    expect(back.body.service).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect((await listSchedulableHosts(tc.cloud.deps.store.db)).map((h) => h.host)).toContain('compute-2');
  });

  it('forces a service down (state down, not schedulable) and back up', async () => {
    const id = await uuidOf('compute-old');
    const r = await put(id, { forced_down: true });
    expect(r.body.service).toMatchObject({ state: 'down', forced_down: true, status: 'enabled' });
    expect((await listSchedulableHosts(tc.cloud.deps.store.db)).map((h) => h.host)).not.toContain(
      'compute-old',
    );
    const up = await put(id, { forced_down: 'false' });
    expect(up.body.service).toMatchObject({ state: 'up', forced_down: false });
  });

  it("answers Nova's errors", async () => {
    const id = await uuidOf('compute-1');
    const cases: [string, unknown, number, string][] = [
      [
        id,
        { status: 'enabled', disabled_reason: 'x' },
        400,
        "Specifying 'disabled_reason' with status 'enabled' is invalid.",
      ],
      [id, {}, 400, "No updates were requested. Fields 'status' or 'forced_down' should be specified."],
      [
        id,
        { disabled_reason: 'only' },
        400,
        "No updates were requested. Fields 'status' or 'forced_down' should be specified.",
      ],
      [
        id,
        { status: 'off' },
        400,
        "Invalid input for field/attribute status. Value: off. 'off' is not one of ['enabled', 'disabled']",
      ],
      [
        id,
        { status: 'disabled', colour: 1 },
        400,
        "Additional properties are not allowed ('colour' was unexpected)",
      ],
      ['not-a-uuid', { status: 'disabled' }, 400, 'Invalid uuid not-a-uuid'],
      [
        '00000000-0000-4000-8000-000000000000',
        { status: 'disabled' },
        404,
        'Service 00000000-0000-4000-8000-000000000000 could not be found.',
      ],
    ];
    for (const [sid, body, status, message] of cases) {
      const r = await put(sid, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(Object.values(r.body as Record<string, { message: string }>)[0]!.message).toBe(message);
    }
    const scheduler = (await services('2.53', '?binary=nova-scheduler'))[0]!.id as string;
    const r = await put(scheduler, { status: 'disabled' });
    expect(r.body.badRequest.message).toBe(
      'Updating a nova-scheduler service is not supported. Only nova-compute services can be updated.',
    );
    const member = await put(id, { status: 'disabled' }, demo);
    expect(member.status).toBe(403);
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-services:update to be performed.",
    );
  });
});

describe('PUT /os-services/{action} below 2.53', () => {
  const put = (action: string, body: unknown, v = '2.1') =>
    http(tc, 'PUT', `${S}/${action}`, { token: admin.token, version: `compute ${v}`, body });

  it('disables with a logged reason and enables by host and binary', async () => {
    const off = await put('disable-log-reason', {
      host: 'compute-3',
      binary: 'nova-compute',
      disabled_reason: 'r',
    });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({
      service: { host: 'compute-3', binary: 'nova-compute', status: 'disabled', disabled_reason: 'r' },
    });
    const list = await services('2.1', '?host=compute-3');
    expect(list[0]).toMatchObject({ status: 'disabled', disabled_reason: 'r' });
    const on = await put('enable', { host: 'compute-3', binary: 'nova-compute' });
    expect(on.body).toEqual({ service: { host: 'compute-3', binary: 'nova-compute', status: 'enabled' } });
    const down = await put(
      'force-down',
      { host: 'compute-3', binary: 'nova-compute', forced_down: false },
      '2.11',
    );
    expect(down.body).toEqual({ service: { host: 'compute-3', binary: 'nova-compute', forced_down: false } });
  });

  it('answers unknown actions and hosts like Nova', async () => {
    expect(
      (await put('reboot', { host: 'compute-3', binary: 'nova-compute' })).body.itemNotFound.message,
    ).toBe('Unknown action');
    expect((await put('force-down', { host: 'compute-3', binary: 'nova-compute' })).status).toBe(404);
    expect(
      (await put('disable', { host: 'nowhere', binary: 'nova-compute' })).body.itemNotFound.message,
    ).toBe("Host 'nowhere' is not mapped to any cell");
    expect((await put('disable', { host: 'compute-3' })).body.badRequest.message).toBe(
      "'binary' is a required property",
    );
    expect(
      (await put('disable-log-reason', { host: 'compute-3', binary: 'nova-compute' })).body.badRequest
        .message,
    ).toBe('Missing disabled reason field');
  });
});

describe('DELETE /os-services/{id}', () => {
  it('deletes a compute service and its hypervisor with 204 (capture 198)', async () => {
    const id = await uuidOf('ironic-1');
    const r = await http(tc, 'DELETE', `${S}/${id}`, { token: admin.token, version: 'compute 2.53' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await services('2.53')).map((s) => s.host)).not.toContain('ironic-1');
    const hyps = await http(tc, 'GET', '/compute/v2.1/os-hypervisors', { token: admin.token });
    expect(
      hyps.body.hypervisors.map((h: { hypervisor_hostname: string }) => h.hypervisor_hostname),
    ).not.toContain('ironic-1');
    const again = await http(tc, 'DELETE', `${S}/${id}`, { token: admin.token, version: 'compute 2.53' });
    expect(again.status).toBe(404);
    expect(again.body.itemNotFound.message).toBe(`Service ${id} not found.`);
  });

  it('refuses a host that still runs servers, bad ids, and members', async () => {
    await insertServer('compute-1', '11111111-2222-4333-8444-555555555555');
    const id = await uuidOf('compute-1');
    const busy = await http(tc, 'DELETE', `${S}/${id}`, { token: admin.token, version: 'compute 2.53' });
    expect(busy.status).toBe(409);
    expect(busy.body.conflictingRequest.message).toBe(
      'Unable to delete compute service that is hosting instances. Migrate or delete the instances first.',
    );
    const notUuid = await http(tc, 'DELETE', `${S}/7`, { token: admin.token, version: 'compute 2.53' });
    expect(notUuid.body.badRequest.message).toBe('Invalid uuid 7');
    const notInt = await http(tc, 'DELETE', `${S}/abc`, { token: admin.token, version: 'compute 2.1' });
    expect(notInt.body.badRequest.message).toBe('Invalid input received: id must be an integer');
    const member = await http(tc, 'DELETE', `${S}/${id}`, { token: demo.token, version: 'compute 2.53' });
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-services:delete to be performed.",
    );
    // Below 2.53 the integer id is used; the conductor has no compute node and goes quietly.
    const byInt = await http(tc, 'DELETE', `${S}/2`, { token: admin.token, version: 'compute 2.1' });
    expect(byInt.status).toBe(204);
    expect((await services('2.1')).map((s) => s.id)).not.toContain(2);
  });
});
