import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { cloudData } from './helpers/cloud-data.js';
import { launchBody, waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * A launch that goes partly wrong, on both strategies: zone az2 has one host that can share disks
 * (compute-3, 64 vCPUs), a filler server takes 30 of them, so of two 30-vCPU servers booting from
 * a shared volume one fits and the other ends in ERROR with Nova's NoValidHost. Then the two
 * actions on the failed servers: delete them, or (with the filler gone) create them again.
 */
describe.each([
  ['multi-create (compute 2.105)', 'auto'],
  ['serial (BFF_LAUNCH_STRATEGY=serial)', 'serial'],
] as const)('a launch that partly fails, %s', (_label, strategy) => {
  let stack: TestStack;
  let demo: ApiClient;
  let admin: Awaited<ReturnType<typeof cloudData>>;
  let data: Awaited<ReturnType<typeof cloudData>>;
  let filler = '';

  beforeAll(async () => {
    stack = await startStack({ bff: { launchStrategy: strategy } });
    demo = await stack.signIn('demo');
    admin = await cloudData(stack, 'admin');
    data = await cloudData(stack, 'demo');
    await admin.nova('POST', '/flavors', {
      flavor: { name: 'wide', id: 'wide', ram: 512, vcpus: 30, disk: 1 },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function partialLaunch(name: string) {
    const root = await data.cinder('POST', '/volumes', {
      volume: { name: `${name}-root`, size: 1, volume_type: 'multiattach', imageRef: SEED_IMAGE_ID },
    });
    await stack.cloud.settle();
    const body = launchBody({
      name,
      count: 2,
      flavorId: 'wide',
      availabilityZone: 'az2',
      boot: { source: 'volume', volumeId: root.body.volume.id, mode: 'rw' },
    });
    // The plan (with the cloud's dry run) sees room for both; the filler takes it before the launch
    // starts, which reuses that plan: capacity gone between plan and launch.
    const plan = await demo.post('/api/launches/plan', body);
    expect(plan.body).toMatchObject({ ok: true, capacity: { source: 'dry-run', fits: 2 } });
    const fill = await admin.nova(
      'POST',
      '/servers',
      {
        server: {
          name: `${name}-filler`,
          flavorRef: 'wide',
          imageRef: SEED_IMAGE_ID,
          networks: 'none',
          availability_zone: 'az2:compute-3',
        },
      },
      '2.74',
    );
    filler = fill.body.server.id;
    await stack.cloud.settle();
    const res = await demo.post('/api/launches', body);
    expect(res.status).toBe(202);
    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done.status).toBe('partial');
    const failed = done.servers.filter((s: { state: string }) => s.state === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].error).toBe('No valid host was found. There are not enough hosts available.');
    expect(failed[0].serverId).toEqual(expect.any(String));
    expect(failed[0].status).toBe('ERROR');
    return {
      id: res.body.id as string,
      failed: failed[0] as { index: number; name: string; serverId: string },
    };
  }

  async function waitFor(id: string, ok: (launch: { [k: string]: unknown }) => boolean) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await demo.get(`/api/launches/${id}`);
      if (ok(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`launch ${id}: ${res.text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('deletes the failed servers in one action, saying what it did to each, and leaves none behind', async () => {
    const { id, failed } = await partialLaunch('part');
    const res = await demo.post(`/api/launches/${id}/delete-failed`);
    expect(res.status).toBe(200);
    expect(res.body.actions.at(-1)).toMatchObject({
      kind: 'delete-failed',
      results: [{ index: failed.index, name: failed.name, serverId: failed.serverId, ok: true }],
    });
    await stack.cloud.settle();
    const after = await waitFor(id, (l) =>
      (l.servers as { index: number; removal?: string }[]).some(
        (s) => s.index === failed.index && s.removal === 'deleted',
      ),
    );
    expect((after.actions as { results: { outcome: string }[] }[]).at(-1)?.results[0]?.outcome).toBe(
      'Deleted',
    );
    const servers = (await demo.get('/api/servers')).body.servers as { id: string; name: string }[];
    expect(servers.map((s) => s.id)).not.toContain(failed.serverId);
    expect(servers.filter((s) => s.name.startsWith('part-'))).toHaveLength(1);
    // Nothing is left to delete: said, not done again.
    const again = await demo.post(`/api/launches/${id}/delete-failed`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    // Room for the next test: compute-3 empty again.
    await admin.nova('DELETE', `/servers/${filler}`);
    for (const s of servers.filter((x) => x.name.startsWith('part-')))
      await data.nova('DELETE', `/servers/${s.id}`);
    await stack.cloud.settle();
  });

  it('retries the failed ones with the same plan once there is room, and says how each ended', async () => {
    const { id, failed } = await partialLaunch('redo');
    await admin.nova('DELETE', `/servers/${filler}`);
    await stack.cloud.settle();
    const res = await demo.post(`/api/launches/${id}/retry-failed`);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('running');
    expect(res.body.actions.at(-1)).toMatchObject({
      kind: 'retry-failed',
      results: [{ index: failed.index, outcome: 'Deleted; creating it again', ok: true }],
    });
    // Running again: the actions wait until it ends.
    const busy = await demo.post(`/api/launches/${id}/retry-failed`);
    expect([409, 202]).toContain(busy.status);
    const done = (await waitForLaunch(demo, id)).body;
    expect(done.status).toBe('succeeded');
    const redone = done.servers[failed.index];
    expect(redone).toMatchObject({ name: failed.name, state: 'active', status: 'ACTIVE' });
    expect(redone.serverId).not.toBe(failed.serverId);
    expect(done.actions.at(-1).results[0]).toMatchObject({ outcome: 'Created again; active', ok: true });
    await stack.cloud.settle();
    // The old server in ERROR is gone; the new one holds the shared boot volume.
    const servers = (await demo.get('/api/servers')).body.servers as { id: string; name: string }[];
    expect(
      servers
        .filter((s) => s.name.startsWith('redo-'))
        .map((s) => s.id)
        .sort(),
    ).toEqual(done.servers.map((s: { serverId: string }) => s.serverId).sort());
  });

  it('lists the project’s launches newest first, with outcomes and counts', async () => {
    const res = await demo.get('/api/launches');
    expect(res.status).toBe(200);
    const names = res.body.launches.map((l: { request: { name: string } }) => l.request.name);
    expect(names.slice(0, 2)).toEqual(['redo', 'part']);
    expect(res.body.launches[0].status).toBe('succeeded');
    expect(res.body.launches[1].status).toBe('partial');
  });
});
