import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { attachmentRows } from '../../cloud/test/helpers/volume-fixtures.js';
import { cloudData } from './helpers/cloud-data.js';
import { launchBody, waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let demo: ApiClient;
let data: Awaited<ReturnType<typeof cloudData>>;

// BFF_LAUNCH_STRATEGY=serial: single creates and one attach at a time, though the cloud has 2.105.
beforeAll(async () => {
  stack = await startStack({ bff: { launchStrategy: 'serial' } });
  demo = await stack.signIn('demo');
  data = await cloudData(stack, 'demo');
});
afterAll(async () => {
  await stack.close();
});

async function volume(name: string, opts: { shared?: boolean; bootable?: boolean } = {}) {
  const res = await data.cinder('POST', '/volumes', {
    volume: {
      name,
      size: 1,
      ...(opts.shared === false ? {} : { volume_type: 'multiattach' }),
      ...(opts.bootable ? { imageRef: SEED_IMAGE_ID } : {}),
    },
  });
  await stack.cloud.settle();
  return res.body.volume.id as string;
}

describe('launch one server at a time (BFF_LAUNCH_STRATEGY=serial)', () => {
  it('boots 5 servers from one shared volume and attaches a second one read-only to each in turn', async () => {
    const root = await volume('root', { bootable: true });
    const shared = await volume('shared-data');
    const body = launchBody({
      name: 'db',
      count: 5,
      boot: { source: 'volume', volumeId: root },
      dataVolumes: [{ volumeId: shared, mode: 'ro' }],
    });
    const plan = await demo.post('/api/launches/plan', body);
    expect(plan.body).toMatchObject({ strategy: 'serial', ok: true });
    expect(plan.body.strategyReason).toMatch(/dashboard configuration/);
    expect(plan.body.requests).toHaveLength(4);
    expect(plan.body.requests[2]).toMatch(/attach_mode ro/);

    const res = await demo.post('/api/launches', body);
    expect(res.status).toBe(202);
    expect(res.body.strategy).toBe('serial');
    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done).toMatchObject({
      status: 'succeeded',
      reservationId: null,
      summary: 'All 5 servers are active.',
    });
    expect(done.servers.map((s: { name: string }) => s.name)).toEqual([
      'db-1',
      'db-2',
      'db-3',
      'db-4',
      'db-5',
    ]);
    for (const s of done.servers) {
      expect(s).toMatchObject({ state: 'active', status: 'ACTIVE', error: null });
      expect(s.attachments).toEqual([
        { volumeId: root, mode: 'rw', state: 'attached', device: '/dev/vda' },
        { volumeId: shared, mode: 'ro', state: 'attached', device: '/dev/vdb' },
      ]);
    }
    const ids = new Set(done.servers.map((s: { serverId: string }) => s.serverId));
    expect(ids.size).toBe(5);
    const rows = await attachmentRows(stack.cloud, shared);
    expect(new Set(rows.map((a) => a.instance_uuid))).toEqual(ids);
    expect(rows.every((a) => a.attach_mode === 'ro' && a.attach_status === 'attached')).toBe(true);
    // Every server holds its own attachment of the one boot volume.
    expect((await attachmentRows(stack.cloud, root)).map((a) => a.attach_mode)).toEqual(Array(5).fill('rw'));
  });

  it('reports a partial failure: the second server lands where the shared volume cannot go', async () => {
    const admin = await cloudData(stack, 'admin');
    // Fill compute-3 so the second server of the launch can only go to ironic-1 (az2), whose
    // driver cannot share disks: the create works, the attach of the shared volume does not.
    await admin.nova('POST', '/flavors', {
      flavor: { name: 'big', id: 'big', ram: 512, vcpus: 40, disk: 1 },
    });
    await admin.nova('POST', '/flavors', {
      flavor: { name: 'half', id: 'half', ram: 512, vcpus: 20, disk: 1 },
    });
    const shared = await volume('az2-data');
    const body = launchBody({
      name: 'edge',
      count: 2,
      flavorId: 'half',
      availabilityZone: 'az2',
      boot: { source: 'image', imageId: SEED_IMAGE_ID },
      dataVolumes: [{ volumeId: shared }],
    });
    // The plan's dry run sees room for both on compute-3; the filler takes it before the launch
    // starts (which reuses that plan), as another user's servers may.
    const plan = await demo.post('/api/launches/plan', body);
    expect(plan.body).toMatchObject({ ok: true, capacity: { source: 'dry-run', fits: 2 } });
    await admin.nova(
      'POST',
      '/servers',
      {
        server: {
          name: 'filler',
          flavorRef: 'big',
          imageRef: SEED_IMAGE_ID,
          networks: 'none',
          availability_zone: 'az2:compute-3',
        },
      },
      '2.74',
    );
    await stack.cloud.settle();
    const res = await demo.post('/api/launches', body);
    expect(res.status).toBe(202);
    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done.status).toBe('partial');
    const [first, second] = done.servers;
    expect(first).toMatchObject({ name: 'edge-1', state: 'active', status: 'ACTIVE', error: null });
    expect(first.attachments).toEqual([
      { volumeId: shared, mode: 'rw', state: 'attached', device: '/dev/vdb' },
    ]);
    expect(second).toMatchObject({ name: 'edge-2', state: 'failed', status: 'ACTIVE' });
    expect(second.error).toBe(
      `Attaching volume ${shared} failed: Volume ${shared} has 'multiattach' set, which is not supported for this instance.`,
    );
    expect(second.attachments).toEqual([{ volumeId: shared, mode: 'rw', state: 'failed', device: null }]);
    expect(done.summary).toMatch(/^1 of 2 servers active; 1 failed/);

    // Nothing lost: both servers exist and are on record, the volume is held by the first only.
    for (const s of done.servers) {
      expect(s.serverId).toBeTruthy();
      expect((await data.nova('GET', `/servers/${s.serverId}`)).body.server.status).toBe('ACTIVE');
    }
    expect((await attachmentRows(stack.cloud, shared)).map((a) => a.instance_uuid)).toEqual([first.serverId]);
  });

  it('refuses up front to give a volume that is not shared to more than one server', async () => {
    const plain = await volume('plain', { shared: false });
    const res = await demo.post(
      '/api/launches',
      launchBody({
        count: 2,
        boot: { source: 'image', imageId: SEED_IMAGE_ID },
        dataVolumes: [{ volumeId: plain }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields['dataVolumes.0.volumeId']).toMatch(/plain is not a shared/);
    expect(await attachmentRows(stack.cloud, plain)).toEqual([]);
  });
});
