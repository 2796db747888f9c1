import { beforeEach, describe, expect } from 'vitest';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import { allHostsEnabled, bfvBody, novaClient, serverRow, stepper } from './servers-fixtures.js';

/**
 * A process killed mid-way leaves servers in whatever state its last step wrote; on start,
 * `compute.reconcile` moves each of them on from that state. The stepper's `abandon` plays the
 * crash: the work it held is lost.
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

async function restart() {
  await tc.cloud.compute.reconcile();
  await tc.settle();
}

describe('compute.reconcile', () => {
  it('finishes a build caught at any step', async () => {
    for (let stepsBeforeCrash = 0; stepsBeforeCrash < 3; stepsBeforeCrash++) {
      const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
      const steps = stepper(tc);
      const id = (await nova('POST', '/servers', { body: bfvBody(vol) })).body.server.id as string;
      for (let i = 0; i < stepsBeforeCrash; i++) await steps.step();
      expect(await serverRow(tc, id)).toMatchObject({ vm_state: 'building' });
      steps.abandon();
      await restart();
      expect(await serverRow(tc, id)).toMatchObject({ vm_state: 'active', task_state: null, power_state: 1 });
      expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use' });
      expect(await attachmentRows(tc, vol)).toHaveLength(1);
    }
  });

  it('finishes a delete: volumes released, then the server is gone', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = (await nova('POST', '/servers', { body: bfvBody(vol) })).body.server.id as string;
    await tc.settle();
    const steps = stepper(tc);
    await nova('DELETE', `/servers/${id}`);
    steps.abandon();
    await restart();
    expect((await nova('GET', `/servers/${id}`)).status).toBe(404);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available' });
  });

  it('finishes a resize caught between hosts, and a confirm', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = (await nova('POST', '/servers', { body: bfvBody(vol) })).body.server.id as string;
    await tc.settle();
    const steps = stepper(tc);
    await nova('POST', `/servers/${id}/action`, { body: { resize: { flavorRef: '2' } } });
    await steps.step();
    await steps.step();
    expect(await serverRow(tc, id)).toMatchObject({ task_state: 'resize_migrated' });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved' });
    steps.abandon();
    await restart();
    expect(await serverRow(tc, id)).toMatchObject({ vm_state: 'resized', task_state: null, flavor_id: '2' });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use' });
    const again = stepper(tc);
    expect((await nova('POST', `/servers/${id}/action`, { body: { confirmResize: null } })).status).toBe(204);
    again.abandon();
    await restart();
    expect(await serverRow(tc, id)).toMatchObject({ vm_state: 'active', old_flavor: null });
  });

  it('a build forced onto a host is placed freely after a restart (the request lived in memory)', async () => {
    const vol = await createVolume(tc, { projectId: admin.projectId, bootable: true });
    const steps = stepper(tc);
    const res = await nova('POST', '/servers', {
      body: bfvBody(vol, { availability_zone: 'nova:compute-old' }),
      session: admin,
    });
    steps.abandon();
    await restart();
    const row = await serverRow(tc, res.body.server.id);
    expect(row).toMatchObject({ vm_state: 'active' });
    expect(row?.host).toMatch(/^compute-/);
  });

  it('leaves settled servers alone', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = (await nova('POST', '/servers', { body: bfvBody(vol) })).body.server.id as string;
    await tc.settle();
    const before = await serverRow(tc, id);
    await restart();
    expect(await serverRow(tc, id)).toEqual(before);
  });
});
