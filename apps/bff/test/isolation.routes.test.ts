import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventory } from './helpers/inventory.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/** A member sees and touches only their own project, whatever ids they send. */
let stack: TestStack;
let inv: ReturnType<typeof inventory>;
let demo: ApiClient;
let admin: ApiClient;
let adminVolume: string;
let adminServer: string;
let demoVolume: string;
let demoServer: string;
beforeAll(async () => {
  stack = await startStack();
  inv = inventory(stack);
  await inv.modernHostsOnly();
  demo = await stack.signIn('demo');
  admin = await stack.signIn('admin');
  adminVolume = await inv.volume('admin', 'admin-secret', { shared: true });
  adminServer = await inv.server('admin', 'admin-box');
  demoVolume = await inv.volume('demo', 'demo-vol', { shared: true });
  demoServer = await inv.server('demo', 'demo-box');
});
afterAll(async () => {
  await stack?.close();
});

describe('project isolation', () => {
  it("hides another project's volume and server from lists", async () => {
    const volumes = (await demo.get('/api/volumes')).body.volumes.map((v: { id: string }) => v.id);
    expect(volumes).toContain(demoVolume);
    expect(volumes).not.toContain(adminVolume);
    const servers = (await demo.get('/api/servers')).body.servers.map((s: { id: string }) => s.id);
    expect(servers).toContain(demoServer);
    expect(servers).not.toContain(adminServer);
  });

  it("answers 404 for another project's volume and server", async () => {
    for (const path of [`/api/volumes/${adminVolume}`, `/api/servers/${adminServer}`]) {
      const res = await demo.get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('cannot delete them', async () => {
    expect((await demo.delete(`/api/volumes/${adminVolume}`)).status).toBe(404);
    expect((await demo.delete(`/api/servers/${adminServer}`)).status).toBe(404);
    await stack.cloud.settle();
    expect((await admin.get(`/api/volumes/${adminVolume}`)).body.status).toBe('available');
    expect((await admin.get(`/api/servers/${adminServer}`)).body.status).toBe('ACTIVE');
  });

  it("cannot attach another project's volume, nor attach to another project's server", async () => {
    const theirVolume = await demo.post(`/api/servers/${demoServer}/attachments`, {
      volumeId: adminVolume,
      acknowledgeMultipleWriters: true,
    });
    expect(theirVolume.status).toBe(404);
    const theirServer = await demo.post(`/api/servers/${adminServer}/attachments`, { volumeId: demoVolume });
    expect(theirServer.status).toBe(404);
    expect((await demo.delete(`/api/servers/${adminServer}/attachments/${adminVolume}`)).status).toBe(404);
    await stack.cloud.settle();
    expect((await admin.get(`/api/volumes/${adminVolume}`)).body.attachments).toEqual([]);
    expect((await demo.get(`/api/volumes/${demoVolume}`)).body.attachments).toEqual([]);
  });

  it('refuses admin-only views to members', async () => {
    for (const path of ['/api/hosts', '/api/volumes?all=1', '/api/servers?all=1']) {
      const res = await demo.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });

  it("lets an admin see a member's volume, with hosts, when the member does not see them", async () => {
    await inv.attach('demo', demoServer, demoVolume);
    const asAdmin = await admin.get(`/api/volumes/${demoVolume}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.attachments[0].host).toMatch(/^compute-/);
    expect((await demo.get(`/api/volumes/${demoVolume}`)).body.attachments[0].host).toBeNull();
  });
});
