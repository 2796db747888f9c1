import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { cloudData } from './helpers/cloud-data.js';
import { launchBody, waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 15 on both strategies: one multi-create request (compute 2.105) and the serial path
 * (BFF_LAUNCH_STRATEGY=serial). Every server gets a port on the chosen network, the chosen
 * security group and the new key pair; the plan checks capacity with the cloud's dry run.
 */
describe.each([
  { strategy: 'multi-create', bff: {} },
  { strategy: 'serial', bff: { launchStrategy: 'serial' as const } },
])('launch with a network, a security group and a key pair ($strategy)', ({ strategy, bff }) => {
  let stack: TestStack;
  let demo: ApiClient;
  let data: Awaited<ReturnType<typeof cloudData>>;

  beforeAll(async () => {
    stack = await startStack({ bff });
    demo = await stack.signIn('demo');
    data = await cloudData(stack, 'demo');
  });
  afterAll(async () => {
    await stack.close();
  });

  it('launches 3 servers on a shared boot volume; each has an address, the key pair and the group', async () => {
    const root = await data.cinder('POST', '/volumes', {
      volume: { name: 'root', size: 1, volume_type: 'multiattach', imageRef: SEED_IMAGE_ID },
    });
    await stack.cloud.settle();
    const network = (await demo.get('/api/networks')).body.networks[0];
    const group = (await demo.get('/api/security-groups')).body.securityGroups.find(
      (g: { name: string }) => g.name === 'default',
    );
    const key = await demo.post('/api/key-pairs', { name: `key-${strategy}` });
    expect(key.status).toBe(201);
    const body = launchBody({
      name: 'net',
      count: 3,
      boot: { source: 'volume', volumeId: root.body.volume.id },
      networks: [network.id],
      securityGroups: [group.name],
      keyName: `key-${strategy}`,
    });

    const plan = await demo.post('/api/launches/plan', body);
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ ok: true, strategy, problems: [], maxCount: null });
    expect(plan.body.capacity).toMatchObject({ source: 'dry-run', requested: 3, fits: 3 });
    expect(plan.body.requests.at(-1)).toBe(
      `Every POST /servers carries networks [{uuid: ${network.id}} (private)], security_groups [default] and key_name key-${strategy}`,
    );
    expect(plan.body.quotas.map((q: { resource: string }) => q.resource)).toEqual([
      'instances',
      'cores',
      'ram',
    ]);

    const res = await demo.post('/api/launches', body);
    expect(res.status).toBe(202);
    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done.status).toBe('succeeded');
    for (const s of done.servers) {
      const server = (await demo.get(`/api/servers/${s.serverId}`)).body;
      expect(server.keyName).toBe(`key-${strategy}`);
      expect(server.securityGroups).toEqual(['default']);
      expect(server.addresses).toEqual([
        expect.objectContaining({
          network: 'private',
          address: expect.stringMatching(/^10\.0\.[0-3]\.\d+$/),
        }),
      ]);
    }
    const addresses = new Set(
      await Promise.all(
        done.servers.map(
          async (s: { serverId: string }) =>
            (await demo.get(`/api/servers/${s.serverId}`)).body.addresses[0].address,
        ),
      ),
    );
    expect(addresses.size).toBe(3);
  });

  it('launches without a network when asked: the servers have no address', async () => {
    const res = await demo.post(
      '/api/launches',
      launchBody({ name: 'dark', boot: { source: 'image', imageId: SEED_IMAGE_ID }, networks: 'none' }),
    );
    expect(res.status).toBe(202);
    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done.status).toBe('succeeded');
    const server = (await demo.get(`/api/servers/${done.servers[0].serverId}`)).body;
    expect(server.addresses).toEqual([]);
  });

  it('refuses 40 of the largest flavor at the plan, saying how many fit per zone and offering that count', async () => {
    const flavors = (await demo.get('/api/flavors')).body.flavors as {
      id: string;
      vcpus: number;
      ramMb: number;
    }[];
    const largest = [...flavors].sort((a, b) => b.vcpus - a.vcpus || b.ramMb - a.ramMb)[0]!;
    const body = launchBody({
      name: 'huge',
      count: 40,
      flavorId: largest.id,
      boot: { source: 'image', imageId: SEED_IMAGE_ID },
    });
    // What the cloud's scheduler says, asked directly.
    const direct = (
      await data.nova('POST', '/os-scheduler-dry-run', {
        dry_run: {
          flavorRef: largest.id,
          count: 40,
          volume_backed: false,
          multiattach: false,
          read_only: false,
        },
      })
    ).body.dry_run;
    expect(direct.fits).toBeLessThan(40);

    const plan = (await demo.post('/api/launches/plan', body)).body;
    expect(plan.ok).toBe(false);
    expect(plan.capacity).toMatchObject({ source: 'dry-run', requested: 40, fits: direct.fits });
    expect(plan.capacity.zones).toEqual(
      direct.zones.map((z: { zone_name: string; fits: number }) => ({ zone: z.zone_name, fits: z.fits })),
    );
    const perZone = direct.zones
      .map((z: { zone_name: string; fits: number }) => `${z.zone_name}: ${z.fits}`)
      .join(', ');
    expect(plan.problems).toEqual([
      {
        field: 'count',
        message:
          direct.fits === 0
            ? `None of the 40 servers fits on the cloud's hosts now (${perZone}).`
            : `Only ${direct.fits} of the 40 servers fit on the cloud's hosts now (${perZone}). Launch ${direct.fits}, or fewer.`,
      },
    ]);
    expect(plan.maxCount).toBe(direct.fits >= 1 ? direct.fits : null);

    // The count offered is one the plan accepts.
    if (direct.fits >= 1) {
      const fewer = (await demo.post('/api/launches/plan', { ...body, count: direct.fits })).body;
      expect(fewer.problems).toEqual([]);
      expect(fewer.ok).toBe(true);
    }
  });
});
