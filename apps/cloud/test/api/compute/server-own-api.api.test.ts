import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { setServer } from '../../helpers/compute-fixtures.js';
import { allHostsEnabled, fault, novaClient } from './servers-fixtures.js';

/** The server's own API (issue 14, C1): fields kept at create, update, metadata, tags, actions. */

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

/** An image-backed server, ACTIVE. */
async function imageServer(server: Record<string, unknown> = {}, version = '2.60'): Promise<string> {
  const res = await nova('POST', '/servers', {
    version,
    body: { server: { name: 'own', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', ...server } },
  });
  expect(res.status).toBe(202);
  await tc.settle();
  return res.body.server.id;
}

const show = async (id: string, version = '2.60', session: Session = demo) =>
  (await nova('GET', `/servers/${id}`, { version, session })).body.server;

describe('create keeps what it was given', () => {
  it('stores accessIPv4/accessIPv6 and OS-DCF:diskConfig and shows them', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'ips',
          flavorRef: '1',
          imageRef: SEED_IMAGE_ID,
          networks: 'none',
          accessIPv4: '1.1.1.1',
          accessIPv6: '2001:2001::3',
          'OS-DCF:diskConfig': 'AUTO',
        },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.server['OS-DCF:diskConfig']).toBe('AUTO');
    await tc.settle();
    const s = await show(res.body.server.id);
    expect([s.accessIPv4, s.accessIPv6, s['OS-DCF:diskConfig']]).toEqual(['1.1.1.1', '2001:2001::3', 'AUTO']);
    const plain = await show(await imageServer());
    expect([plain.accessIPv4, plain.accessIPv6, plain['OS-DCF:diskConfig']]).toEqual(['', '', 'MANUAL']);
  });

  it('refuses an access address that is not one', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: { name: 'x', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', accessIPv4: '1.1.1' },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toMatch(/^Invalid input for field\/attribute accessIPv4/);
  });
});

describe('PUT /servers/{id}', () => {
  it('renames, describes (2.19) and readdresses a server; keys per microversion', async () => {
    const id = await imageServer();
    const old = await nova('PUT', `/servers/${id}`, {
      version: '2.1',
      body: { server: { name: 'renamed', accessIPv4: '192.0.2.4', accessIPv6: '::babe:202:202' } },
    });
    expect(old.status).toBe(200);
    const s = old.body.server;
    expect([s.name, s.accessIPv4, s.accessIPv6]).toEqual(['renamed', '192.0.2.4', '::babe:202:202']);
    // Below 2.75 the answer leaves out the extended attributes; no key of later versions.
    for (const k of [
      'OS-EXT-AZ:availability_zone',
      'OS-EXT-STS:vm_state',
      'key_name',
      'locked',
      'description',
    ]) {
      expect(s).not.toHaveProperty(k);
    }
    const v219 = await nova('PUT', `/servers/${id}`, {
      version: '2.19',
      body: { server: { description: 'd' } },
    });
    expect(v219.body.server.description).toBe('d');
    expect(v219.body.server.locked).toBe(false);
    // 2.75: the whole show view.
    const v275 = await nova('PUT', `/servers/${id}`, {
      version: '2.75',
      body: { server: { 'OS-DCF:diskConfig': 'AUTO' } },
    });
    expect(v275.body.server['OS-EXT-STS:vm_state']).toBe('active');
    expect(v275.body.server['OS-DCF:diskConfig']).toBe('AUTO');
    const shown = await show(id, '2.19');
    expect([shown.name, shown.description, shown.accessIPv4]).toEqual(['renamed', 'd', '192.0.2.4']);
  });

  it("refuses bad bodies with Nova's messages, and strangers with a 404", async () => {
    const id = await imageServer();
    const long = await nova('PUT', `/servers/${id}`, { body: { server: { name: 'a'.repeat(256) } } });
    expect(long.status).toBe(400);
    expect(long.body.badRequest.message).toMatch(/^Invalid input for field\/attribute name\./);
    const empty = await nova('PUT', `/servers/${id}`, { body: { server: { name: '' } } });
    expect(empty.status).toBe(400);
    const desc = await nova('PUT', `/servers/${id}`, {
      version: '2.18',
      body: { server: { description: 'x' } },
    });
    expect(desc.status).toBe(400);
    const none = await nova('PUT', `/servers/${id}`, { body: {} });
    expect(none.status).toBe(400);
    const missing = '00000000-0000-4000-8000-000000000001';
    const lost = await nova('PUT', `/servers/${missing}`, { body: { server: { name: 'x' } } });
    expect(lost.status).toBe(404);
    expect(lost.body).toEqual(fault(404, `Instance ${missing} could not be found.`));
    const byAdmin = await nova('PUT', `/servers/${id}`, {
      session: admin,
      body: { server: { name: 'adm' } },
    });
    expect(byAdmin.status).toBe(200);
  });
});

describe('server metadata', () => {
  it('lists, merges (POST), replaces (PUT), shows, sets and deletes one key', async () => {
    const id = await imageServer({ metadata: { born: 'yes' } });
    const base = `/servers/${id}/metadata`;
    expect((await nova('GET', base)).body).toEqual({ metadata: { born: 'yes' } });
    const merged = await nova('POST', base, { body: { metadata: { a: '1', b: '2' } } });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ metadata: { born: 'yes', a: '1', b: '2' } });
    const empty = await nova('POST', base, { body: { metadata: {} } });
    expect(empty.body).toEqual({ metadata: { born: 'yes', a: '1', b: '2' } });
    const replaced = await nova('PUT', base, { body: { metadata: { c: '3' } } });
    expect(replaced.body).toEqual({ metadata: { c: '3' } });
    const one = await nova('PUT', `${base}/d`, { body: { meta: { d: '4' } } });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ meta: { d: '4' } });
    expect((await nova('GET', `${base}/d`)).body).toEqual({ meta: { d: '4' } });
    const gone = await nova('DELETE', `${base}/c`);
    expect(gone.status).toBe(204);
    expect((await show(id)).metadata).toEqual({ d: '4' });
    for (const [method, path] of [
      ['GET', `${base}/c`],
      ['DELETE', `${base}/c`],
    ] as const) {
      const res = await nova(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(fault(404, 'Metadata item was not found'));
    }
  });

  it('refuses bad bodies as Nova does', async () => {
    const id = await imageServer();
    const base = `/servers/${id}/metadata`;
    const mismatch = await nova('PUT', `${base}/a`, { body: { meta: { b: '1' } } });
    expect(mismatch.body).toEqual(fault(400, 'Request body and URI mismatch'));
    for (const body of [
      { metadata: { 'key~': 'v' } },
      { metadata: { '': 'v' } },
      { meta: { a: '1' } },
      { metadata: { a: 'x'.repeat(256) } },
    ]) {
      for (const method of ['POST', 'PUT']) {
        const res = await nova(method, base, { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.badRequest.message).toMatch(
          /^(Invalid input for field\/attribute |'metadata' is a required property$)/,
        );
      }
    }
    const two = await nova('PUT', `${base}/a`, { body: { meta: { a: '1', b: '2' } } });
    expect(two.status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`k${i}`, 'v']));
    const over = await nova('PUT', base, { body: { metadata: many } });
    expect(over.body).toEqual(fault(403, 'Maximum number of metadata items exceeds 128'));
  });

  it('changes only a settled server, and not a locked one for its owner', async () => {
    const id = await imageServer();
    await setServer(tc, id, { task_state: 'rebooting' });
    const busy = await nova('POST', `/servers/${id}/metadata`, { body: { metadata: { a: '1' } } });
    expect(busy.body).toEqual(
      fault(409, `Cannot 'update metadata' instance ${id} while it is in task_state rebooting`),
    );
    await setServer(tc, id, { task_state: null, locked: 1, locked_by: 'admin' });
    const locked = await nova('PUT', `/servers/${id}/metadata/a`, { body: { meta: { a: '1' } } });
    expect(locked.body).toEqual(fault(409, `Instance ${id} is locked`));
    const byAdmin = await nova('PUT', `/servers/${id}/metadata/a`, {
      session: admin,
      body: { meta: { a: '1' } },
    });
    expect(byAdmin.status).toBe(200);
  });
});

describe('instance actions', () => {
  const actions = async (id: string, version = '2.60', session: Session = demo) =>
    nova('GET', `/servers/${id}/os-instance-actions`, { version, session });

  it('records create, reboot and stop with their request ids; events per policy and microversion', async () => {
    const id = await imageServer();
    const reboot = await nova('POST', `/servers/${id}/action`, { body: { reboot: { type: 'SOFT' } } });
    expect(reboot.status).toBe(202);
    await tc.settle();
    const list = await actions(id);
    expect(list.status).toBe(200);
    expect(list.body.instanceActions.map((a: { action: string }) => a.action)).toEqual(['reboot', 'create']);
    const first = list.body.instanceActions[0];
    expect(first.request_id).toBe(reboot.headers.get('x-openstack-request-id'));
    expect(Object.keys(first).sort()).toEqual(
      [
        'action',
        'instance_uuid',
        'message',
        'project_id',
        'request_id',
        'start_time',
        'updated_at',
        'user_id',
      ].sort(),
    );
    expect(first.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000$/);
    const v21 = await actions(id, '2.1');
    expect(v21.body.instanceActions[0]).not.toHaveProperty('updated_at');

    const path = `/servers/${id}/os-instance-actions/${first.request_id}`;
    // Before 2.51 a member sees no events; from 2.51 without traceback; 2.62 adds hostId.
    const old = await nova('GET', path, { version: '2.50' });
    expect(old.body.instanceAction).not.toHaveProperty('events');
    const member = (await nova('GET', path, { version: '2.62' })).body.instanceAction;
    expect(member.events).toHaveLength(1);
    expect(member.events[0]).toMatchObject({ event: 'compute_reboot_instance', result: 'Success' });
    expect(Object.keys(member.events[0]).sort()).toEqual(
      ['event', 'finish_time', 'hostId', 'result', 'start_time'].sort(),
    );
    const byAdmin = (await nova('GET', path, { version: '2.84', session: admin })).body.instanceAction;
    expect(Object.keys(byAdmin.events[0]).sort()).toEqual(
      ['details', 'event', 'finish_time', 'host', 'hostId', 'result', 'start_time', 'traceback'].sort(),
    );
    expect(byAdmin.events[0].host).toBeTruthy();
    const unknown = await nova('GET', `/servers/${id}/os-instance-actions/req-nope`);
    expect(unknown.body).toEqual(fault(404, 'Action req-nope not found'));
  });

  it("pages (2.58) and lists a deleted server's actions from 2.21", async () => {
    const id = await imageServer();
    await nova('POST', `/servers/${id}/action`, { body: { 'os-stop': null } });
    await tc.settle();
    await nova('POST', `/servers/${id}/action`, { body: { 'os-start': null } });
    await tc.settle();
    const page = await nova('GET', `/servers/${id}/os-instance-actions?limit=2`, { version: '2.58' });
    expect(page.body.instanceActions.map((a: { action: string }) => a.action)).toEqual(['start', 'stop']);
    expect(page.body.links[0].rel).toBe('next');
    const marker = page.body.instanceActions[1].request_id;
    const next = await nova('GET', `/servers/${id}/os-instance-actions?marker=${marker}`, {
      version: '2.58',
    });
    expect(next.body.instanceActions.map((a: { action: string }) => a.action)).toEqual(['create']);
    const bad = await nova('GET', `/servers/${id}/os-instance-actions?marker=req-gone`, { version: '2.58' });
    expect(bad.body).toEqual(fault(400, 'Marker None could not be found.'));
    const unknownParam = await nova('GET', `/servers/${id}/os-instance-actions?foo=1`, { version: '2.58' });
    expect(unknownParam.status).toBe(400);
    await nova('DELETE', `/servers/${id}`);
    await tc.settle();
    expect((await actions(id, '2.20')).status).toBe(404);
    const after = await actions(id, '2.21');
    expect(after.status).toBe(200);
    expect(after.body.instanceActions[0].action).toBe('delete');
  });
});

describe('lock, pause, suspend', () => {
  const act = (id: string, body: unknown, session: Session = demo, version = '2.60') =>
    nova('POST', `/servers/${id}/action`, { body, session, version });

  it('lock stops the owner (409) but not an admin; locked and locked_reason (2.73) show it', async () => {
    const id = await imageServer();
    expect((await act(id, { lock: { locked_reason: 'maintenance' } }, demo, '2.73')).status).toBe(202);
    const s = await show(id, '2.73');
    expect([s.locked, s.locked_reason]).toEqual([true, 'maintenance']);
    expect((await show(id, '2.9')).locked).toBe(true);
    expect(await show(id, '2.8')).not.toHaveProperty('locked');
    for (const body of [{ 'os-stop': null }, { pause: null }, { reboot: { type: 'HARD' } }]) {
      const res = await act(id, body);
      expect(res.body, JSON.stringify(body)).toEqual(fault(409, `Instance ${id} is locked`));
    }
    expect((await nova('DELETE', `/servers/${id}`)).body).toEqual(fault(409, `Instance ${id} is locked`));
    expect((await act(id, { pause: null }, admin)).status).toBe(202);
    await tc.settle();
    expect((await act(id, { unpause: null }, admin)).status).toBe(202);
    await tc.settle();
    const bad = await act(id, { lock: { locked_reason: '' } }, demo, '2.73');
    expect(bad.status).toBe(400);
    expect((await act(id, { unlock: null })).status).toBe(202);
    const after = await show(id, '2.73');
    expect([after.locked, after.locked_reason]).toEqual([false, null]);
  });

  it("an admin lock is the admin's to undo", async () => {
    const id = await imageServer();
    expect((await act(id, { lock: null }, admin)).status).toBe(202);
    const res = await act(id, { unlock: null });
    expect(res.body).toEqual(
      fault(
        403,
        "Policy doesn't allow os_compute_api:os-lock-server:unlock:unlock_override to be performed.",
      ),
    );
    expect((await act(id, { unlock: null }, admin)).status).toBe(202);
    const names = (await nova('GET', `/servers/${id}/os-instance-actions`)).body.instanceActions.map(
      (a: { action: string }) => a.action,
    );
    expect(names).toEqual(['unlock', 'lock', 'create']);
  });

  it('pause/unpause and suspend/resume move through PAUSED and SUSPENDED; wrong states get 409', async () => {
    const id = await imageServer();
    const wrongUnpause = await act(id, { unpause: null });
    expect(wrongUnpause.body).toEqual(
      fault(409, `Cannot 'unpause' instance ${id} while it is in vm_state active`),
    );
    const wrongResume = await act(id, { resume: null });
    expect(wrongResume.body).toEqual(
      fault(409, `Cannot 'resume' instance ${id} while it is in vm_state active`),
    );
    expect((await act(id, { pause: null })).status).toBe(202);
    await tc.settle();
    let s = await show(id);
    expect([s.status, s['OS-EXT-STS:vm_state'], s['OS-EXT-STS:power_state']]).toEqual([
      'PAUSED',
      'paused',
      3,
    ]);
    const again = await act(id, { pause: null });
    expect(again.body).toEqual(fault(409, `Cannot 'pause' instance ${id} while it is in vm_state paused`));
    expect((await act(id, { unpause: null })).status).toBe(202);
    await tc.settle();
    expect((await act(id, { suspend: null })).status).toBe(202);
    await tc.settle();
    s = await show(id);
    expect([s.status, s['OS-EXT-STS:vm_state'], s['OS-EXT-STS:power_state']]).toEqual([
      'SUSPENDED',
      'suspended',
      7,
    ]);
    expect((await act(id, { resume: null })).status).toBe(202);
    await tc.settle();
    s = await show(id);
    expect([s.status, s['OS-EXT-STS:power_state']]).toEqual(['ACTIVE', 1]);
    const missing = '00000000-0000-4000-8000-000000000002';
    expect((await act(missing, { suspend: null })).body).toEqual(
      fault(404, `Instance ${missing} could not be found.`),
    );
    // A paused server can be deleted.
    await act(id, { pause: null });
    await tc.settle();
    expect((await nova('DELETE', `/servers/${id}`)).status).toBe(204);
  });
});
