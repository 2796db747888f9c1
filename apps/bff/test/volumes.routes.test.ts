import { describe, expect, it, test } from './helpers/fixtures.js';

test.beforeAll(async ({ inv }) => {
  await inv.modernHostsOnly();
});

describe('volumes', () => {
  it('creates a shared volume and lists it in camelCase', async ({ stack, member: demo }) => {
    const created = await demo.post('/api/volumes', { name: 'data', sizeGb: 2, type: 'multiattach' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'data', sizeGb: 2, shared: true, type: 'multiattach' });
    await stack.cloud.settle();
    const list = await demo.get('/api/volumes');
    expect(list.status).toBe(200);
    const v = list.body.volumes.find((x: { id: string }) => x.id === created.body.id);
    expect(v).toMatchObject({ status: 'available', shared: true, attachments: [] });
    expect(v).not.toHaveProperty('volume_type');
  });

  it('marks an empty volume bootable when asked', async ({ stack, member: demo }) => {
    const res = await demo.post('/api/volumes', { name: 'boot', sizeGb: 1, bootable: true });
    expect(res.status).toBe(201);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${res.body.id}`)).body.bootable).toBe(true);
  });

  it('validates the body with the shared schema', async ({ member: demo }) => {
    const res = await demo.post('/api/volumes', { name: '', sizeGb: 0 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.fields).toMatchObject({
      name: 'Give the volume a name',
      sizeGb: 'Size must be between 1 and 16,384 GB',
    });
  });

  it("passes Cinder's refusal on with its message (unknown type)", async ({ member: demo }) => {
    const res = await demo.post('/api/volumes', { name: 'x', sizeGb: 1, type: 'no-such-type' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'unknown_reference',
      message: 'Volume type with name no-such-type could not be found.',
    });
  });

  it('shows holders with server name, device, mode, state and since; hosts only to admins', async ({
    inv,
    member: demo,
    operator: admin,
  }) => {
    const vol = await inv.volume('demo', 'held', { shared: true });
    const a = await inv.server('demo', 'holder-a');
    const b = await inv.server('demo', 'holder-b');
    await inv.attach('demo', a, vol, 'rw');
    await inv.attach('demo', b, vol, 'ro');
    const res = await demo.get(`/api/volumes/${vol}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('in-use');
    const byName = Object.fromEntries(
      res.body.attachments.map((x: { serverName: string }) => [x.serverName, x]),
    );
    expect(byName['holder-a']).toMatchObject({
      mode: 'rw',
      state: 'attached',
      host: null,
      volumeName: 'held',
    });
    expect(byName['holder-b']).toMatchObject({ mode: 'ro', state: 'attached', host: null });
    expect(byName['holder-a'].device).toMatch(/^\/dev\/vd[b-z]$/);
    expect(byName['holder-a'].since).toMatch(/Z$/);
    expect(byName['holder-a'].attachmentId).toEqual(expect.any(String));

    const asAdmin = await admin.get(`/api/volumes/${vol}`);
    expect(asAdmin.body.attachments.map((x: { host: string }) => x.host).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^compute-/)]),
    );

    // The list agrees with the detail on modes.
    const list = await demo.get('/api/volumes');
    const listed = list.body.volumes.find((x: { id: string }) => x.id === vol);
    expect(listed.attachments.map((x: { mode: string }) => x.mode).sort()).toEqual(['ro', 'rw']);
  });

  it('lets admins list every project with ?all=1 and refuses members', async ({
    inv,
    member: demo,
    operator: admin,
  }) => {
    const mine = await inv.volume('admin', 'admins-own');
    const all = await admin.get('/api/volumes?all=1');
    expect(all.status).toBe(200);
    const projects = new Set(all.body.volumes.map((v: { projectId: string }) => v.projectId));
    expect(projects.size).toBeGreaterThanOrEqual(2);
    const own = await admin.get('/api/volumes');
    expect(
      own.body.volumes.every((v: { projectId: string }) => v.projectId === own.body.volumes[0].projectId),
    ).toBe(true);
    expect(own.body.volumes.some((v: { id: string }) => v.id === mine)).toBe(true);

    const refused = await demo.get('/api/volumes?all=1');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await demo.get('/api/volumes?all=maybe')).status).toBe(400);
  });

  it('deletes a volume (202) and 404s afterwards', async ({ stack, inv, member: demo }) => {
    const vol = await inv.volume('demo', 'doomed');
    const res = await demo.delete(`/api/volumes/${vol}`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true });
    await stack.cloud.settle();
    const gone = await demo.get(`/api/volumes/${vol}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
  });

  it("refuses to delete an attached volume with Cinder's message, not a 500", async ({
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'busy');
    const srv = await inv.server('demo', 'busy-holder');
    await inv.attach('demo', srv, vol);
    const res = await demo.delete(`/api/volumes/${vol}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/status must be available/i);
    expect(res.body.error.details).toMatchObject({ service: 'block-storage', status: 400 });
  });

  it('needs a session and the CSRF token', async ({ stack, member: demo }) => {
    expect((await stack.client().get('/api/volumes')).status).toBe(401);
    const res = await demo.request(
      'POST',
      '/api/volumes',
      { name: 'x', sizeGb: 1 },
      { 'X-CSRF-Token': 'no' },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('csrf_failed');
  });
});
