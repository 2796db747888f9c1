import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { attachmentRows } from '../../cloud/test/helpers/volume-fixtures.js';
import { capabilitiesFor } from '../src/openstack/discovery.js';
import { cloudData, sessionOfClient } from './helpers/cloud-data.js';
import { launchBody, waitForLaunch } from './helpers/launch.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let demo: ApiClient;
let data: Awaited<ReturnType<typeof cloudData>>;

beforeAll(async () => {
  stack = await startStack();
  demo = await stack.signIn('demo');
  data = await cloudData(stack, 'demo');
});
afterAll(async () => {
  await stack.close();
});

/** A volume made by the demo user through Cinder; bootable ones are made from the seeded image. */
async function volume(name: string, opts: { shared?: boolean; bootable?: boolean } = {}) {
  const res = await data.cinder('POST', '/volumes', {
    volume: {
      name,
      size: 1,
      ...(opts.shared === false ? {} : { volume_type: 'multiattach' }),
      ...(opts.bootable ? { imageRef: SEED_IMAGE_ID } : {}),
    },
  });
  await stack.cloud.settle();
  return res.body.volume.id as string;
}

const serverCount = async () => (await data.nova('GET', '/servers')).body.servers.length as number;

describe('launch with one multi-create request (compute 2.105)', () => {
  it('boots 5 servers from one shared volume with a second shared volume read-only', async () => {
    const root = await volume('root', { bootable: true });
    const shared = await volume('shared-data');
    const res = await demo.post(
      '/api/launches',
      launchBody({
        name: 'web',
        count: 5,
        boot: { source: 'volume', volumeId: root },
        dataVolumes: [{ volumeId: shared, mode: 'ro' }],
      }),
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/api/launches/${res.body.id}`);
    expect(res.body).toMatchObject({ strategy: 'multi-create', status: 'running' });
    expect(res.body.servers).toHaveLength(5);

    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done.status).toBe('succeeded');
    expect(done.reservationId).toMatch(/^r-[0-9a-z]{8}$/);
    expect(done.summary).toBe('All 5 servers are active.');
    expect(done.finishedAt).not.toBeNull();
    expect(done.servers.map((s: { name: string }) => s.name)).toEqual([
      'web-1',
      'web-2',
      'web-3',
      'web-4',
      'web-5',
    ]);
    for (const s of done.servers) {
      expect(s).toMatchObject({ state: 'active', status: 'ACTIVE', error: null, host: null });
      expect(s.attachments).toEqual([
        { volumeId: root, mode: 'rw', state: 'attached', device: '/dev/vda' },
        { volumeId: shared, mode: 'ro', state: 'attached', device: '/dev/vdb' },
      ]);
    }
    // What the cloud holds: one attachment per server on each volume, in the asked mode.
    const ids = new Set(done.servers.map((s: { serverId: string }) => s.serverId));
    expect(ids.size).toBe(5);
    const rootRows = await attachmentRows(stack.cloud, root);
    const dataRows = await attachmentRows(stack.cloud, shared);
    expect(new Set(rootRows.map((a) => a.instance_uuid))).toEqual(ids);
    expect(new Set(dataRows.map((a) => a.instance_uuid))).toEqual(ids);
    expect(dataRows.every((a) => a.attach_mode === 'ro' && a.attach_status === 'attached')).toBe(true);
    expect(rootRows.every((a) => a.attach_mode === 'rw')).toBe(true);

    const list = await demo.get('/api/launches');
    expect(list.status).toBe(200);
    expect(list.body.launches[0].id).toBe(done.id);
  });

  it('boots from an image with a shared data volume, one server keeping its name', async () => {
    const shared = await volume('one-data');
    const res = await demo.post(
      '/api/launches',
      launchBody({
        name: 'solo',
        boot: { source: 'image', imageId: SEED_IMAGE_ID },
        dataVolumes: [{ volumeId: shared }],
      }),
    );
    expect(res.status).toBe(202);
    const done = (await waitForLaunch(demo, res.body.id)).body;
    expect(done.status).toBe('succeeded');
    expect(done.servers[0]).toMatchObject({ name: 'solo', state: 'active' });
    expect(done.servers[0].attachments).toEqual([
      { volumeId: shared, mode: 'rw', state: 'attached', device: '/dev/vdb' },
    ]);
  });

  it('shows admins the host each server landed on', async () => {
    const admin = await stack.signIn('admin');
    const adminData = await cloudData(stack, 'admin');
    const v = await adminData.cinder('POST', '/volumes', {
      volume: { name: 'adm', size: 1, volume_type: 'multiattach', imageRef: SEED_IMAGE_ID },
    });
    await stack.cloud.settle();
    const res = await admin.post(
      '/api/launches',
      launchBody({ name: 'ops', count: 2, boot: { source: 'volume', volumeId: v.body.volume.id } }),
    );
    const done = (await waitForLaunch(admin, res.body.id)).body;
    expect(done.status).toBe('succeeded');
    for (const s of done.servers) expect(s.host).toMatch(/^compute-/);
    // A member of another project cannot read it.
    expect((await demo.get(`/api/launches/${done.id}`)).status).toBe(404);
  });
});

describe('change events', () => {
  it('announces the launch, its servers and their attachments on the event stream', async () => {
    const root = await volume('evt-root', { bootable: true });
    const controller = new AbortController();
    const stream = await fetch(`${stack.bffUrl}/api/events`, {
      headers: { Cookie: demo.cookie!, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    const res = await demo.post(
      '/api/launches',
      launchBody({ name: 'evt', count: 2, boot: { source: 'volume', volumeId: root } }),
    );
    const seen = new Map<string, string[]>();
    let text = '';
    const decoder = new TextDecoder();
    while (!(seen.has('launch') && seen.has('servers') && seen.has('attachments'))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (const m of text.matchAll(/^data: (.+)$/gm)) {
        const e = JSON.parse(m[1]!) as { kind: string; ids: string[] };
        seen.set(e.kind, [...(seen.get(e.kind) ?? []), ...e.ids]);
      }
    }
    controller.abort();
    expect(seen.get('launch')).toContain(res.body.id);
    const done = (await waitForLaunch(demo, res.body.id)).body;
    for (const s of done.servers) expect(seen.get('servers')).toContain(s.serverId);
    expect(seen.get('attachments')).toContain(root);
  });
});

describe('the plan', () => {
  it('says what it will send and finds nothing wrong with a good request', async () => {
    const root = await volume('plan-root', { bootable: true });
    const before = await serverCount();
    const res = await demo.post(
      '/api/launches/plan',
      launchBody({ count: 3, boot: { source: 'volume', volumeId: root } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ strategy: 'multi-create', ok: true, problems: [] });
    expect(res.body.strategyReason).toMatch(/2\.105/);
    expect(res.body.requests[0]).toMatch(/^POST \/servers at compute 2\.105 \(min_count=max_count=3/);
    expect(res.body.requests[1]).toMatch(/reservation_id/);
    expect(await serverCount()).toBe(before);
  });

  it('finds the problems up front: not shared with count > 1, not bootable, unknown flavor and zone', async () => {
    const plainRoot = await volume('plain-root', { shared: false, bootable: true });
    const notBootable = await volume('blank');
    const plainData = await volume('plain-data', { shared: false });
    const before = await serverCount();
    const body = launchBody({
      count: 2,
      flavorId: 'nope',
      availabilityZone: 'atlantis',
      boot: { source: 'volume', volumeId: plainRoot },
      dataVolumes: [{ volumeId: plainData }],
    });
    const plan = await demo.post('/api/launches/plan', body);
    expect(plan.status).toBe(200);
    expect(plan.body.ok).toBe(false);
    const fields = plan.body.problems.map((p: { field: string }) => p.field);
    expect(fields).toEqual(['flavorId', 'boot.volumeId', 'dataVolumes.0.volumeId', 'availabilityZone']);
    expect(plan.body.problems[1].message).toMatch(/plain-root is not a shared \(multiattach\) volume/);

    const bootPlan = await demo.post(
      '/api/launches/plan',
      launchBody({ boot: { source: 'volume', volumeId: notBootable } }),
    );
    expect(bootPlan.body.problems).toEqual([
      { field: 'boot.volumeId', message: 'Volume blank is not bootable.' },
    ]);

    // Starting it anyway is a 400 with the same problems, and nothing is created.
    const start = await demo.post('/api/launches', body);
    expect(start.status).toBe(400);
    expect(start.body.error.code).toBe('launch_not_possible');
    expect(start.body.error.details.fields['boot.volumeId']).toMatch(/not a shared/);
    expect(start.body.error.details.problems).toHaveLength(4);
    expect(await serverCount()).toBe(before);
  });

  it('refuses read-only and shared volumes on clouds that cannot do them, and plans the fallback', async () => {
    const c = await stack.signIn('demo');
    const session = await sessionOfClient(stack, c.cookie);
    // The same session, as if the cloud stopped at 2.93 (a plain Zed-era Nova).
    const volumeRange = {
      min: session.capabilities.volume.minVersion,
      max: session.capabilities.volume.maxVersion,
    };
    const old = capabilitiesFor({ min: '2.1', max: '2.93' }, volumeRange, false, false);
    await stack.sessions.set({ ...session, capabilities: old });
    const root = await volume('old-root', { bootable: true });
    const shared = await volume('old-data');
    const plan = await c.post(
      '/api/launches/plan',
      launchBody({
        count: 2,
        boot: { source: 'volume', volumeId: root },
        dataVolumes: [{ volumeId: shared, mode: 'ro' }],
      }),
    );
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.strategy).toBe('serial');
    expect(plan.body.problems).toEqual([
      {
        field: 'dataVolumes.0.mode',
        message: expect.stringMatching(/stops at 2\.93; read-only attachments need 2\.105/),
      },
    ]);
    expect(plan.body.requests[0]).toMatch(/^POST \/servers at compute 2\.93, 2 times, one server each/);
    expect(plan.body.requests[2]).toMatch(
      /os-volume_attachments at compute 2\.93 on each server once it is ACTIVE, up to 4 at once/,
    );

    // Read-write works there: single creates at 2.93, then one attach at a time.
    const res = await c.post(
      '/api/launches',
      launchBody({
        name: 'zed',
        count: 2,
        boot: { source: 'volume', volumeId: root },
        dataVolumes: [{ volumeId: shared }],
      }),
    );
    expect(res.status).toBe(202);
    const done = (await waitForLaunch(c, res.body.id)).body;
    expect(done).toMatchObject({ strategy: 'serial', status: 'succeeded', reservationId: null });
    for (const s of done.servers) {
      expect(s.attachments.map((a: { state: string }) => a.state)).toEqual(['attached', 'attached']);
    }

    const older = capabilitiesFor({ min: '2.1', max: '2.59' }, volumeRange, false, false);
    await stack.sessions.set({ ...session, capabilities: older });
    const below = await c.post(
      '/api/launches/plan',
      launchBody({ boot: { source: 'volume', volumeId: root } }),
    );
    expect(below.body.problems[0].message).toMatch(/attaches shared volumes only from 2\.60/);
  });
});

describe('validation and access', () => {
  it('answers a malformed request with 400 and the fields at fault', async () => {
    const res = await demo.post('/api/launches', {
      name: '',
      count: 0,
      flavorId: '1',
      boot: { source: 'disk' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(Object.keys(res.body.error.details.fields).sort()).toEqual(['boot.source', 'count', 'name']);
    const dup = await demo.post(
      '/api/launches/plan',
      launchBody({
        boot: { source: 'image', imageId: SEED_IMAGE_ID },
        dataVolumes: [{ volumeId: 'a' }, { volumeId: 'a' }],
      }),
    );
    expect(dup.status).toBe(400);
    expect(dup.body.error.details.fields).toEqual({ dataVolumes: 'A volume can be added only once' });
  });

  it('needs a session and the CSRF token', async () => {
    const anon = await stack.client().post('/api/launches', launchBody({}));
    expect(anon.status).toBe(401);
    const res = await demo.request('POST', '/api/launches', launchBody({}), { 'X-CSRF-Token': 'wrong' });
    expect(res.status).toBe(403);
    expect((await demo.get('/api/launches/no-such-launch')).status).toBe(404);
  });

  it("does not let a member launch on another project's volume", async () => {
    const adminData = await cloudData(stack, 'admin');
    const theirs = await adminData.cinder('POST', '/volumes', {
      volume: { name: 'theirs', size: 1, volume_type: 'multiattach', imageRef: SEED_IMAGE_ID },
    });
    await stack.cloud.settle();
    const id = theirs.body.volume.id as string;
    const before = await serverCount();
    const res = await demo.post(
      '/api/launches',
      launchBody({
        count: 2,
        boot: { source: 'image', imageId: SEED_IMAGE_ID },
        dataVolumes: [{ volumeId: id }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual({
      'dataVolumes.0.volumeId': `Volume ${id} was not found in this project.`,
    });
    expect(await serverCount()).toBe(before);
    expect(await attachmentRows(stack.cloud, id)).toEqual([]);
  });
});
