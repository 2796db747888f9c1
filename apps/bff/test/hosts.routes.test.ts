import { describe, expect, it } from './helpers/fixtures.js';

describe('hosts (admin)', () => {
  it('lists compute hosts with zone, state, version and what they can attach', async ({
    operator: admin,
  }) => {
    const res = await admin.get('/api/hosts');
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('extension');
    const byName = Object.fromEntries(res.body.hosts.map((h: { name: string }) => [h.name, h]));
    expect(byName['compute-1']).toMatchObject({
      zone: 'nova',
      state: 'up',
      status: 'enabled',
      supportsMultiattach: true,
      supportsAttachModes: true,
      schedulable: true,
      version: expect.any(Number),
    });
    expect(byName['compute-old']).toMatchObject({ supportsAttachModes: false, supportsMultiattach: true });
    expect(
      res.body.hosts.some((h: { supportsMultiattach: boolean }) => h.supportsMultiattach === false),
    ).toBe(true);
  });

  it('refuses members with 403 forbidden', async ({ member: demo }) => {
    const res = await demo.get('/api/hosts');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});

describe('hosts on a cloud without the extension', () => {
  it('joins os-services and os-hypervisors, leaving unknowns null', async ({ stack }) => {
    const { cloudFor } = await import('../src/openstack/cloud-client.js');
    const { listComputeHosts } = await import('../src/openstack/nova.js');
    const admin = await stack.signIn('admin');
    const session = (await stack.sessions.get(decodeURIComponent(admin.cookie!.split('=')[1]!)))!;
    const real = cloudFor(session);
    // The real cloud, except that the extension answers 404 as a real Nova would.
    const cloud = {
      ...real,
      nova: ((method, path, opts) =>
        path.startsWith('/os-emulator-hosts')
          ? real.nova(method, '/os-no-such-extension', { ...opts, allow: [404] })
          : real.nova(method, path, opts)) as typeof real.nova,
    };
    const hosts = await listComputeHosts(cloud);
    const byName = Object.fromEntries(hosts.map((h) => [h.host, h]));
    expect(byName['compute-1']).toMatchObject({
      source: 'standard',
      zone: 'nova',
      state: 'up',
      status: 'enabled',
      hypervisorType: 'QEMU',
      supportsMultiattach: true,
      supportsAttachModes: null,
      serviceVersion: null,
    });
    expect(hosts.some((h) => h.hypervisorType === 'ironic' && h.supportsMultiattach === false)).toBe(true);
  });

  it('does not ask for the hosts extension when the sign-in found no topology extension (one round trip)', async ({
    stack,
  }) => {
    const { cloudFor } = await import('../src/openstack/cloud-client.js');
    const { listComputeHosts } = await import('../src/openstack/nova.js');
    const admin = await stack.signIn('admin');
    const signedIn = (await stack.sessions.get(decodeURIComponent(admin.cookie!.split('=')[1]!)))!;
    const session = { ...signedIn, capabilities: { ...signedIn.capabilities, topologyExtension: false } };
    const real = cloudFor(session);
    const asked: string[] = [];
    const cloud = {
      ...real,
      nova: ((method, path, opts) => {
        asked.push(path);
        return real.nova(method, path, opts);
      }) as typeof real.nova,
    };
    const hosts = await listComputeHosts(cloud);
    expect(hosts.length).toBeGreaterThan(0);
    expect(hosts.every((h) => h.source === 'standard')).toBe(true);
    expect(asked.sort()).toEqual(['/os-hypervisors/detail', '/os-services?binary=nova-compute']);
  });
});
