import { http } from '../../cloud/test/helpers/cloud.js';
import { describe, expect, it, test } from './helpers/fixtures.js';

test.beforeAll(async ({ inv }) => {
  await inv.modernHostsOnly();
});

describe('snapshots', () => {
  it('takes a snapshot of an available volume, lists it on the volume and in the project, and deletes it', async ({
    stack,
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'snap-source', { size: 2 });
    const res = await demo.post(`/api/volumes/${vol}/snapshots`, {
      name: ' nightly ',
      description: 'before upgrade',
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      name: 'nightly',
      description: 'before upgrade',
      volumeId: vol,
      volumeName: 'snap-source',
      sizeGb: 2,
    });
    const id = res.body.id as string;
    await stack.cloud.settle();

    const ofVolume = await demo.get(`/api/volumes/${vol}/snapshots`);
    expect(ofVolume.status).toBe(200);
    expect(ofVolume.body.snapshots).toEqual([expect.objectContaining({ id, status: 'available' })]);
    const ofProject = await demo.get('/api/snapshots');
    expect(ofProject.body.snapshots).toContainEqual(
      expect.objectContaining({ id, volumeName: 'snap-source', status: 'available' }),
    );

    const del = await demo.delete(`/api/snapshots/${id}`);
    expect(del.status).toBe(202);
    expect(del.body).toEqual({ accepted: true });
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${vol}/snapshots`)).body.snapshots).toEqual([]);
  });

  it('refuses an in-use volume without force, saying why, and takes it with force', async ({
    stack,
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'snap-held');
    const server = await inv.server('demo', 'snap-holder');
    await inv.attach('demo', server, vol, 'rw');
    const refused = await demo.post(`/api/volumes/${vol}/snapshots`, { name: 'hot' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('snapshot_refused');
    expect(refused.body.error.message).toMatch(/attached to a server/);
    expect(refused.body.error.details.fields).toHaveProperty('force');
    expect((await demo.get(`/api/volumes/${vol}/snapshots`)).body.snapshots).toEqual([]);

    const forced = await demo.post(`/api/volumes/${vol}/snapshots`, { name: 'hot', force: true });
    expect(forced.status, forced.text).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${vol}/snapshots`)).body.snapshots).toEqual([
      expect.objectContaining({ name: 'hot', status: 'available' }),
    ]);
  });

  it("passes the cloud's refusal on with its words (a snapshot in error cannot make a volume)", async ({
    stack,
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'snap-broken');
    const snap = await demo.post(`/api/volumes/${vol}/snapshots`, { name: 'broken' });
    await stack.cloud.settle();
    const admin = await inv.as('admin');
    const reset = await http(stack.cloud, 'POST', `${admin.volumeBase}/snapshots/${snap.body.id}/action`, {
      token: admin.token,
      body: { 'os-reset_status': { status: 'error' } },
    });
    expect(reset.status, reset.text).toBe(202);
    const res = await demo.post(`/api/snapshots/${snap.body.id}/volumes`, { name: 'from-broken' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'snapshot_refused',
      message: 'Invalid snapshot: Originating snapshot status must be one of available values',
      details: { service: 'block-storage', status: 400 },
    });
  });

  it("makes a volume from a snapshot at the snapshot's size, or larger, never smaller", async ({
    stack,
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'snap-origin', { size: 2 });
    const snap = await demo.post(`/api/volumes/${vol}/snapshots`, { name: 'base' });
    await stack.cloud.settle();
    const made = await demo.post(`/api/snapshots/${snap.body.id}/volumes`, { name: 'restored' });
    expect(made.status, made.text).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${made.body.volumeId}`)).body).toMatchObject({
      name: 'restored',
      sizeGb: 2,
      status: 'available',
    });
    const larger = await demo.post(`/api/snapshots/${snap.body.id}/volumes`, { name: 'bigger', sizeGb: 3 });
    expect(larger.status).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${larger.body.volumeId}`)).body).toMatchObject({ sizeGb: 3 });

    // A shared (multiattach) copy of a plain volume's snapshot.
    const shared = await demo.post(`/api/snapshots/${snap.body.id}/volumes`, {
      name: 'shared-copy',
      type: 'multiattach',
    });
    expect(shared.status, shared.text).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${shared.body.volumeId}`)).body).toMatchObject({
      type: 'multiattach',
      shared: true,
      sizeGb: 2,
    });
    const unknownType = await demo.post(`/api/snapshots/${snap.body.id}/volumes`, {
      name: 'x',
      type: 'no-such-type',
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error.code).toBe('unknown_reference');

    const smaller = await demo.post(`/api/snapshots/${snap.body.id}/volumes`, { name: 'small', sizeGb: 1 });
    expect(smaller.status).toBe(400);
    expect(smaller.body.error.details.fields).toEqual({
      sizeGb: "Size must be at least the snapshot's 2 GB.",
    });
  });

  it("keeps another project's snapshots out of a member's lists; admins see them with all=1 only", async ({
    stack,
    inv,
    member: demo,
    operator: admin,
  }) => {
    const vol = await inv.volume('demo', 'snap-private');
    const snap = await demo.post(`/api/volumes/${vol}/snapshots`, { name: 'private' });
    await stack.cloud.settle();
    expect((await admin.get('/api/snapshots')).body.snapshots).not.toContainEqual(
      expect.objectContaining({ id: snap.body.id }),
    );
    expect((await admin.get('/api/snapshots?all=1')).body.snapshots).toContainEqual(
      expect.objectContaining({ id: snap.body.id, volumeName: 'snap-private' }),
    );
    expect((await admin.get(`/api/volumes/${vol}/snapshots`)).body.snapshots).toEqual([
      expect.objectContaining({ id: snap.body.id }),
    ]);
    expect((await demo.get('/api/snapshots?all=1')).status).toBe(403);
    const otherVol = await inv.volume('admin', 'admins-volume');
    expect((await demo.get(`/api/volumes/${otherVol}/snapshots`)).status).toBe(404);
    expect((await demo.delete('/api/snapshots/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
