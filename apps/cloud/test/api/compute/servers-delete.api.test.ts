import { beforeEach, describe, expect } from 'vitest';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';
import { allHostsEnabled, bfvBody, fault, novaClient, serverRow, stepper } from './servers-fixtures.js';

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

async function boot(
  volumeId: string,
  extra: Record<string, unknown> = {},
  bdm: Record<string, unknown> = {},
) {
  const res = await nova('POST', '/servers', { body: bfvBody(volumeId, extra, bdm) });
  expect(res.status).toBe(202);
  await tc.settle();
  return res.body.server.id as string;
}

const volumeExists = async (id: string) =>
  (await tc.cloud.deps.store.db.selectFrom('volumes').select('id').where('id', '=', id).execute()).length > 0;

describe('DELETE /servers/{id}', () => {
  it('204; the volume is detached before the server is gone (195-197)', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = await boot(vol);
    const res = await nova('DELETE', `/servers/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await tc.settle();
    expect(await nova('GET', `/servers/${id}`)).toMatchObject({
      status: 404,
      body: fault(404, `Instance ${id} could not be found.`),
    });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });

  it('passes through deleting and DELETED before 404, the volume already released (199, 299)', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = await boot(vol);
    const steps = stepper(tc);
    try {
      expect((await nova('DELETE', `/servers/${id}`)).status).toBe(204);
      let show = await nova('GET', `/servers/${id}`);
      expect(show.body.server).toMatchObject({ status: 'ACTIVE', 'OS-EXT-STS:task_state': 'deleting' });
      expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use' });
      await steps.step();
      show = await nova('GET', `/servers/${id}`);
      expect(show.body.server).toMatchObject({
        status: 'DELETED',
        'OS-EXT-STS:vm_state': 'deleted',
        'OS-EXT-STS:task_state': null,
        'OS-EXT-STS:power_state': 0,
        'os-extended-volumes:volumes_attached': [],
      });
      expect(show.body.server['OS-SRV-USG:terminated_at']).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000$/,
      );
      expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available' });
      await steps.step();
      expect((await nova('GET', `/servers/${id}`)).status).toBe(404);
    } finally {
      await steps.drain();
    }
  });

  it('honours delete_on_termination', async () => {
    const keep = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const drop = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const a = await boot(keep, {}, { delete_on_termination: false });
    const b = await boot(drop, {}, { delete_on_termination: true });
    await nova('DELETE', `/servers/${a}`);
    await nova('DELETE', `/servers/${b}`);
    await tc.settle();
    expect(await volumeExists(keep)).toBe(true);
    expect(await volumeExists(drop)).toBe(false);
  });

  it('a shared multiattach volume stays in-use for the other server (293-298)', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true, multiattach: true });
    const one = await boot(vol, {}, { delete_on_termination: true });
    const two = await boot(vol, {}, { delete_on_termination: true });
    expect(await attachmentRows(tc, vol)).toHaveLength(2);
    await nova('DELETE', `/servers/${two}`);
    await tc.settle();
    expect(await volumeExists(vol)).toBe(true);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const left = await attachmentRows(tc, vol);
    expect(left.map((a) => a.instance_uuid)).toEqual([one]);
    const show = await nova('GET', `/servers/${one}`);
    expect(show.body.server['os-extended-volumes:volumes_attached']).toEqual([
      { id: vol, delete_on_termination: true },
    ]);
  });

  it('a server still building is deleted cleanly, its reservation dropped', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const steps = stepper(tc);
    try {
      const res = await nova('POST', '/servers', { body: bfvBody(vol) });
      const id = res.body.server.id as string;
      expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved' });
      expect((await nova('DELETE', `/servers/${id}`)).status).toBe(204);
      await steps.drain();
      expect((await nova('GET', `/servers/${id}`)).status).toBe(404);
      expect(await attachmentRows(tc, vol)).toEqual([]);
      expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available' });
    } finally {
      await steps.drain();
    }
  });

  it("another project's server is not found; a locked server is refused to members", async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = await boot(vol);
    const other = await createVolume(tc, { projectId: admin.projectId, bootable: true });
    const res = await nova('POST', '/servers', { body: bfvBody(other), session: admin });
    const theirs = res.body.server.id as string;
    expect(await nova('DELETE', `/servers/${theirs}`)).toMatchObject({
      status: 404,
      body: fault(404, `Instance ${theirs} could not be found.`),
    });
    await tc.cloud.deps.store.db.updateTable('servers').set({ locked: 1 }).where('id', '=', id).execute();
    expect(await nova('DELETE', `/servers/${id}`)).toMatchObject({
      status: 409,
      body: fault(409, `Instance ${id} is locked`),
    });
    expect((await nova('DELETE', `/servers/${id}`, { session: admin })).status).toBe(204);
    await tc.settle();
    expect(await serverRow(tc, id)).toMatchObject({ deleted: 1, vm_state: 'deleted' });
  });

  it('deleting twice is fine while the first delete runs; an unknown id is 404', async () => {
    const vol = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const id = await boot(vol);
    const steps = stepper(tc);
    try {
      expect((await nova('DELETE', `/servers/${id}`)).status).toBe(204);
      expect((await nova('DELETE', `/servers/${id}`)).status).toBe(204);
    } finally {
      await steps.drain();
    }
    const unknown = 'c99ffad6-4b83-43f3-a071-0f23f3c4212a';
    expect((await nova('DELETE', `/servers/${unknown}`)).body).toEqual(
      fault(404, `Instance ${unknown} could not be found.`),
    );
  });
});
