import { describe, expect } from 'vitest';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

/**
 * QoS specs and volume transfers under simultaneous requests, and transfers' rules beyond the captures: only an available volume moves, the accepting
 * project's quota is checked first (nothing changes when it refuses), snapshots move with the
 * volume unless `no_snapshots`, and the new API is not there below 3.55.
 */
let tc: TestCloud;
let adminSession: Session;
let demoSession: Session;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin }) => {
  tc = cloud;
  adminSession = admin;
  demoSession = demo;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, admin);
});

async function offer(volumeId: string, extra: Record<string, unknown> = {}) {
  const res = await d.call('POST', '/volume-transfers', {
    version: '3.57',
    body: { transfer: { volume_id: volumeId, ...extra } },
  });
  expect(res.status, res.text).toBe(202);
  return res.body.transfer as { id: string; auth_key: string };
}

describe('volume transfers', () => {
  it('refuses an attached volume and hides volume-transfers below 3.55', async () => {
    const id = await d.createVolume();
    await d.attach(id);
    const res = await d.call('POST', '/os-volume-transfer', { body: { transfer: { volume_id: id } } });
    expect(res.body).toEqual(fault(400, 'Invalid volume: status must be available'));
    const old = await d.call('GET', '/volume-transfers', { version: '3.54' });
    expect(old.status).toBe(404);
  });

  it('checks the accepting project’s quota before anything moves', async () => {
    const id = await d.createVolume();
    const t = await offer(id);
    const quotas = `/os-quota-sets/${adminSession.projectId}`;
    const before = (await a.call('GET', quotas)).body.quota_set.volumes as number;
    expect((await a.call('PUT', quotas, { body: { quota_set: { volumes: 0 } } })).status).toBe(200);
    try {
      const refused = await a.call('POST', `/volume-transfers/${t.id}/accept`, {
        version: '3.57',
        body: { accept: { auth_key: t.auth_key } },
      });
      expect(refused.status).toBe(413);
      expect((await d.show(id)).status).toBe('awaiting-transfer');
      expect((await d.call('GET', `/volume-transfers/${t.id}`, { version: '3.57' })).status).toBe(200);
    } finally {
      await a.call('PUT', quotas, { body: { quota_set: { volumes: before } } });
    }
  });

  it('moves the snapshots with the volume unless no_snapshots', async () => {
    for (const noSnapshots of [false, true]) {
      const id = await d.createVolume();
      const snap = await d.call('POST', '/snapshots', { body: { snapshot: { volume_id: id } } });
      expect(snap.status, snap.text).toBe(202);
      await tc.settle();
      const t = await offer(id, { no_snapshots: noSnapshots });
      const accepted = await a.call('POST', `/volume-transfers/${t.id}/accept`, {
        version: '3.57',
        body: { accept: { auth_key: t.auth_key } },
      });
      expect(accepted.status, accepted.text).toBe(202);
      const snapshotId = snap.body.snapshot.id as string;
      const asAdmin = await a.call('GET', `/snapshots/${snapshotId}`);
      expect(asAdmin.body.snapshot['os-extended-snapshot-attributes:project_id']).toBe(
        noSnapshots ? demoSession.projectId : adminSession.projectId,
      );
    }
  });

  it('counts the snapshots that move in the accepting project, after the volume (asked of Cinder 21)', async () => {
    const id = await d.createVolume();
    const snap = await d.call('POST', '/snapshots', { body: { snapshot: { volume_id: id } } });
    expect(snap.status, snap.text).toBe(202);
    await tc.settle();
    const size = (await d.show(id)).size as number;
    const quotas = `/os-quota-sets/${adminSession.projectId}`;
    const now = (await a.call('GET', `${quotas}?usage=True`)).body.quota_set;
    const before = { snapshots: now.snapshots.limit, gigabytes: now.gigabytes.limit };
    const accept = (t: { id: string; auth_key: string }) =>
      a.call('POST', `/volume-transfers/${t.id}/accept`, {
        version: '3.57',
        body: { accept: { auth_key: t.auth_key } },
      });
    try {
      // No room for one more snapshot.
      await a.call('PUT', quotas, { body: { quota_set: { snapshots: now.snapshots.in_use } } });
      const t = await offer(id);
      const full = await accept(t);
      expect(full.status).toBe(413);
      expect(full.body.overLimit.message).toBe(
        `SnapshotLimitExceeded: Maximum number of snapshots allowed (${now.snapshots.in_use}) exceeded`,
      );
      // Room for the volume's gigabytes, not for its snapshot's: "consumed" counts the volume.
      await a.call('PUT', quotas, {
        body: { quota_set: { snapshots: -1, gigabytes: now.gigabytes.in_use + size } },
      });
      const noRoom = await accept(t);
      expect(noRoom.status).toBe(413);
      expect(noRoom.body.overLimit.message).toBe(
        `Requested volume or snapshot exceeds allowed gigabytes quota. Requested ${size}G, quota is ${now.gigabytes.in_use + size}G and ${now.gigabytes.in_use + size}G has been consumed.`,
      );
      expect((await d.show(id)).status).toBe('awaiting-transfer');
      await d.call('DELETE', `/volume-transfers/${t.id}`, { version: '3.57' });
      // Without its snapshots the volume fits.
      const light = await offer(id, { no_snapshots: true });
      expect((await accept(light)).status).toBe(202);
    } finally {
      await a.call('PUT', quotas, { body: { quota_set: before } });
    }
  });

  it('refuses to delete a volume awaiting transfer; a forced delete takes the transfer with it', async () => {
    const id = await d.createVolume();
    const t = await offer(id);
    expect((await d.call('DELETE', `/volumes/${id}`)).status).toBe(400);
    const forced = await a.action(id, { 'os-force_delete': {} });
    expect(forced.status, forced.text).toBe(202);
    await tc.settle();
    expect((await d.call('GET', `/volume-transfers/${t.id}`, { version: '3.57' })).status).toBe(404);
  });

  it('lets one of two simultaneous accepts win; the other finds no transfer', async () => {
    const id = await d.createVolume();
    const t = await offer(id);
    const accept = () =>
      a.call('POST', `/volume-transfers/${t.id}/accept`, {
        version: '3.57',
        body: { accept: { auth_key: t.auth_key } },
      });
    const statuses = (await Promise.all([accept(), accept()])).map((r) => r.status).sort();
    expect(statuses).toEqual([202, 404]);
    expect((await a.show(id)).status).toBe('available');
  });
});

describe('QoS specs under simultaneous requests', () => {
  it('answers a simultaneous create of one name with one 200 and one 409, never a 500', async () => {
    const create = () => a.call('POST', '/qos-specs', { body: { qos_specs: { name: 'race-qos' } } });
    const statuses = (await Promise.all([create(), create()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
  });

  it('lets two sets race to associate one type: one wins, the other gets Cinder’s 400', async () => {
    const make = async (name: string) =>
      (await a.call('POST', '/qos-specs', { body: { qos_specs: { name } } })).body.qos_specs.id as string;
    const [q1, q2] = [await make('race-a'), await make('race-b')];
    const type = await a.call('POST', '/types', { body: { volume_type: { name: 'race-type' } } });
    const typeId = type.body.volume_type.id as string;
    const results = await Promise.all(
      [q1, q2].map((q) => a.call('GET', `/qos-specs/${q}/associate?vol_type_id=${typeId}`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([202, 400]);
  });
});
