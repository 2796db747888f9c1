import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { http } from '../../cloud/test/helpers/cloud.js';
import { newSshKeyPair } from '../src/openstack/nova-keypairs.js';
import { cloudData, sessionOfClient } from './helpers/cloud-data.js';
import { launchBody, waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let demo: ApiClient;
let data: Awaited<ReturnType<typeof cloudData>>;
let admin: Awaited<ReturnType<typeof cloudData>>;

beforeAll(async () => {
  stack = await startStack();
  demo = await stack.signIn('demo');
  data = await cloudData(stack, 'demo');
  admin = await cloudData(stack, 'admin');
});
afterAll(async () => {
  await stack.close();
});

/** Neutron as the demo user, straight to the cloud. */
const neutron = (method: string, path: string, body?: unknown) =>
  http(stack.cloud, method, `/network${path}`, {
    token: data.session.token,
    ...(body !== undefined ? { body } : {}),
  });

const imageBoot = { boot: { source: 'image', imageId: SEED_IMAGE_ID } };

describe('what a launch picks from', () => {
  it('lists the project network with its subnet, and says the cloud takes "none"', async () => {
    const res = await demo.get('/api/networks');
    expect(res.status).toBe(200);
    expect(res.body.networkService).toBe(true);
    expect(res.body.noneAllowed).toBe(true);
    expect(res.body.networks).toHaveLength(1);
    expect(res.body.networks[0]).toMatchObject({
      name: 'private',
      status: 'ACTIVE',
      shared: false,
      external: false,
      projectId: null,
      subnets: [{ name: 'private-subnet', cidr: '10.0.0.0/22', ipVersion: 4, gatewayIp: '10.0.0.1' }],
    });
    // An admin sees every project's networks in Neutron, but only its own project's are offered.
    const adminClient = await stack.signIn('admin');
    const own = (await adminClient.get('/api/networks')).body.networks;
    expect(own).toHaveLength(1);
    expect(own[0].id).not.toBe(res.body.networks[0].id);
  });

  it("lists the project's security groups with their rule counts", async () => {
    const res = await demo.get('/api/security-groups');
    expect(res.status).toBe(200);
    expect(res.body.networkService).toBe(true);
    expect(res.body.securityGroups).toEqual([expect.objectContaining({ name: 'default', ruleCount: 4 })]);
  });

  it('creates a key pair and returns its private key once, imports one, refuses a duplicate name, deletes', async () => {
    const made = await demo.post('/api/key-pairs', { name: 'made-here' });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(made.body.keyPair).toMatchObject({ name: 'made-here', type: 'ssh' });
    expect(made.body.privateKey).toMatch(/^-----BEGIN (RSA |OPENSSH )?PRIVATE KEY-----/);
    // The cloud kept the public half only: listing it shows no private key anywhere.
    const list = await demo.get('/api/key-pairs');
    expect(list.status).toBe(200);
    expect(list.body.keyPairs).toEqual([
      { name: 'made-here', fingerprint: made.body.keyPair.fingerprint, type: 'ssh' },
    ]);
    expect(list.text).not.toContain('PRIVATE KEY');

    const { publicKey } = newSshKeyPair();
    const imported = await demo.post('/api/key-pairs', { name: 'brought', publicKey });
    expect(imported.status).toBe(201);
    expect(imported.body.privateKey).toBeNull();
    // Nova's fingerprint of an ssh key: MD5 of the key blob, colon-separated.
    const blob = Buffer.from(publicKey.split(' ')[1]!, 'base64');
    const md5 = createHash('md5').update(blob).digest('hex').match(/../g)!.join(':');
    expect(imported.body.keyPair.fingerprint).toBe(md5);

    const twice = await demo.post('/api/key-pairs', { name: 'brought', publicKey });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('conflict');
    expect(twice.body.error.message).toMatch(/Key pair 'brought' already exists/);

    const bad = await demo.post('/api/key-pairs', { name: 'bad/name' });
    expect(bad.status).toBe(400);

    expect((await demo.delete('/api/key-pairs/brought')).status).toBe(204);
    const gone = await demo.delete('/api/key-pairs/brought');
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await demo.get('/api/key-pairs')).body.keyPairs.map((k: { name: string }) => k.name)).toEqual([
      'made-here',
    ]);
    // Creating and deleting need the CSRF token, as every change.
    const noCsrf = await demo.request('POST', '/api/key-pairs', { name: 'x' }, { 'X-CSRF-Token': '' });
    expect(noCsrf.status).toBe(403);
  });

  it("shows the project's quota use from Nova's and Cinder's limits", async () => {
    await data.volume('counted');
    const res = await demo.get('/api/quotas');
    expect(res.status).toBe(200);
    expect(res.body.unavailable).toEqual([]);
    const by = Object.fromEntries(
      res.body.quotas.map((q: { resource: string }) => [q.resource, q]),
    ) as Record<string, { service: string; used: number; limit: number | null; label: string }>;
    expect(Object.keys(by).sort()).toEqual(['cores', 'gigabytes', 'instances', 'ram', 'volumes']);
    expect(by.instances).toMatchObject({ service: 'compute', label: 'Instances' });
    expect(by.volumes).toMatchObject({ service: 'volume', label: 'Volumes' });
    expect(by.volumes!.used).toBeGreaterThanOrEqual(1);
    expect(by.gigabytes!.used).toBeGreaterThanOrEqual(1);
  });

  it('still answers with compute quotas when the volume service cannot be reached', async () => {
    const c = await stack.signIn('demo');
    const session = await sessionOfClient(stack, c.cookie);
    await stack.sessions.set({
      ...session,
      endpoints: { ...session.endpoints, volume: 'http://127.0.0.1:9/volume/v3/x' },
    });
    const res = await c.get('/api/quotas');
    expect(res.status).toBe(200);
    expect(res.body.quotas.map((q: { service: string }) => q.service)).toEqual([
      'compute',
      'compute',
      'compute',
    ]);
    expect(res.body.unavailable).toEqual([
      { service: 'volume', reason: expect.stringMatching(/^Volume limits could not be read: /) },
    ]);
  });

  it('answers empty lists on a cloud without a network service, where only "none" can launch', async () => {
    const c = await stack.signIn('demo');
    const session = await sessionOfClient(stack, c.cookie);
    await stack.sessions.set({ ...session, endpoints: { ...session.endpoints, network: null } });
    expect((await c.get('/api/networks')).body).toEqual({
      networkService: false,
      noneAllowed: true,
      networks: [],
    });
    expect((await c.get('/api/security-groups')).body).toEqual({ networkService: false, securityGroups: [] });
    const plan = await c.post('/api/launches/plan', launchBody({ ...imageBoot }));
    expect(plan.body.ok).toBe(false);
    expect(plan.body.problems).toContainEqual({
      field: 'networks',
      message: 'This cloud has no network service, so the servers can only launch without a network.',
    });
    const none = await c.post('/api/launches/plan', launchBody({ ...imageBoot, networks: 'none' }));
    expect(none.body.problems).toEqual([]);
    expect(none.body.ok).toBe(true);
  });
});

describe('the plan checks what the servers plug into', () => {
  it('names an unknown network, a network without subnets, a missing security group and key pair', async () => {
    const bare = await neutron('POST', '/v2.0/networks', { network: { name: 'bare' } });
    const bareId = bare.body.network.id as string;
    // The network goes whatever happens: the tests after this one plan with the project's one network.
    onTestFinished(() => neutron('DELETE', `/v2.0/networks/${bareId}`).then(() => undefined));
    const res = await demo.post(
      '/api/launches/plan',
      launchBody({
        ...imageBoot,
        networks: [bareId, 'no-such-net'],
        securityGroups: ['default', 'nope'],
        keyName: 'missing-key',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.problems).toEqual(
      expect.arrayContaining([
        {
          field: 'networks.0',
          message: 'Network bare has no subnet, so it cannot give the servers addresses.',
        },
        { field: 'networks.1', message: 'Network no-such-net was not found in this project.' },
        { field: 'securityGroups.1', message: 'Security group nope not found.' },
        { field: 'keyName', message: 'Key pair missing-key was not found.' },
      ]),
    );
    expect(res.body.problems).toHaveLength(4);
    // With two networks in the project, Nova could not pick one by itself.
    const auto = await demo.post('/api/launches/plan', launchBody({ ...imageBoot }));
    expect(auto.body.problems).toEqual([
      {
        field: 'networks',
        // In name order, however Neutron lists them.
        message: 'Several networks could take the servers (bare, private); choose which.',
      },
    ]);
    await neutron('DELETE', `/v2.0/networks/${bareId}`);
    const one = await demo.post('/api/launches/plan', launchBody({ ...imageBoot }));
    expect(one.body.problems).toEqual([]);
  });

  it('refuses a launch over quota at the plan, naming the quota and by how much, and offers the count that fits', async () => {
    const projectId = data.session.projectId;
    await admin.nova('PUT', `/os-quota-sets/${projectId}`, { quota_set: { instances: 2, cores: 40 } });
    try {
      const flavors = (await demo.get('/api/flavors')).body.flavors as { id: string; vcpus: number }[];
      const big = flavors.find((f) => f.vcpus >= 4)!;
      const res = await demo.post(
        '/api/launches/plan',
        launchBody({ ...imageBoot, count: 12, flavorId: big.id }),
      );
      expect(res.body.ok).toBe(false);
      const used = (await demo.get('/api/quotas')).body.quotas.find(
        (q: { resource: string }) => q.resource === 'instances',
      ).used as number;
      const left = Math.max(0, 2 - used);
      expect(res.body.problems).toContainEqual({
        field: 'count',
        message: `This launch needs 12 instances; the project has ${left} left of 2.`,
      });
      expect(res.body.problems).toContainEqual({
        field: 'count',
        message: `This launch needs ${12 * big.vcpus} vCPUs; the project has 40 left of 40.`,
      });
      expect(res.body.quotas).toContainEqual({ resource: 'instances', label: 'Instances', need: 12, left });
      expect(res.body.quotas).toContainEqual({
        resource: 'cores',
        label: 'vCPUs',
        need: 12 * big.vcpus,
        left: 40,
      });
      expect(res.body.maxCount).toBe(left >= 1 ? left : null);
      // Start refuses it as the plan did, before anything is created.
      const start = await demo.post(
        '/api/launches',
        launchBody({ ...imageBoot, count: 12, flavorId: big.id }),
      );
      expect(start.status).toBe(400);
      expect(start.body.error.code).toBe('launch_not_possible');
    } finally {
      await admin.nova('DELETE', `/os-quota-sets/${projectId}`);
    }
  });
});

describe("the cloud's own refusal at create", () => {
  it("passes Nova's quota message through when the quota shrank between the plan and the launch", async () => {
    const projectId = data.session.projectId;
    const body = launchBody({ ...imageBoot, name: 'late', count: 2, networks: 'none' });
    const plan = await demo.post('/api/launches/plan', body);
    expect(plan.body.ok).toBe(true);
    const used = (await data.nova('GET', '/limits')).body.limits.absolute.totalInstancesUsed as number;
    await admin.nova('PUT', `/os-quota-sets/${projectId}`, { quota_set: { instances: used } });
    try {
      // Start reuses the plan it made a moment ago: the cloud is the one to refuse.
      const res = await demo.post('/api/launches', body);
      expect(res.status).toBe(202);
      const done = (await waitForLaunch(demo, res.body.id)).body;
      expect(done.status).toBe('failed');
      for (const s of done.servers) {
        expect(s.error).toMatch(
          /^Quota exceeded for instances: Requested \d+, but already used \d+ of \d+ instances/,
        );
      }
    } finally {
      await admin.nova('DELETE', `/os-quota-sets/${projectId}`);
    }
  });
});

describe('capacity on a cloud without the dry run (compute stops at 2.104, as every released Nova)', () => {
  /** A signed-in client whose session sees the cloud as a real Nova: no 2.105, so no dry run. */
  async function asRealCloud(user: 'demo' | 'admin') {
    const c = await stack.signIn(user);
    const session = await sessionOfClient(stack, c.cookie);
    await stack.sessions.set({
      ...session,
      capabilities: {
        ...session.capabilities,
        compute: { ...session.capabilities.compute, maxVersion: '2.104' },
        launchStrategy: 'serial',
      },
    });
    return c;
  }

  const largest = async (c: ApiClient) => {
    const flavors = (await c.get('/api/flavors')).body.flavors as {
      id: string;
      vcpus: number;
      ramMb: number;
    }[];
    return [...flavors].sort((a, b) => b.vcpus - a.vcpus || b.ramMb - a.ramMb)[0]!;
  };

  it("counts an admin's launch from the hypervisors' figures, per zone, and refuses 40 of the largest flavor", async () => {
    const c = await asRealCloud('admin');
    const flavor = await largest(c);
    const plan = (
      await c.post('/api/launches/plan', launchBody({ ...imageBoot, count: 40, flavorId: flavor.id }))
    ).body;
    expect(plan.capacity.source).toBe('hypervisors');
    expect(plan.capacity.fits).toBeLessThan(40);
    expect(plan.capacity.zones.map((z: { zone: string }) => z.zone)).toEqual(['az2', 'nova']);
    expect(plan.capacity.zones.reduce((n: number, z: { fits: number }) => n + z.fits, 0)).toBe(
      plan.capacity.fits,
    );
    expect(plan.problems).toContainEqual({
      field: 'count',
      message: expect.stringMatching(
        new RegExp(
          `^(Only ${plan.capacity.fits} of the 40 servers fit|None of the 40 servers fits) on the cloud's hosts now \\(az2: \\d+, nova: \\d+\\)`,
        ),
      ),
    });
    expect(plan.capacity.note).toMatch(/^The hypervisors' own figures/);
  });

  it("leaves a member's launch unchecked, with a warning in words, and does not refuse it", async () => {
    const c = await asRealCloud('demo');
    const flavor = await largest(c);
    const plan = (
      await c.post('/api/launches/plan', launchBody({ ...imageBoot, count: 3, flavorId: flavor.id }))
    ).body;
    expect(plan.capacity).toMatchObject({ source: 'unchecked', requested: 3, fits: null, zones: [] });
    expect(plan.warnings).toContainEqual({ field: 'count', message: plan.capacity.note });
    expect(plan.capacity.note).toMatch(/No valid host/);
    expect(plan.problems).toEqual([]);
    expect(plan.ok).toBe(true);
  });
});
