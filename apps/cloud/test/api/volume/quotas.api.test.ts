import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

/** Cinder limits, quota sets and quota classes, enforced at volume create and extend. */

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest({}, { realQuotas: true });
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const cinder = (method: string, path: string, body?: unknown, session: Session = demo) =>
  http(tc, method, `${session.volumeBase}${path}`, {
    token: session.token,
    version: 'volume 3.60',
    ...(body !== undefined ? { body } : {}),
  });
const setQuota = (quota_set: Record<string, unknown>) =>
  cinder('PUT', `/os-quota-sets/${demo.projectId}`, { quota_set }, admin);

describe('volume quota sets', () => {
  it('shows the defaults, one set of limits per volume type, and usage on request', async () => {
    const res = await cinder('GET', `/os-quota-sets/${demo.projectId}`);
    expect(res.status).toBe(200);
    expect(res.body.quota_set).toMatchObject({
      id: demo.projectId,
      volumes: 10,
      gigabytes: 1000,
      snapshots: 10,
      backups: 10,
      backup_gigabytes: 1000,
      per_volume_gigabytes: -1,
      groups: 10,
      volumes_multiattach: -1,
      gigabytes___DEFAULT__: -1,
    });
    await cinder('POST', '/volumes', { volume: { size: 2 } });
    const usage = await cinder('GET', `/os-quota-sets/${demo.projectId}?usage=True`);
    expect(usage.body.quota_set.volumes).toEqual({ limit: 10, in_use: 1, reserved: 0 });
    expect(usage.body.quota_set.gigabytes).toEqual({ limit: 1000, in_use: 2, reserved: 0 });
    const defaults = await cinder('GET', `/os-quota-sets/${demo.projectId}/defaults`);
    expect(defaults.body.quota_set.volumes).toBe(10);
  });

  it('lets only an admin update, refuses bad keys and limits under usage, and deletes to defaults', async () => {
    const member = await cinder('PUT', `/os-quota-sets/${demo.projectId}`, { quota_set: { volumes: 5 } });
    expect(member.status).toBe(403);
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow volume_extension:quotas:update to be performed.",
    );
    const bad = await setQuota({ volumez: 5 });
    expect(bad.body).toEqual({
      badRequest: { code: 400, message: 'Invalid input received: Bad key(s) in quota set: volumez' },
    });
    // Cinder checks a new limit against usage it never reads: a limit under usage is taken (capture 568).
    const under = await setQuota({ gigabytes: 1 });
    expect(under.status).toBe(200);
    const notInt = await cinder(
      'PUT',
      '/os-quota-class-sets/default',
      { quota_class_set: { backups: { x: 1 } } },
      admin,
    );
    expect(notInt.status).toBe(400);
    expect(notInt.body.badRequest.message).toBe('backups must be an integer');
    const ok = await setQuota({ snapshots: 7 });
    expect(ok.status).toBe(200);
    expect(ok.body.quota_set.snapshots).toBe(7);
    expect(ok.body.quota_set.id).toBeUndefined();
    const del = await cinder('DELETE', `/os-quota-sets/${demo.projectId}`, undefined, admin);
    expect(del.status).toBe(200);
    const back = await cinder('GET', `/os-quota-sets/${demo.projectId}`);
    expect(back.body.quota_set.snapshots).toBe(10);
  });

  it('refuses a create or extend over quota with Cinder’s 413s', async () => {
    const used = (await cinder('GET', `/os-quota-sets/${demo.projectId}?usage=true`)).body.quota_set;
    await setQuota({ gigabytes: used.gigabytes.in_use + 3 });
    const big = await cinder('POST', '/volumes', { volume: { size: 5 } });
    expect(big.status).toBe(413);
    expect(big.headers.get('retry-after')).toBe('0');
    expect(big.body).toEqual({
      overLimit: {
        code: 413,
        message: `VolumeSizeExceedsAvailableQuota: Requested volume or snapshot exceeds allowed gigabytes quota. Requested 5G, quota is ${used.gigabytes.in_use + 3}G and ${used.gigabytes.in_use}G has been consumed.`,
        retryAfter: '0',
      },
    });
    const v = await cinder('POST', '/volumes', { volume: { size: 1 } });
    expect(v.status).toBe(202);
    await tc.settle();
    const ext = await cinder('POST', `/volumes/${v.body.volume.id}/action`, { 'os-extend': { new_size: 4 } });
    expect(ext.status).toBe(413);
    expect(ext.body.overLimit.message).toMatch(
      /^VolumeSizeExceedsAvailableQuota: Requested volume or snapshot exceeds allowed gigabytes quota\. Requested 3G/,
    );
    await setQuota({ gigabytes: 1000, volumes: used.volumes.in_use + 1 });
    const count = await cinder('POST', '/volumes', { volume: { size: 1 } });
    expect(count.body.overLimit.message).toBe(
      `VolumeLimitExceeded: Maximum number of volumes allowed (${used.volumes.in_use + 1}) exceeded for quota 'volumes'.`,
    );
    await setQuota({ volumes: 10, per_volume_gigabytes: 2 });
    const per = await cinder('POST', '/volumes', { volume: { size: 3 } });
    expect(per.body.overLimit.message).toBe(
      'VolumeSizeExceedsLimit: Requested volume size 3G is larger than maximum allowed limit 2G.',
    );
    await cinder('DELETE', `/os-quota-sets/${demo.projectId}`, undefined, admin);
  });
});

describe('volume limits and quota classes', () => {
  it('shows absolute limits with usage', async () => {
    const res = await cinder('GET', '/limits');
    expect(res.status).toBe(200);
    expect(res.body.limits.rate).toEqual([]);
    expect(res.body.limits.absolute).toMatchObject({
      maxTotalVolumes: 10,
      maxTotalVolumeGigabytes: 1000,
      maxTotalSnapshots: 10,
      maxTotalBackups: 10,
      maxTotalBackupGigabytes: 1000,
      totalSnapshotsUsed: 0,
      totalBackupsUsed: 0,
      totalBackupGigabytesUsed: 0,
    });
    expect(res.body.limits.absolute.totalVolumesUsed).toBeGreaterThan(0);
  });

  it('shows and updates the default class as an admin only', async () => {
    const member = await cinder('GET', '/os-quota-class-sets/default');
    expect(member.status).toBe(403);
    const res = await cinder(
      'PUT',
      '/os-quota-class-sets/default',
      { quota_class_set: { backups: 12 } },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.quota_class_set.backups).toBe(12);
    const shown = await cinder('GET', '/os-quota-class-sets/default', undefined, admin);
    expect(shown.body.quota_class_set).toMatchObject({ id: 'default', backups: 12 });
    const defaults = await cinder('GET', `/os-quota-sets/${demo.projectId}/defaults`);
    expect(defaults.body.quota_set.backups).toBe(12);
    await cinder('PUT', '/os-quota-class-sets/default', { quota_class_set: { backups: 10 } }, admin);
  });
});

// --- cloud14v: snapshots count against quota ---
describe('volume snapshot quotas', () => {
  it('counts snapshots and their gigabytes, and refuses a snapshot over quota with Cinder’s 413s', async () => {
    const before = (await cinder('GET', `/os-quota-sets/${demo.projectId}?usage=true`)).body.quota_set;
    const v = await cinder('POST', '/volumes', { volume: { size: 2 } });
    expect(v.status).toBe(202);
    await tc.settle();
    const snap = await cinder('POST', '/snapshots', { snapshot: { volume_id: v.body.volume.id } });
    expect(snap.status).toBe(202);
    await tc.settle();
    const after = (await cinder('GET', `/os-quota-sets/${demo.projectId}?usage=true`)).body.quota_set;
    expect(after.snapshots.in_use).toBe(before.snapshots.in_use + 1);
    // The volume's 2G and its snapshot's 2G (`no_snapshot_gb_quota` is off).
    expect(after.gigabytes.in_use).toBe(before.gigabytes.in_use + 4);
    const limits = (await cinder('GET', '/limits')).body.limits.absolute;
    expect(limits.totalSnapshotsUsed).toBe(after.snapshots.in_use);

    await setQuota({ snapshots: after.snapshots.in_use });
    const count = await cinder('POST', '/snapshots', { snapshot: { volume_id: v.body.volume.id } });
    expect(count.status).toBe(413);
    expect(count.headers.get('retry-after')).toBe('0');
    expect(count.body).toEqual({
      overLimit: {
        code: 413,
        message: `SnapshotLimitExceeded: Maximum number of snapshots allowed (${after.snapshots.in_use}) exceeded`,
        retryAfter: '0',
      },
    });
    await setQuota({ snapshots: 100, gigabytes: after.gigabytes.in_use + 1 });
    const size = await cinder('POST', '/snapshots', { snapshot: { volume_id: v.body.volume.id } });
    expect(size.status).toBe(413);
    expect(size.body.overLimit.message).toBe(
      `VolumeSizeExceedsAvailableQuota: Requested volume or snapshot exceeds allowed gigabytes quota. Requested 2G, quota is ${after.gigabytes.in_use + 1}G and ${after.gigabytes.in_use}G has been consumed.`,
    );
    await cinder('DELETE', `/os-quota-sets/${demo.projectId}`, undefined, admin);
  });
});
