import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudFor } from '../src/openstack/cloud-client.js';
import { listProjectNames, projectNamesFor } from '../src/openstack/project-names.js';
import { composedTopology } from '../src/features/topology/topology.service.js';
import { cloudData, sessionOfClient } from './helpers/cloud-data.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let member: ApiClient;
let operator: ApiClient;
/** The same users with the capability flag off: the BFF composes the graph itself. */
let memberComposed: ApiClient;
let operatorComposed: ApiClient;
let demoProject: string;
let adminProject: string;
const ids = {} as Record<'d1' | 'd2' | 'd3' | 'a1' | 'shared' | 'plain' | 'stuck' | 'adminVol', string>;

async function withoutExtension(client: ApiClient): Promise<void> {
  const session = await sessionOfClient(stack, client.cookie);
  await stack.sessions.set({
    ...session,
    capabilities: { ...session.capabilities, topologyExtension: false },
  });
}

beforeAll(async () => {
  stack = await startStack();
  const demo = await cloudData(stack, 'demo');
  const admin = await cloudData(stack, 'admin');
  demoProject = demo.session.projectId;
  adminProject = admin.session.projectId;
  // demo: a shared volume with two writers and a reader, a plain volume, and an attach stuck in 'attaching'.
  ids.d1 = await demo.server('d1');
  ids.d2 = await demo.server('d2');
  ids.d3 = await demo.server('d3');
  ids.shared = await demo.volume('shared');
  ids.plain = await demo.volume('plain', { shared: false });
  ids.stuck = await demo.volume('stuck', { shared: false });
  await demo.attach(ids.d1, ids.shared, 'rw');
  await demo.attach(ids.d2, ids.shared, 'rw');
  await demo.attach(ids.d3, ids.shared, 'ro');
  await demo.attach(ids.d1, ids.plain);
  await demo.attach(ids.d3, ids.stuck);
  // admin: one server pinned to compute-3 holding its own volume.
  ids.a1 = await admin.server('a1', { host: 'compute-3' });
  ids.adminVol = await admin.volume('admin-vol', { shared: false });
  await admin.attach(ids.a1, ids.adminVol);

  // The stuck one: its Cinder attachment went to 'attaching' ten minutes ago and never finished.
  const db = stack.cloud.cloud.deps.store.db;
  const tenMinutesAgo = new Date(Date.now() - 600_000).toISOString();
  await db
    .updateTable('volume_attachments')
    .set({ attach_status: 'attaching', updated_at: tenMinutesAgo })
    .where('volume_id', '=', ids.stuck)
    .execute();
  await db
    .updateTable('volumes')
    .set({ status: 'attaching', attach_status: 'attaching', updated_at: tenMinutesAgo })
    .where('id', '=', ids.stuck)
    .execute();

  member = await stack.signIn('demo');
  operator = await stack.signIn('admin');
  memberComposed = await stack.signIn('demo');
  operatorComposed = await stack.signIn('admin');
  await withoutExtension(memberComposed);
  await withoutExtension(operatorComposed);
});
afterAll(async () => {
  await stack.close();
});

// biome-ignore lint/suspicious/noExplicitAny: reading response bodies
type Body = any;
const sorted = (xs: string[]) => [...xs].sort();
const serverIds = (t: Body) => sorted(t.servers.map((s: { id: string }) => s.id));
const edgeKeys = (t: Body) =>
  sorted(t.edges.map((e: Body) => `${e.serverId}>${e.volumeId}:${e.mode}:${e.state}`));
const volumeCounts = (t: Body) =>
  Object.fromEntries(t.volumes.map((v: Body) => [v.id, { rw: v.rw, ro: v.ro, shared: v.shared }]));
const riskKeys = (t: Body) =>
  t.risks.map((r: Body) => `${r.kind}:${r.volumeId}:${sorted(r.serverIds).join(',')}`);

/** What both paths must agree on. */
const essence = (t: Body) => ({
  hostNamesHidden: t.hostNamesHidden,
  servers: serverIds(t),
  edges: edgeKeys(t),
  volumes: volumeCounts(t),
  risks: riskKeys(t),
  hosts: sorted(t.hosts.map((h: Body) => `${h.id}:${sorted(h.serverIds).join(',')}`)),
});

describe('GET /api/topology for an admin', () => {
  it('shows the whole cloud from the extension, with host capabilities and both risks', async () => {
    const res = await operator.get('/api/topology');
    expect(res.status).toBe(200);
    const t = res.body;
    expect(t.source).toBe('extension');
    expect(t.hostNamesHidden).toBe(false);
    expect(t.hosts.map((h: Body) => h.id).sort()).toEqual([
      'compute-1',
      'compute-2',
      'compute-3',
      'compute-old',
      'ironic-1',
    ]);
    expect(t.hosts.find((h: Body) => h.id === 'compute-3')).toMatchObject({
      zone: 'az2',
      serverIds: expect.arrayContaining([ids.a1]),
      supportsMultiattach: true,
      supportsAttachModes: true,
    });
    expect(t.hosts.find((h: Body) => h.id === 'ironic-1').supportsMultiattach).toBe(false);
    expect(t.hosts.find((h: Body) => h.id === 'compute-old').supportsAttachModes).toBe(false);
    expect(serverIds(t)).toEqual(sorted([ids.d1, ids.d2, ids.d3, ids.a1]));
    expect(t.servers.find((s: Body) => s.id === ids.a1)).toMatchObject({
      hostId: 'compute-3',
      projectId: adminProject,
    });
    expect(volumeCounts(t)[ids.shared]).toEqual({ rw: 2, ro: 1, shared: true });
    expect(t.edges.find((e: Body) => e.serverId === ids.d3 && e.volumeId === ids.shared)).toMatchObject({
      mode: 'ro',
      state: 'attached',
      device: expect.stringMatching(/^\/dev\/vd/),
      attachmentId: expect.any(String),
    });
    expect(riskKeys(t)).toEqual([
      `multiple_writers:${ids.shared}:${sorted([ids.d1, ids.d2]).join(',')}`,
      `stuck_attachment:${ids.stuck}:${ids.d3}`,
    ]);
    const stuck = t.risks[1];
    expect(stuck).toMatchObject({ state: 'attaching', since: expect.any(String) });
    expect(stuck.message).toMatch(/'attaching'/);
    expect(res.text).not.toMatch(/host_ids_hashed|attach_status|os-vol/);
  });

  it('composes the same graph from standard APIs when the cloud has no extension', async () => {
    const ext = await operator.get('/api/topology');
    const composed = await operatorComposed.get('/api/topology');
    expect(composed.status).toBe(200);
    expect(composed.body.source).toBe('composed');
    expect(essence(composed.body)).toEqual(essence(ext.body));
    expect(composed.body.hosts.find((h: Body) => h.id === 'ironic-1')).toMatchObject({
      zone: 'az2',
      supportsMultiattach: false,
    });
    const stuck = composed.body.risks.find((r: Body) => r.kind === 'stuck_attachment');
    expect(stuck).toMatchObject({ volumeId: ids.stuck, state: 'attaching' });
  });

  it.each([
    ['project', () => `?project=${demoProject}`, () => [ids.d1, ids.d2, ids.d3]],
    ['volume', () => `?volume=${ids.shared}`, () => [ids.d1, ids.d2, ids.d3]],
  ])('filters by %s, the same way on both paths', async (_name, query, expected) => {
    const ext = await operator.get(`/api/topology${query()}`);
    const composed = await operatorComposed.get(`/api/topology${query()}`);
    expect(serverIds(ext.body)).toEqual(sorted(expected()));
    expect(essence(composed.body)).toEqual(essence(ext.body));
  });

  it('filters by host, the same way on both paths', async () => {
    // The scheduler may have put demo servers there too.
    const all = await operator.get('/api/topology');
    const onHost = all.body.servers.filter((s: Body) => s.hostId === 'compute-3').map((s: Body) => s.id);
    expect(onHost).toContain(ids.a1);
    const ext = await operator.get('/api/topology?host=compute-3');
    expect(serverIds(ext.body)).toEqual(sorted(onHost));
    expect(ext.body.hosts.map((h: Body) => h.id)).toEqual(['compute-3']);
    const composed = await operatorComposed.get('/api/topology?host=compute-3');
    expect(essence(composed.body)).toEqual(essence(ext.body));
  });

  it('keeps whole-cloud counts under a filter, so a second writer is never hidden', async () => {
    const res = await operator.get(`/api/topology?volume=${ids.shared}`);
    expect(res.body.edges.every((e: Body) => e.volumeId === ids.shared)).toBe(true);
    expect(volumeCounts(res.body)).toEqual({ [ids.shared]: { rw: 2, ro: 1, shared: true } });
  });
});

describe('project names for the project filter', () => {
  it('names every project for an admin, from Keystone, on both paths (ids are not names)', async () => {
    for (const client of [operator, operatorComposed]) {
      const res = await client.get('/api/topology');
      expect(res.status).toBe(200);
      expect(res.body.projects).toEqual(
        expect.arrayContaining([
          { id: adminProject, name: 'admin' },
          { id: demoProject, name: 'demo' },
        ]),
      );
      // Whatever owns something in view has a name.
      const owners = new Set<string>(
        [...res.body.servers, ...res.body.volumes].map((x: Body) => x.projectId).filter(Boolean),
      );
      const named = new Set(res.body.projects.map((p: Body) => p.id));
      for (const id of owners) expect(named.has(id)).toBe(true);
    }
  });

  it("gives a member only their own project's name, without asking Keystone for the rest", async () => {
    const res = await member.get('/api/topology');
    expect(res.body.projects).toEqual([{ id: demoProject, name: 'demo' }]);
  });

  it("falls back to the admin's own projects when Keystone's policy refuses the list", async () => {
    // A Keystone that answers GET /v3/projects with its 403.
    const refusing = createServer((_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 403,
            title: 'Forbidden',
            message: 'You are not authorized to perform the requested action: identity:list_projects.',
          },
        }),
      );
    });
    await new Promise<void>((ok) => refusing.listen(0, '127.0.0.1', () => ok()));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v3`;
      const session = await sessionOfClient(stack, operator.cookie);
      expect(await listProjectNames(url, session.token)).toBeNull();
      expect(await projectNamesFor(session, url)).toEqual(session.projects);
    } finally {
      refusing.close();
    }
  });
});

describe('GET /api/topology for a member', () => {
  it('shows only the project, with hashed host ids and no host facts, on both paths', async () => {
    const ext = await member.get('/api/topology');
    expect(ext.status).toBe(200);
    expect(ext.body.hostNamesHidden).toBe(true);
    expect(serverIds(ext.body)).toEqual(sorted([ids.d1, ids.d2, ids.d3]));
    expect(ext.text).not.toMatch(/compute-|ironic/);
    for (const h of ext.body.hosts) {
      expect(h.id).toMatch(/^[0-9a-f]{56}$/);
      expect(h.name).toBe(`host ${h.id.slice(0, 8)}`);
      expect(h.supportsMultiattach).toBeUndefined();
    }
    expect(riskKeys(ext.body)).toHaveLength(2);

    const composed = await memberComposed.get('/api/topology');
    expect(composed.body.source).toBe('composed');
    expect(essence(composed.body)).toEqual(essence(ext.body));
    expect(composed.text).not.toMatch(/compute-|ironic/);
  });

  it("filters by the member's hashed host id and by volume", async () => {
    const all = await member.get('/api/topology');
    const host = all.body.servers.find((s: Body) => s.id === ids.d1).hostId as string;
    for (const client of [member, memberComposed]) {
      const res = await client.get(`/api/topology?host=${host}`);
      expect(res.body.servers.every((s: Body) => s.hostId === host)).toBe(true);
      expect(res.body.hosts.map((h: Body) => h.id)).toEqual([host]);
      const byVolume = await client.get(`/api/topology?volume=${ids.plain}`);
      expect(serverIds(byVolume.body)).toEqual([ids.d1]);
    }
  });

  it("refuses another project's topology, a malformed query and a missing session", async () => {
    const other = await member.get(`/api/topology?project=${adminProject}`);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    expect((await member.get(`/api/topology?project=${demoProject}`)).status).toBe(200);
    const bad = await member.get('/api/topology?volume=a&volume=b');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect((await stack.client().get('/api/topology')).status).toBe(401);
  });
});

describe('the composed path, called directly', () => {
  it('flags a stuck attachment only after the threshold', async () => {
    const session = await sessionOfClient(stack, member.cookie);
    const cloud = cloudFor(session);
    const now = await composedTopology(cloud, {});
    expect(now.risks.some((r) => r.kind === 'stuck_attachment')).toBe(true);
    // Seen from eleven minutes ago, the same attachment has only just started.
    const earlier = await composedTopology(cloud, {}, new Date(Date.now() - 660_000));
    expect(earlier.risks.some((r) => r.kind === 'stuck_attachment')).toBe(false);
  });
});
