import { describe, expect, it, test } from './helpers/fixtures.js';

test.beforeAll(async ({ inv }) => {
  await inv.modernHostsOnly();
});

describe('servers', () => {
  it('lists servers in camelCase with flavor, image name and attachments; no host for members', async ({
    inv,
    member: demo,
  }) => {
    const srv = await inv.server('demo', 'web-1');
    const vol = await inv.volume('demo', 'web-data', { shared: true });
    await inv.attach('demo', srv, vol, 'ro');
    const res = await demo.get('/api/servers');
    expect(res.status).toBe(200);
    const s = res.body.servers.find((x: { id: string }) => x.id === srv);
    expect(s).toMatchObject({
      name: 'web-1',
      status: 'ACTIVE',
      task: null,
      flavor: { name: 'm1.tiny' },
      image: { id: inv.imageId, name: expect.any(String) },
      availabilityZone: 'nova',
      host: null,
    });
    expect(s.image.name).not.toBeNull();
    expect(s.attachments).toEqual([
      expect.objectContaining({ volumeId: vol, volumeName: 'web-data', serverName: 'web-1', mode: 'ro' }),
    ]);
    expect(s).not.toHaveProperty('OS-EXT-STS:vm_state');
  });

  it('shows one server with its attachments (device from Nova, state from Cinder)', async ({
    inv,
    member: demo,
    operator: admin,
  }) => {
    const srv = await inv.server('demo', 'db-1');
    const vol = await inv.volume('demo', 'db-data');
    await inv.attach('demo', srv, vol);
    const res = await demo.get(`/api/servers/${srv}`);
    expect(res.status).toBe(200);
    expect(res.body.attachments).toEqual([
      expect.objectContaining({
        volumeId: vol,
        volumeName: 'db-data',
        mode: 'rw',
        state: 'attached',
        device: expect.stringMatching(/^\/dev\/vd/),
        host: null,
      }),
    ]);
    const asAdmin = await admin.get(`/api/servers/${srv}`);
    expect(asAdmin.body.host).toMatch(/^compute-[12]$/);
    expect(asAdmin.body.attachments[0].host).toBe(asAdmin.body.host);
  });

  it("answers an unknown server with Nova's 404 message", async ({ member: demo }) => {
    const res = await demo.get('/api/servers/00000000-0000-0000-0000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', details: { service: 'compute' } });
    expect(res.body.error.message).toMatch(/could not be found/);
  });

  it('lets admins list every project with ?all=1 and refuses members', async ({
    inv,
    member: demo,
    operator: admin,
  }) => {
    await inv.server('admin', 'admin-srv');
    const all = await admin.get('/api/servers?all=1');
    expect(all.status).toBe(200);
    expect(
      new Set(all.body.servers.map((s: { projectId: string }) => s.projectId)).size,
    ).toBeGreaterThanOrEqual(2);
    expect(all.body.servers.every((s: { host: string | null }) => s.host !== null)).toBe(true);
    const refused = await demo.get('/api/servers?all=1');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  });

  it('deletes a server (202) and it goes away', async ({ stack, inv, member: demo }) => {
    const srv = await inv.server('demo', 'temp');
    const res = await demo.delete(`/api/servers/${srv}`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true });
    await stack.cloud.settle();
    expect((await demo.get(`/api/servers/${srv}`)).status).toBe(404);
  });
});
