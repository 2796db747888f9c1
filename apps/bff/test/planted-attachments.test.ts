import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connector } from '../../cloud/test/helpers/volume-fixtures.js';
import { cloudData, sessionOfClient } from './helpers/cloud-data.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, finding 7: Cinder accepts any instance_uuid on POST /attachments (real Cinder too),
 * so a member can make attachment records naming servers that never asked for the volume,
 * another project's included. A server's volumes are the ones Nova lists; such a record is not
 * a server's volume on server pages, in pre-flight or in the topology (with and without the
 * cloud's topology extension), and on its volume's page it is marked as not known to Nova.
 */

let stack: TestStack;
let demo: Awaited<ReturnType<typeof cloudData>>;
let member: ApiClient;
let operator: ApiClient;
let memberComposed: ApiClient;
let operatorComposed: ApiClient;
const ids = {} as Record<
  'adminServer' | 'demoServer' | 'demoHolder' | 'planted' | 'mixed' | 'toAdmin' | 'toDemo',
  string
>;

/** The member's own records, straight to Cinder (3.54), connected and completed like a real attach. */
async function plant(volumeId: string, serverId: string): Promise<string> {
  const res = await demo.cinder('POST', '/attachments', {
    attachment: {
      volume_uuid: volumeId,
      instance_uuid: serverId,
      connector: connector('compute-1'),
      mode: 'rw',
    },
  });
  const id = res.body.attachment.id as string;
  await demo.cinder('POST', `/attachments/${id}/action`, { 'os-complete': null });
  return id;
}

async function withoutExtension(client: ApiClient): Promise<void> {
  const session = await sessionOfClient(stack, client.cookie);
  await stack.sessions.set({
    ...session,
    capabilities: { ...session.capabilities, topologyExtension: false },
  });
}

beforeAll(async () => {
  stack = await startStack();
  demo = await cloudData(stack, 'demo');
  const admin = await cloudData(stack, 'admin');
  ids.adminServer = await admin.server('payroll');
  ids.demoServer = await demo.server('bystander');
  ids.demoHolder = await demo.server('holder');
  // A volume with only a planted record, naming admin's server…
  ids.planted = await demo.volume('planted');
  ids.toAdmin = await plant(ids.planted, ids.adminServer);
  // …and one a server really holds (through Nova), with a planted record naming another of demo's servers.
  ids.mixed = await demo.volume('mixed');
  await demo.attach(ids.demoHolder, ids.mixed, 'rw');
  ids.toDemo = await plant(ids.mixed, ids.demoServer);
  await stack.cloud.settle();

  member = await stack.signIn('demo');
  operator = await stack.signIn('admin');
  memberComposed = await stack.signIn('demo');
  operatorComposed = await stack.signIn('admin');
  await withoutExtension(memberComposed);
  await withoutExtension(operatorComposed);
});
afterAll(async () => {
  await stack?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: reading response bodies
type Body = any;
const volumesOf = (server: Body) => server.attachments.map((a: Body) => a.volumeId);

describe('a planted Cinder attachment is not a server volume', () => {
  it('the cloud took the records (as real Cinder does)', async () => {
    const res = await demo.cinder('GET', `/attachments?volume_id=${ids.planted}`);
    expect(res.body.attachments).toEqual([
      expect.objectContaining({ id: ids.toAdmin, instance: ids.adminServer, status: 'attached' }),
    ]);
  });

  it("admin's server page and server list do not list it", async () => {
    const page = await operator.get(`/api/servers/${ids.adminServer}`);
    expect(page.status).toBe(200);
    expect(page.body.attachments).toEqual([]);
    const list = await operator.get('/api/servers?all=1');
    const payroll = list.body.servers.find((s: Body) => s.id === ids.adminServer);
    expect(volumesOf(payroll)).toEqual([]);
  });

  it("the member's own server pages list only what Nova attached", async () => {
    expect(volumesOf((await member.get(`/api/servers/${ids.demoServer}`)).body)).toEqual([]);
    expect(volumesOf((await member.get(`/api/servers/${ids.demoHolder}`)).body)).toEqual([ids.mixed]);
    const list = (await member.get('/api/servers')).body.servers;
    expect(volumesOf(list.find((s: Body) => s.id === ids.demoServer))).toEqual([]);
    expect(volumesOf(list.find((s: Body) => s.id === ids.demoHolder))).toEqual([ids.mixed]);
  });

  it('pre-flight does not count it as the named server holding the volume', async () => {
    const byVolume = (await member.get(`/api/preflight/attach?volumeId=${ids.mixed}`)).body;
    const bystander = byVolume.candidates.find((c: Body) => c.id === ids.demoServer);
    expect(bystander).toMatchObject({ canAttach: true, reasons: [] });
    const holder = byVolume.candidates.find((c: Body) => c.id === ids.demoHolder);
    expect(holder.reasons.map((r: Body) => r.code)).toEqual(['already_attached']);

    const byServer = (await member.get(`/api/preflight/attach?serverId=${ids.demoServer}`)).body;
    const mixed = byServer.candidates.find((c: Body) => c.id === ids.mixed);
    expect(mixed).toMatchObject({ canAttach: true, reasons: [], attachments: { rw: 1, ro: 0 } });

    const admins = (await operator.get(`/api/preflight/attach?serverId=${ids.adminServer}`)).body;
    for (const c of admins.candidates) {
      expect(c.reasons.map((r: Body) => r.code)).not.toContain('already_attached');
    }
  });

  it.each([
    ['with the topology extension', () => operator],
    ['composed from standard APIs', () => operatorComposed],
  ])("admin's topology %s has no edge for it and does not count it", async (_how, client) => {
    const t = (await client().get('/api/topology')).body;
    const edges = t.edges.map((e: Body) => `${e.serverId}>${e.volumeId}`);
    expect(edges).not.toContain(`${ids.adminServer}>${ids.planted}`);
    expect(edges).not.toContain(`${ids.demoServer}>${ids.mixed}`);
    expect(edges).toContain(`${ids.demoHolder}>${ids.mixed}`);
    expect(t.volumes.map((v: Body) => v.id)).not.toContain(ids.planted);
    expect(t.volumes.find((v: Body) => v.id === ids.mixed)).toMatchObject({ rw: 1, ro: 0 });
    const filtered = (await client().get(`/api/topology?volume=${ids.planted}`)).body;
    expect(filtered.edges).toEqual([]);
    expect(filtered.servers).toEqual([]);
  });

  it.each([
    ['with the topology extension', () => member],
    ['composed from standard APIs', () => memberComposed],
  ])("the member's topology %s has no edge for it", async (_how, client) => {
    const t = (await client().get('/api/topology')).body;
    const edges = t.edges.map((e: Body) => `${e.serverId}>${e.volumeId}`);
    expect(edges).toEqual([`${ids.demoHolder}>${ids.mixed}`]);
    expect(t.volumes.find((v: Body) => v.id === ids.mixed)).toMatchObject({ rw: 1, ro: 0 });
  });

  it("the volume's page marks it as not known to the compute service", async () => {
    const mixed = (await member.get(`/api/volumes/${ids.mixed}`)).body;
    const byServer = Object.fromEntries(mixed.attachments.map((a: Body) => [a.serverId, a]));
    expect(byServer[ids.demoServer]).toMatchObject({ attachmentId: ids.toDemo, knownToCompute: false });
    expect(byServer[ids.demoHolder]).toMatchObject({ knownToCompute: true, mode: 'rw' });

    // Admin can ask Nova about its own server: not known. The member cannot see it: cannot tell.
    const asAdmin = (await operator.get(`/api/volumes/${ids.planted}`)).body;
    expect(asAdmin.attachments).toEqual([
      expect.objectContaining({
        serverId: ids.adminServer,
        attachmentId: ids.toAdmin,
        knownToCompute: false,
      }),
    ]);
    const asMember = (await member.get(`/api/volumes/${ids.planted}`)).body;
    expect(asMember.attachments).toEqual([
      expect.objectContaining({ serverId: ids.adminServer, serverName: null, knownToCompute: null }),
    ]);

    // The list view marks them the same way.
    const list = (await operator.get('/api/volumes?all=1')).body.volumes;
    const planted = list.find((v: Body) => v.id === ids.planted);
    expect(planted.attachments).toEqual([expect.objectContaining({ knownToCompute: false })]);
  });

  it('does not count it as a writer that needs the acknowledgement', async () => {
    // The mixed volume has one real writer (holder) and a planted rw record on bystander.
    const third = await demo.server('third');
    const res = await member.post(`/api/servers/${third}/attachments`, { volumeId: ids.mixed, mode: 'rw' });
    expect(res.status).toBe(409);
    expect(res.body.error.details.writers).toEqual([{ serverId: ids.demoHolder, serverName: 'holder' }]);
  });
});
