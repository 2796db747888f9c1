import { describe, expect, it } from './helpers/fixtures.js';

describe('catalog', () => {
  it('lists flavors', async ({ member: demo }) => {
    const res = await demo.get('/api/flavors');
    expect(res.status).toBe(200);
    expect(res.body.flavors).toContainEqual({ id: '1', name: 'm1.tiny', vcpus: 1, ramMb: 512, diskGb: 1 });
  });

  it('lists images from Glance', async ({ member: demo }) => {
    const res = await demo.get('/api/images');
    expect(res.status).toBe(200);
    expect(res.body.images.length).toBeGreaterThanOrEqual(1);
    expect(res.body.images[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      status: 'active',
      sizeBytes: expect.any(Number),
    });
  });

  it('lists availability zones without the internal one', async ({ member: demo }) => {
    const res = await demo.get('/api/availability-zones');
    expect(res.status).toBe(200);
    const names = res.body.zones.map((z: { name: string }) => z.name);
    expect(names).toEqual(expect.arrayContaining(['nova', 'az2']));
    expect(names).not.toContain('internal');
    expect(res.body.zones.every((z: { available: boolean }) => typeof z.available === 'boolean')).toBe(true);
  });

  it('lists volume types and tells which are shared', async ({ member: demo }) => {
    const res = await demo.get('/api/volume-types');
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.types.map((t: { name: string }) => [t.name, t]));
    expect(byName.multiattach).toMatchObject({ shared: true });
    expect(byName.__DEFAULT__).toMatchObject({ shared: false });
  });

  it('needs a session', async ({ stack }) => {
    for (const path of ['/api/flavors', '/api/images', '/api/availability-zones', '/api/volume-types']) {
      expect((await stack.client().get(path)).status).toBe(401);
    }
  });
});
