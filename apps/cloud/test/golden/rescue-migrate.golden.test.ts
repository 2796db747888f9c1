import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { captureReplayer } from './replay.js';
import { bootServersViaApi } from '../helpers/compute-fixtures.js';
import { createVolume } from '../helpers/volume-fixtures.js';

/**
 * Issue 14, cloud-rescue, against the recorded Nova: /extensions (880-883); rescue and unrescue
 * (884-898: a server booted from a volume cannot be rescued without stable rescue, before or
 * after 2.87; paused and locked servers refuse); cold migrate (899-909: admins only, a named host
 * must exist and differ, one host means 202 then a failed migration); os-migrations (903-905);
 * flavor access (830-842, recorded by cloudv2). Rescuing an image-backed server, which the
 * reference (no Glance) cannot show, is checked against Nova's documented answer.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const { ids, replay, expectLike, expectSameFault } = captureReplayer(() => ({ tc, demo, admin }));

async function serverState(id: string) {
  const res = await http(tc, 'GET', `/compute/v2.1/servers/${id}`, { token: admin.token });
  const s = res.body.server;
  return { status: s.status, vm: s['OS-EXT-STS:vm_state'], task: s['OS-EXT-STS:task_state'] };
}

async function action(session: Session, id: string, body: unknown, version?: string) {
  return http(tc, 'POST', `/compute/v2.1/servers/${id}/action`, {
    token: session.token,
    body,
    ...(version ? { version } : {}),
  });
}

describe('extensions (880-883)', () => {
  it('lists and shows Nova fixed extensions, for any role; an unknown alias is 404', async () => {
    expectLike(await replay(880, 'admin'), { exact: ['$'] });
    expectLike(await replay(883, 'demo'), { exact: ['$'] });
    expectLike(await replay(881, 'admin'), { exact: ['$'] });
    expectSameFault(await replay(882, 'demo'));
  });
});

const RECORDED_SERVER = '40fac0a8-aa6a-46e0-a920-12a95b024c12';

describe('rescue and unrescue (884-898)', () => {
  it('boots a demo server from a volume, as recorded', async () => {
    const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.37',
      body: {
        server: {
          name: 'rescue-srv',
          flavorRef: '1',
          networks: 'none',
          block_device_mapping_v2: [
            { boot_index: 0, uuid: volume, source_type: 'volume', destination_type: 'volume' },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    ids[RECORDED_SERVER] = res.body.server.id;
    await tc.settle();
    expect((await serverState(ids[RECORDED_SERVER]!)).status).toBe('ACTIVE');
  });

  it('884, 885: a volume-backed server cannot be rescued, before 2.87 or after', async () => {
    expectSameFault(await replay(884, 'demo'));
    expectSameFault(await replay(885, 'demo'));
    expect(await serverState(ids[RECORDED_SERVER]!)).toEqual({ status: 'ACTIVE', vm: 'active', task: null });
  });

  it('886-891: unrescue of an active server, missing servers and bad bodies', async () => {
    for (const n of [886, 887, 888, 889, 890, 891]) expectSameFault(await replay(n, 'demo'));
  });

  it('892-894: a paused server refuses rescue with its vm_state', async () => {
    expectLike(await replay(892, 'demo'));
    await tc.settle();
    expectSameFault(await replay(893, 'demo'));
    expectLike(await replay(894, 'demo'));
    await tc.settle();
  });

  it('895-898: a locked server refuses rescue and unrescue to its owner', async () => {
    expectLike(await replay(895, 'demo'));
    expectSameFault(await replay(896, 'demo'));
    expectSameFault(await replay(897, 'demo'));
    expectLike(await replay(898, 'demo'));
  });

  it('an image-backed server: 200 with the password, RESCUE, refusals, back to ACTIVE', async () => {
    const [id] = await bootServersViaApi(tc, demo, 1, { name: 'rescue-image' });
    const sid = id!;
    const rescued = await action(demo, sid, { rescue: { adminPass: 'MySecretPass' } });
    expect(rescued.status).toBe(200);
    expect(rescued.body).toEqual({ adminPass: 'MySecretPass' });
    await tc.settle();
    expect(await serverState(sid)).toEqual({ status: 'RESCUE', vm: 'rescued', task: null });

    const again = await action(demo, sid, { rescue: null });
    expect(again.status).toBe(409);
    expect(again.body.conflictingRequest.message).toBe(
      `Cannot 'rescue' instance ${sid} while it is in vm_state rescued`,
    );
    for (const [name, body] of [
      ['reboot', { reboot: { type: 'SOFT' } }],
      ['pause', { pause: null }],
      ['stop', { 'os-stop': null }],
    ] as const) {
      const refused = await action(demo, sid, body);
      expect(refused.status).toBe(409);
      expect(refused.body.conflictingRequest.message).toBe(
        `Cannot '${name}' instance ${sid} while it is in vm_state rescued`,
      );
    }
    const volume = await createVolume(tc, { projectId: demo.projectId });
    const attach = await http(tc, 'POST', `/compute/v2.1/servers/${sid}/os-volume_attachments`, {
      token: demo.token,
      body: { volumeAttachment: { volumeId: volume } },
    });
    expect(attach.status).toBe(409);
    expect(attach.body.conflictingRequest.message).toBe(
      `Cannot 'attach_volume' instance ${sid} while it is in vm_state rescued`,
    );

    expect((await action(demo, sid, { unrescue: null })).status).toBe(202);
    await tc.settle();
    expect(await serverState(sid)).toEqual({ status: 'ACTIVE', vm: 'active', task: null });

    // Without a password, Nova makes one (12 characters).
    const generated = await action(demo, sid, { rescue: null });
    expect(generated.status).toBe(200);
    expect(generated.body.adminPass).toMatch(/^[a-zA-Z0-9]{12}$/);
    await tc.settle();
    expect((await action(demo, sid, { unrescue: null })).status).toBe(202);
    await tc.settle();

    const actions = await http(tc, 'GET', `/compute/v2.1/servers/${sid}/os-instance-actions`, {
      token: demo.token,
    });
    const names = (actions.body.instanceActions as { action: string }[]).map((a) => a.action);
    expect(names.slice(0, 4)).toEqual(['unrescue', 'rescue', 'unrescue', 'rescue']);
  });
});

describe('cold migrate (899-909) and os-migrations (903-905)', () => {
  it('899, 900: a missing server is 404 first; members are refused by policy', async () => {
    expectSameFault(await replay(899, 'admin'));
    expectSameFault(await replay(900, 'demo'));
  });

  it('908, 909: a named host (2.56) must exist and not be the server own host', async () => {
    expectSameFault(await replay(908, 'admin'));
    const shown = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}`, {
      token: admin.token,
    });
    const host = shown.body.server['OS-EXT-SRV-ATTR:host'] as string;
    ids['oracle-compute'] = host;
    expectSameFault(await replay(909, 'admin'));
  });

  it('905: members may not list migrations', async () => {
    expectSameFault(await replay(905, 'demo'));
  });

  it('901-907: with no other host enabled, 202, the server stays ACTIVE, the migration fails', async () => {
    const services = await http(tc, 'GET', '/compute/v2.1/os-services?binary=nova-compute', {
      token: admin.token,
      version: 'compute 2.53',
    });
    const others = (services.body.services as { id: string; host: string }[]).filter(
      (s) => s.host !== ids['oracle-compute'],
    );
    for (const s of others) {
      const put = await http(tc, 'PUT', `/compute/v2.1/os-services/${s.id}`, {
        token: admin.token,
        version: 'compute 2.53',
        body: { status: 'disabled' },
      });
      expect(put.status).toBe(200);
    }
    expectLike(await replay(901, 'admin'));
    await tc.settle();
    const shown = await replay(902, 'admin');
    expectLike(shown);
    expect(await serverState(ids[RECORDED_SERVER]!)).toEqual({ status: 'ACTIVE', vm: 'active', task: null });

    const listed = await replay(903, 'admin');
    expectLike(listed, { exact: ['$.migrations[*].status', '$.migrations[*].migration_type'] });
    const m = listed.res.body.migrations[0];
    expect(m.instance_uuid).toBe(ids[RECORDED_SERVER]);
    expect(m.dest_compute).toBeNull();
    expect(m.source_compute).toBe(ids['oracle-compute']);
    expectLike(await replay(904, 'admin'), { exact: ['$.migrations[*].status'] });

    const actions = await replay(906, 'admin');
    expectLike(actions);
    const migrate = actions.res.body.instanceActions[0];
    expect(migrate.action).toBe('migrate');
    expect(migrate.message).toBe('Error');
    const detail = await http(
      tc,
      'GET',
      `/compute/v2.1/servers/${ids[RECORDED_SERVER]}/os-instance-actions/${migrate.request_id}`,
      { token: admin.token, version: 'compute 2.58' },
    );
    expect(detail.status).toBe(200);
    for (const e of detail.body.instanceAction.events) expect(e.result).toBe('Error');
    // Capture 907: the conductor's two events, both ended in Error.
    expect(detail.body.instanceAction.events.map((e: { event: string }) => e.event).sort()).toEqual([
      'cold_migrate',
      'conductor_migrate_server',
    ]);
  });

  it('with another host enabled, the migrate moves the server: VERIFY_RESIZE, then confirmed', async () => {
    const services = await http(tc, 'GET', '/compute/v2.1/os-services?binary=nova-compute', {
      token: admin.token,
      version: 'compute 2.53',
    });
    const other = (services.body.services as { id: string; host: string; zone: string }[]).find(
      (s) => s.host === 'compute-2' || (s.host !== ids['oracle-compute'] && s.zone === 'nova'),
    )!;
    await http(tc, 'PUT', `/compute/v2.1/os-services/${other.id}`, {
      token: admin.token,
      version: 'compute 2.53',
      body: { status: 'enabled' },
    });
    const sid = ids[RECORDED_SERVER]!;
    const moved = await action(admin, sid, { migrate: { host: other.host } }, 'compute 2.56');
    expect(moved.status).toBe(202);
    await tc.settle();
    expect(await serverState(sid)).toEqual({ status: 'VERIFY_RESIZE', vm: 'resized', task: null });
    expect((await action(admin, sid, { confirmResize: null })).status).toBe(204);
    await tc.settle();
    expect(await serverState(sid)).toEqual({ status: 'ACTIVE', vm: 'active', task: null });

    const list = await http(tc, 'GET', `/compute/v2.1/os-migrations?instance_uuid=${sid}`, {
      token: admin.token,
      version: 'compute 2.80',
    });
    const [latest, failed] = list.body.migrations;
    expect(latest).toMatchObject({
      status: 'confirmed',
      migration_type: 'migration',
      dest_compute: other.host,
      source_compute: ids['oracle-compute'],
      user_id: admin.userId,
    });
    expect(latest.old_instance_type_id).toBe(latest.new_instance_type_id);
    expect(failed.status).toBe('error');
  });
});

const RECORDED_FLAVOR = 'c7aede57-977c-4d42-ac1d-b0e083388001';
const RECORDED_DEMO_PROJECT = '18896c0c20764c99a9d28165c87ac863';

describe('flavor access (830-842)', () => {
  /** Nova names its internal flavor row id in two messages (833, 839); so do we, with ours. */
  let internalId = 0;

  it('830, 831: an admin creates a private flavor; its access list starts empty', async () => {
    ids[RECORDED_DEMO_PROJECT] = demo.projectId;
    const created = await replay(830, 'admin');
    expectLike(created);
    expect(created.res.body.flavor['os-flavor-access:is_public']).toBe(false);
    ids[RECORDED_FLAVOR] = created.res.body.flavor.id;
    const row = await tc.cloud.deps.store.db
      .selectFrom('flavors')
      .select('internal_id')
      .where('id', '=', ids[RECORDED_FLAVOR]!)
      .executeTakeFirstOrThrow();
    internalId = row.internal_id;
    expectLike(await replay(831, 'admin'), { exact: ['$'] });
  });

  it('840, 841: a public flavor has no access list; demo cannot see the private one yet', async () => {
    expectSameFault(await replay(840, 'admin'));
    expectSameFault(await replay(841, 'demo'));
  });

  it('832-836: shared with demo, who then sees it; duplicates and members are refused', async () => {
    expectLike(await replay(832, 'admin'), { exact: ['$'] });
    expectSameFault(
      await replay(833, 'admin'),
      `Flavor access already exists for flavor ${internalId} and project ${demo.projectId} combination.`,
    );
    expectLike(await replay(834, 'demo'), { exact: ['$.flavor.id', '$.flavor.name'] });
    const listed = await http(tc, 'GET', '/compute/v2.1/flavors', { token: demo.token });
    expect((listed.body.flavors as { id: string }[]).map((f) => f.id)).toContain(ids[RECORDED_FLAVOR]);
    expectSameFault(await replay(835, 'demo'));
    expectSameFault(await replay(836, 'demo'));
  });

  it('837-839: removed, demo no longer sees it; a second remove is 404', async () => {
    expectLike(await replay(837, 'admin'), { exact: ['$'] });
    expectSameFault(await replay(838, 'demo'));
    expectSameFault(
      await replay(839, 'admin'),
      `Flavor access not found for ${internalId} / ${demo.projectId} combination.`,
    );
    const listed = await http(tc, 'GET', '/compute/v2.1/flavors', { token: demo.token });
    expect((listed.body.flavors as { id: string }[]).map((f) => f.id)).not.toContain(ids[RECORDED_FLAVOR]);
  });

  it('a member cannot boot with a private flavor not shared with the project (400)', async () => {
    const images = await http(tc, 'GET', '/image/v2/images', { token: demo.token });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.37',
      body: {
        server: {
          name: 'private-flavor',
          imageRef: images.body.images[0].id,
          flavorRef: ids[RECORDED_FLAVOR],
          networks: 'none',
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(`Flavor ${ids[RECORDED_FLAVOR]} could not be found.`);
  });

  it('842: deleting the flavor drops its access too', async () => {
    expectLike(await replay(842, 'admin'));
    const left = await tc.cloud.deps.store.db
      .selectFrom('flavor_projects')
      .selectAll()
      .where('flavor_id', '=', ids[RECORDED_FLAVOR]!)
      .execute();
    expect(left).toEqual([]);
  });
});
