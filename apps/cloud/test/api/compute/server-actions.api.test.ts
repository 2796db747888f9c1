import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import {
  allHostsEnabled,
  bfvBody,
  fault,
  novaClient,
  onlyHosts,
  serverRow,
  stepper,
} from './servers-fixtures.js';

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

async function bfvServer(): Promise<{ id: string; volume: string }> {
  const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
  const res = await nova('POST', '/servers', { body: bfvBody(volume) });
  await tc.settle();
  return { id: res.body.server.id, volume };
}

const action = (id: string, body: unknown, session: Session = demo, version = '2.60') =>
  nova('POST', `/servers/${id}/action`, { body, session, version });

interface Seen {
  status: string;
  task: string | null;
  vm: string;
  power: number;
  host: string | null;
}

async function state(id: string): Promise<Seen> {
  const s = (await nova('GET', `/servers/${id}`, { session: admin })).body.server;
  return {
    status: s.status,
    task: s['OS-EXT-STS:task_state'],
    vm: s['OS-EXT-STS:vm_state'],
    power: s['OS-EXT-STS:power_state'],
    host: s['OS-EXT-SRV-ATTR:host'],
  };
}

/** Runs an action with the hosts held, recording every distinct state until it settles (199). */
async function sequence(
  id: string,
  body: unknown,
  session: Session = demo,
): Promise<{ status: number; seen: Seen[] }> {
  const steps = stepper(tc);
  const seen: Seen[] = [];
  const record = async () => {
    const s = await state(id);
    const last = seen.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(s)) seen.push(s);
  };
  try {
    await record();
    const res = await action(id, body, session);
    await record();
    for (let i = 0; i < 20 && steps.pending > 0; i++) {
      await steps.step();
      await record();
    }
    return { status: res.status, seen };
  } finally {
    await steps.drain();
  }
}

const brief = (seen: Seen[]) => seen.map((s) => `${s.status}/${s.task ?? '-'}`);

describe('stop, start, reboot', () => {
  it('os-stop: 202, ACTIVE/powering-off then SHUTOFF; again 409 (155, 156)', async () => {
    const { id } = await bfvServer();
    const { status, seen } = await sequence(id, { 'os-stop': null });
    expect(status).toBe(202);
    expect(brief(seen)).toEqual(['ACTIVE/-', 'ACTIVE/powering-off', 'SHUTOFF/-']);
    expect(seen.at(-1)).toMatchObject({ vm: 'stopped', power: 4 });
    const again = await action(id, { 'os-stop': null });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: fault(409, `Cannot 'stop' instance ${id} while it is in vm_state stopped`),
    });
  });

  it('os-start: SHUTOFF/powering-on then ACTIVE; again 409 (157, 158)', async () => {
    const { id } = await bfvServer();
    await action(id, { 'os-stop': null });
    await tc.settle();
    const { status, seen } = await sequence(id, { 'os-start': null });
    expect(status).toBe(202);
    expect(brief(seen)).toEqual(['SHUTOFF/-', 'SHUTOFF/powering-on', 'ACTIVE/-']);
    expect((await action(id, { 'os-start': null })).body).toEqual(
      fault(409, `Cannot 'start' instance ${id} while it is in vm_state active`),
    );
  });

  it('reboot SOFT and HARD (159, 160); a bad type is a schema error (161)', async () => {
    const { id } = await bfvServer();
    expect(brief((await sequence(id, { reboot: { type: 'SOFT' } })).seen)).toEqual([
      'ACTIVE/-',
      'REBOOT/rebooting',
      'ACTIVE/-',
    ]);
    expect(brief((await sequence(id, { reboot: { type: 'hard' } })).seen)).toEqual([
      'ACTIVE/-',
      'HARD_REBOOT/rebooting_hard',
      'ACTIVE/-',
    ]);
    expect((await action(id, { reboot: { type: 'MEDIUM' } })).body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute type. Value: MEDIUM. 'MEDIUM' is not one of ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft']",
      ),
    );
    expect((await action(id, { reboot: {} })).body).toEqual(
      fault(400, "Invalid input for field/attribute reboot. Value: {}. 'type' is a required property"),
    );
  });

  it('a stopped server takes a hard reboot but not a soft one', async () => {
    const { id } = await bfvServer();
    await action(id, { 'os-stop': null });
    await tc.settle();
    expect((await action(id, { reboot: { type: 'SOFT' } })).body).toEqual(
      fault(409, `Cannot 'reboot' instance ${id} while it is in vm_state stopped`),
    );
    expect((await action(id, { reboot: { type: 'HARD' } })).status).toBe(202);
    await tc.settle();
    expect(await state(id)).toMatchObject({ status: 'ACTIVE', power: 1 });
  });

  it('a task in progress blocks another action with the task_state message', async () => {
    const { id } = await bfvServer();
    const steps = stepper(tc);
    try {
      expect((await action(id, { 'os-stop': null })).status).toBe(202);
      expect((await action(id, { reboot: { type: 'SOFT' } })).body).toEqual(
        fault(409, `Cannot 'reboot' instance ${id} while it is in task_state powering-off`),
      );
      expect((await action(id, { 'os-stop': null })).body).toEqual(
        fault(409, `Cannot 'stop' instance ${id} while it is in task_state powering-off`),
      );
    } finally {
      await steps.drain();
    }
  });
});

describe('shelve, shelveOffload, unshelve', () => {
  it('a volume-backed server goes straight to SHELVED_OFFLOADED; its volume shows reserved (162-165)', async () => {
    const { id, volume } = await bfvServer();
    const { status, seen } = await sequence(id, { shelve: null });
    expect(status).toBe(202);
    expect(brief(seen)).toEqual(['ACTIVE/-', 'ACTIVE/shelving', 'SHELVED_OFFLOADED/-']);
    expect(seen.at(-1)).toMatchObject({ vm: 'shelved_offloaded', power: 4, host: null });
    const show = (await nova('GET', `/servers/${id}`)).body.server;
    expect(show).toMatchObject({ hostId: '', 'OS-EXT-AZ:availability_zone': '' });
    expect(show).not.toHaveProperty('progress');
    expect(await volumeRow(tc, volume)).toMatchObject({ status: 'reserved' });
    const atts = await attachmentRows(tc, volume);
    expect(atts).toHaveLength(1);
    expect(atts[0]).toMatchObject({ attach_status: 'reserved', instance_uuid: id, connector: null });
  });

  it('shelve again and shelveOffload: 409s, and shelveOffload is admin-only (166-168)', async () => {
    const { id } = await bfvServer();
    await action(id, { shelve: null });
    await tc.settle();
    expect((await action(id, { shelve: null })).body).toEqual(
      fault(409, `Cannot 'shelve' instance ${id} while it is in vm_state shelved_offloaded`),
    );
    expect((await action(id, { shelveOffload: null })).body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-shelve:shelve_offload to be performed."),
    );
    expect((await action(id, { shelveOffload: null }, admin)).body).toEqual(
      fault(409, `Cannot 'shelveOffload' instance ${id} while it is in vm_state shelved_offloaded`),
    );
  });

  it('unshelve: spawning on a new host, volumes connected again (176-178)', async () => {
    const { id, volume } = await bfvServer();
    await action(id, { shelve: null });
    await tc.settle();
    const { status, seen } = await sequence(id, { unshelve: null });
    expect(status).toBe(202);
    expect(brief(seen)).toEqual([
      'SHELVED_OFFLOADED/-',
      'SHELVED_OFFLOADED/unshelving',
      'SHELVED_OFFLOADED/spawning',
      'ACTIVE/-',
    ]);
    expect(seen.at(-1)?.host).toMatch(/^compute-/);
    expect(await volumeRow(tc, volume)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const [att] = await attachmentRows(tc, volume);
    expect(att).toMatchObject({
      attach_status: 'attached',
      attach_mode: 'rw',
      attached_host: seen.at(-1)?.host,
    });
    expect((await action(id, { unshelve: null })).body).toEqual(
      fault(409, `Cannot 'unshelve' instance ${id} while it is in vm_state active`),
    );
  });

  it('unshelve with no host available leaves the server SHELVED_OFFLOADED', async () => {
    const { id } = await bfvServer();
    await action(id, { shelve: null });
    await tc.settle();
    await onlyHosts(tc, []);
    expect((await action(id, { unshelve: null })).status).toBe(202);
    await tc.settle();
    expect(await state(id)).toMatchObject({ status: 'SHELVED_OFFLOADED', task: null, host: null });
  });

  it('unshelve to a zone (2.77)', async () => {
    const { id } = await bfvServer();
    await action(id, { shelve: null });
    await tc.settle();
    expect((await action(id, { unshelve: { availability_zone: 'nowhere' } }, demo, '2.77')).body).toEqual(
      fault(400, 'The requested availability zone is not available'),
    );
    expect((await action(id, { unshelve: { availability_zone: 'az2' } }, demo, '2.77')).status).toBe(202);
    await tc.settle();
    expect((await serverRow(tc, id))?.host).toBe('compute-3');
  });

  it('an image-backed server passes SHELVED before it is offloaded; shelveOffload from SHELVED', async () => {
    const res = await nova('POST', '/servers', {
      body: { server: { name: 'img', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID } },
    });
    const id = res.body.server.id as string;
    await tc.settle();
    const { seen } = await sequence(id, { shelve: null });
    expect(brief(seen)).toEqual([
      'ACTIVE/-',
      'ACTIVE/shelving',
      'SHELVED/shelving_offloading',
      'SHELVED_OFFLOADED/-',
    ]);
    // An operator's shelved_offload_time would leave it SHELVED: offloading it is an admin action.
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ vm_state: 'shelved', task_state: null, host: 'compute-1', node: 'compute-1' })
      .where('id', '=', id)
      .execute();
    const off = await sequence(id, { shelveOffload: null }, admin);
    expect(off.status).toBe(202);
    expect(brief(off.seen)).toEqual(['SHELVED/-', 'SHELVED/shelving_offloading', 'SHELVED_OFFLOADED/-']);
  });
});

describe('resize, confirmResize, revertResize', () => {
  it('the same flavor is refused (182); confirm or revert without a resize is 409 (181)', async () => {
    const { id } = await bfvServer();
    expect((await action(id, { resize: { flavorRef: '1' } })).body).toEqual(
      fault(400, 'When resizing, instances must change flavor!'),
    );
    expect((await action(id, { resize: { flavorRef: '999' } })).body).toEqual(
      fault(400, 'Flavor 999 could not be found.'),
    );
    expect((await action(id, { confirmResize: null })).body).toEqual(
      fault(409, `Cannot 'confirmResize' instance ${id} while it is in vm_state active`),
    );
    expect((await action(id, { revertResize: null })).body).toEqual(
      fault(409, `Cannot 'revertResize' instance ${id} while it is in vm_state active`),
    );
  });

  it('resize to another host: RESIZE steps, a new attachment, VERIFY_RESIZE; confirm 204 (188-194)', async () => {
    const { id, volume } = await bfvServer();
    const before = (await serverRow(tc, id))!;
    const oldAttachment = (await attachmentRows(tc, volume))[0]!.id;
    const { status, seen } = await sequence(id, { resize: { flavorRef: '2' } });
    expect(status).toBe(202);
    expect(brief(seen)).toEqual([
      'ACTIVE/-',
      'RESIZE/resize_prep',
      'RESIZE/resize_migrating',
      'RESIZE/resize_migrated',
      'RESIZE/resize_finish',
      'VERIFY_RESIZE/-',
    ]);
    const after = (await serverRow(tc, id))!;
    expect(after.host).not.toBe(before.host);
    const show = (await nova('GET', `/servers/${id}`)).body.server;
    expect(show).toMatchObject({
      status: 'VERIFY_RESIZE',
      progress: 0,
      flavor: { original_name: 'm1.small' },
    });
    const atts = await attachmentRows(tc, volume);
    expect(atts).toHaveLength(1);
    expect(atts[0]!.id).not.toBe(oldAttachment);
    expect(atts[0]).toMatchObject({ attach_status: 'attached', attached_host: after.host });
    const confirm = await sequence(id, { confirmResize: null });
    expect(confirm.status).toBe(204);
    expect(brief(confirm.seen)).toEqual(['VERIFY_RESIZE/-', 'ACTIVE/-']);
    expect(await serverRow(tc, id)).toMatchObject({ host: after.host, flavor_id: '2', old_flavor: null });
    expect((await action(id, { confirmResize: null })).status).toBe(409);
  });

  it('no other host: RESIZE then back to ACTIVE with the old flavor (183)', async () => {
    const { id } = await bfvServer();
    const host = (await serverRow(tc, id))!.host!;
    await onlyHosts(tc, [host]);
    const { seen } = await sequence(id, { resize: { flavorRef: '2' } });
    expect(brief(seen)).toEqual(['ACTIVE/-', 'RESIZE/resize_prep', 'ACTIVE/-']);
    expect(await serverRow(tc, id)).toMatchObject({ host, flavor_id: '1', old_flavor: null });
  });

  it('revertResize: REVERT_RESIZE, then ACTIVE on the old host with the old flavor', async () => {
    const { id, volume } = await bfvServer();
    const host = (await serverRow(tc, id))!.host;
    await action(id, { resize: { flavorRef: '2' } });
    await tc.settle();
    const { status, seen } = await sequence(id, { revertResize: null });
    expect(status).toBe(202);
    expect(brief(seen)).toEqual(['VERIFY_RESIZE/-', 'REVERT_RESIZE/resize_reverting', 'ACTIVE/-']);
    expect(await serverRow(tc, id)).toMatchObject({
      host,
      flavor_id: '1',
      old_flavor: null,
      vm_state: 'active',
    });
    const [att] = await attachmentRows(tc, volume);
    expect(att).toMatchObject({ attach_status: 'attached', attached_host: host });
  });

  it('a stopped server resizes and returns to SHUTOFF on confirm', async () => {
    const { id } = await bfvServer();
    await action(id, { 'os-stop': null });
    await tc.settle();
    await action(id, { resize: { flavorRef: '2' } });
    await tc.settle();
    expect(await state(id)).toMatchObject({ status: 'VERIFY_RESIZE', power: 4 });
    await action(id, { confirmResize: null });
    await tc.settle();
    expect(await state(id)).toMatchObject({ status: 'SHUTOFF', vm: 'stopped' });
  });
});

describe('concurrency', () => {
  it('two requests racing for one server: one wins, the other sees its task (row lock)', async () => {
    const { id } = await bfvServer();
    const steps = stepper(tc);
    try {
      const results = await Promise.all([action(id, { 'os-stop': null }), action(id, { shelve: null })]);
      expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
      const loser = results.find((r) => r.status === 409)!;
      expect(loser.body.conflictingRequest.message).toMatch(
        /while it is in task_state (powering-off|shelving)$/,
      );
      const [stop, del] = await Promise.all([
        action(id, { 'os-stop': null }),
        nova('DELETE', `/servers/${id}`),
      ]);
      expect(stop.status).toBe(409);
      expect(del.status).toBe(204);
    } finally {
      await steps.drain();
    }
    expect((await nova('GET', `/servers/${id}`)).status).toBe(404);
  });
});

describe('the action request itself', () => {
  it('an unknown action, several keys, no body', async () => {
    const { id } = await bfvServer();
    expect((await action(id, { 'os-fly': null })).body).toEqual(
      fault(400, 'There is no such action: os-fly'),
    );
    expect((await action(id, { 'os-stop': null, 'os-start': null })).body).toEqual(
      fault(400, 'Malformed request body'),
    );
    expect((await nova('POST', `/servers/${id}/action`)).body).toEqual(fault(400, 'Malformed request body'));
  });

  it('unknown and foreign servers are 404; a locked server is 409 for members; an unplaced one is not ready', async () => {
    const unknown = 'c99ffad6-4b83-43f3-a071-0f23f3c4212a';
    expect((await action(unknown, { 'os-stop': null })).body).toEqual(
      fault(404, `Instance ${unknown} could not be found.`),
    );
    const theirs = (
      await nova('POST', '/servers', {
        session: admin,
        body: { server: { name: 't', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID } },
      })
    ).body.server.id;
    await tc.settle();
    expect((await action(theirs, { 'os-stop': null })).status).toBe(404);
    expect((await action(theirs, { shelveOffload: null })).status).toBe(404);
    const { id } = await bfvServer();
    await tc.cloud.deps.store.db.updateTable('servers').set({ locked: 1 }).where('id', '=', id).execute();
    expect((await action(id, { 'os-stop': null })).body).toEqual(fault(409, `Instance ${id} is locked`));
    expect((await action(id, { 'os-stop': null }, admin)).status).toBe(202);
    await tc.settle();
    await onlyHosts(tc, []);
    const failed = (
      await nova('POST', '/servers', {
        body: { server: { name: 'e', flavorRef: '1', networks: 'none', imageRef: SEED_IMAGE_ID } },
      })
    ).body.server.id;
    await tc.settle();
    expect((await action(failed, { 'os-stop': null })).body).toEqual(
      fault(409, `Instance ${failed} is not ready`),
    );
    expect((await action(failed, { reboot: { type: 'HARD' } })).body).toEqual(
      fault(409, `Instance ${failed} is in an invalid state for 'reboot'`),
    );
  });
});
