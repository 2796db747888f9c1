import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../cloud/test/helpers/compute-fixtures.js';
import { preflightService } from '../src/features/preflight/preflight.service.js';
import { cloudData, sessionOfClient } from './helpers/cloud-data.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let demo: Awaited<ReturnType<typeof cloudData>>;
let admin: Awaited<ReturnType<typeof cloudData>>;
let member: ApiClient;
let operator: ApiClient;

beforeAll(async () => {
  stack = await startStack();
  demo = await cloudData(stack, 'demo');
  admin = await cloudData(stack, 'admin');
  member = await stack.signIn('demo');
  operator = await stack.signIn('admin');
});
afterAll(async () => {
  await stack.close();
});

type Candidate = {
  id: string;
  canAttach: boolean;
  canAttachReadOnly: boolean;
  reasons: { code: string; message: string }[];
  readOnlyReasons?: { code: string; message: string }[];
  attachments?: { rw: number; ro: number };
  shared?: boolean;
};
const candidate = (body: { candidates: Candidate[] }, id: string): Candidate => {
  const c = body.candidates.find((x) => x.id === id);
  if (!c) throw new Error(`no candidate ${id}`);
  return c;
};
const codes = (c: Candidate) => c.reasons.map((r) => r.code);
const forVolume = (client: ApiClient, id: string) => client.get(`/api/preflight/attach?volumeId=${id}`);
const forServer = (client: ApiClient, id: string) => client.get(`/api/preflight/attach?serverId=${id}`);

describe('GET /api/preflight/attach for a volume (member)', () => {
  it('lists every project server: attachable ones, the holder already attached, busy and unattachable states', async () => {
    const shared = await demo.volume('pf-shared');
    const holder = await demo.server('pf-holder');
    const free = await demo.server('pf-free');
    await demo.attach(holder, shared, 'rw');
    const building = await createServer(stack.cloud, {
      projectId: demo.session.projectId,
      vmState: 'building',
      name: 'pf-building',
    });
    const rebooting = await createServer(stack.cloud, {
      projectId: demo.session.projectId,
      taskState: 'rebooting',
      name: 'pf-rebooting',
    });
    const offloaded = await createServer(stack.cloud, {
      projectId: demo.session.projectId,
      vmState: 'shelved_offloaded',
      host: null,
      name: 'pf-offloaded',
    });

    const res = await forVolume(member, shared);
    expect(res.status).toBe(200);
    expect(res.body.subject).toEqual({ kind: 'volume', id: shared, name: 'pf-shared' });
    expect(candidate(res.body, free)).toMatchObject({
      canAttach: true,
      canAttachReadOnly: true,
      reasons: [],
    });
    expect(codes(candidate(res.body, holder))).toEqual(['already_attached']);
    expect(candidate(res.body, building.id)).toMatchObject({ canAttach: false, status: 'BUILD' });
    expect(codes(candidate(res.body, building.id))).toEqual(['server_state']);
    expect(candidate(res.body, rebooting.id).reasons[0]?.message).toMatch(/busy \(rebooting\)/);
    // Shelved-offloaded servers refuse shared volumes, as Nova does.
    expect(candidate(res.body, offloaded.id).reasons).toEqual([
      {
        code: 'server_state',
        message: 'Attaching multiattach volumes is not supported for shelved-offloaded instances.',
      },
    ]);
    // A member cannot see hosts: the answer says so rather than guessing.
    expect(res.body.unchecked.map((u: { code: string }) => u.code)).toEqual([
      'host_no_multiattach',
      'host_too_old_for_modes',
    ]);
    expect(res.text).not.toMatch(/compute-\d|os-extended|OS-EXT/);

    // What the preflight says is what the cloud does.
    expect((await demo.tryAttach(offloaded.id, shared)).status).toBe(400);
    expect((await demo.tryAttach(holder, shared)).status).toBe(400);
    expect((await demo.tryAttach(building.id, shared)).status).toBe(409);
  });

  it('refuses a plain volume held by another server, and one in a bad state', async () => {
    const plain = await demo.volume('pf-plain', { shared: false });
    const a = await demo.server('pf-a');
    const b = await demo.server('pf-b');
    await demo.attach(a, plain);
    const res = await forVolume(member, plain);
    expect(codes(candidate(res.body, a))).toEqual(['already_attached']);
    expect(codes(candidate(res.body, b))).toEqual(['volume_not_shared']);
    expect((await demo.tryAttach(b, plain)).status).toBe(400);

    const broken = await demo.volume('pf-broken', { shared: false });
    await stack.cloud.cloud.deps.store.db
      .updateTable('volumes')
      .set({ status: 'error' })
      .where('id', '=', broken)
      .execute();
    const bad = await forVolume(member, broken);
    expect(candidate(bad.body, b).reasons).toEqual([
      {
        code: 'volume_status',
        message: "Volume 'pf-broken' is in an error state (error) and cannot be attached.",
      },
    ]);
  });

  it("predicts but never blocks: statuses are the cloud's to judge, its refusal comes back in its words", async () => {
    const b = await demo.server('pf-status-b');
    const setStatus = (id: string, status: string) =>
      stack.cloud.cloud.deps.store.db.updateTable('volumes').set({ status }).where('id', '=', id).execute();
    // Cinder reserves a volume that is still downloading its image: the pre-flight lets it through.
    const downloading = await demo.volume('pf-downloading', { shared: false });
    await setStatus(downloading, 'downloading');
    const ok = await forVolume(member, downloading);
    expect(candidate(ok.body, b)).toMatchObject({ canAttach: true, reasons: [] });
    expect((await demo.tryAttach(b, downloading)).status).toBe(202);

    // A status the pre-flight does not list: offered, and the attach passes on Cinder's refusal.
    const c = await demo.server('pf-status-c');
    const busy = await demo.volume('pf-maintenance', { shared: false });
    await setStatus(busy, 'maintenance');
    expect(candidate((await forVolume(member, busy)).body, c)).toMatchObject({ canAttach: true });
    const refused = await member.post(`/api/servers/${c}/attachments`, { volumeId: busy });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'cloud_rejected', details: { status: 400 } });
    expect(refused.body.error.message).toMatch(/maintenance/);
  });

  it("keeps members to their project: another project's volume is 404", async () => {
    const adminVol = await admin.volume('pf-admin-only');
    const res = await forVolume(member, adminVol);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('GET /api/preflight/attach for a server', () => {
  it('lists candidate volumes with their rw/ro counts and whether they are shared', async () => {
    const shared = await demo.volume('pfs-shared');
    const plain = await demo.volume('pfs-plain', { shared: false });
    const s1 = await demo.server('pfs-1');
    const s2 = await demo.server('pfs-2');
    const s3 = await demo.server('pfs-3');
    await demo.attach(s1, shared, 'rw');
    await demo.attach(s2, shared, 'ro');
    await demo.attach(s1, plain);
    const res = await forServer(member, s3);
    expect(res.status).toBe(200);
    expect(res.body.subject).toEqual({ kind: 'server', id: s3, name: 'pfs-3' });
    expect(candidate(res.body, shared)).toMatchObject({
      canAttach: true,
      canAttachReadOnly: true,
      attachments: { rw: 1, ro: 1 },
      shared: true,
      status: 'in-use',
    });
    expect(candidate(res.body, plain)).toMatchObject({
      canAttach: false,
      attachments: { rw: 1, ro: 0 },
      shared: false,
    });
    expect(codes(candidate(res.body, plain))).toEqual(['volume_not_shared']);
    const own = await forServer(member, s2);
    expect(codes(candidate(own.body, shared))).toEqual(['already_attached']);
  });

  it('validates the query with the shared schema, and needs a session', async () => {
    const none = await member.get('/api/preflight/attach');
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('invalid_request');
    const both = await member.get('/api/preflight/attach?volumeId=a&serverId=b');
    expect(both.status).toBe(400);
    const repeated = await member.get('/api/preflight/attach?volumeId=a&volumeId=b');
    expect(repeated.status).toBe(400);
    const unknown = await forServer(member, '00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await stack.client().get('/api/preflight/attach?volumeId=x')).status).toBe(401);
  });
});

describe('host rules (admins see the hosts)', () => {
  it('refuses a shared volume on a host that cannot share disks and read-only on a host too old', async () => {
    const shared = await admin.volume('pfh-shared');
    const current = await admin.server('pfh-current', { host: 'compute-1' });
    const old = await admin.server('pfh-old', { host: 'compute-old' });
    const ironic = await admin.server('pfh-ironic', { host: 'ironic-1' });
    const res = await forVolume(operator, shared);
    expect(res.status).toBe(200);
    expect(res.body.unchecked).toBeUndefined();
    expect(candidate(res.body, current)).toMatchObject({ canAttach: true, canAttachReadOnly: true });
    expect(candidate(res.body, old)).toMatchObject({
      canAttach: true,
      canAttachReadOnly: false,
      reasons: [],
      readOnlyReasons: [{ code: 'host_too_old_for_modes' }],
    });
    expect(candidate(res.body, old).readOnlyReasons?.[0]?.message).toContain('compute-old');
    expect(candidate(res.body, ironic)).toMatchObject({ canAttach: false, canAttachReadOnly: false });
    expect(codes(candidate(res.body, ironic))).toEqual(['host_no_multiattach']);

    // The cloud agrees: 409 for ro on the old host, 400 on ironic, rw on the old host is accepted.
    expect((await admin.tryAttach(old, shared, 'ro')).status).toBe(409);
    expect((await admin.tryAttach(ironic, shared)).status).toBe(400);
    expect((await admin.tryAttach(old, shared, 'rw')).status).toBe(202);

    // A plain volume is fine on ironic: only sharing needs the driver.
    const plain = await admin.volume('pfh-plain', { shared: false });
    const fromServer = await forServer(operator, ironic);
    expect(candidate(fromServer.body, plain)).toMatchObject({ canAttach: true });
  });
});

describe('what the cloud lacks', () => {
  it('below 2.60 shared volumes are refused, below 2.105 read-only is, each with the reason', async () => {
    const client = await stack.signIn('demo');
    const session = await sessionOfClient(stack, client.cookie);
    await stack.sessions.set({
      ...session,
      capabilities: {
        ...session.capabilities,
        compute: { minVersion: '2.1', maxVersion: '2.59' },
        multiattach: false,
        multiattachEnhancements: false,
        readOnlyAttach: { available: false, reason: 'This cloud stops at 2.59; read-only needs 2.105.' },
      },
    });
    const shared = await demo.volume('pfm-shared');
    const plain = await demo.volume('pfm-plain', { shared: false });
    const s = await demo.server('pfm-server');
    const res = await forServer(client, s);
    expect(res.status).toBe(200);
    expect(candidate(res.body, shared)).toMatchObject({
      canAttach: false,
      reasons: [{ code: 'microversion', message: expect.stringContaining('2.60') }],
    });
    expect(candidate(res.body, plain)).toMatchObject({
      canAttach: true,
      canAttachReadOnly: false,
      readOnlyReasons: [
        { code: 'microversion', message: 'This cloud stops at 2.59; read-only needs 2.105.' },
      ],
    });
    expect(res.body.unchecked.map((u: { code: string }) => u.code)).toEqual(['host_no_multiattach']);
  });

  it('reports availability zones only when the cloud refuses cross-zone attaches (configured)', async () => {
    const session = await sessionOfClient(stack, member.cookie);
    const volume = await demo.volume('pfz-vol');
    const far = await createServer(stack.cloud, { projectId: demo.session.projectId, name: 'pfz-far' });
    await stack.cloud.cloud.deps.store.db
      .updateTable('servers')
      .set({ availability_zone: 'az2' })
      .where('id', '=', far.id)
      .execute();
    // Nova's default (cross_az_attach = True): zones are no reason.
    const byDefault = await forVolume(member, volume);
    expect(candidate(byDefault.body, far.id).canAttach).toBe(true);
    const strict = await preflightService({ crossAzAttach: false }).check(session, { volumeId: volume });
    const c = strict.candidates.find((x) => x.id === far.id);
    expect(c?.reasons).toEqual([
      {
        code: 'availability_zone',
        message:
          "Server 'pfz-far' is in availability zone az2 and volume 'pfz-vol' in nova; this cloud does not attach volumes across zones.",
      },
    ]);
  });
});
