import type { AttachMode } from '@sv/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '@sv/shared';
import { attachmentsService } from '../src/features/attachments/attachments.service.js';
import { ApiError } from '../src/platform/errors.js';
import { ChangeBus } from '../src/platform/events.js';
import type { SessionData } from '../src/platform/session-store.js';
import { inventory } from './helpers/inventory.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let inv: ReturnType<typeof inventory>;
let demo: ApiClient;
beforeAll(async () => {
  stack = await startStack();
  inv = inventory(stack);
  await inv.modernHostsOnly();
  demo = await stack.signIn('demo');
});
afterAll(async () => {
  await stack?.close();
});

const sessionOf = async (c: ApiClient): Promise<SessionData> => {
  const id = decodeURIComponent(c.cookie!.split('=')[1]!);
  return (await stack.sessions.get(id))!;
};

describe('attach and detach', () => {
  it('attaches read-write and returns the new attachment', async () => {
    const srv = await inv.server('demo', 'a1');
    const vol = await inv.volume('demo', 'v1');
    const res = await demo.post(`/api/servers/${srv}/attachments`, { volumeId: vol });
    expect(res.status).toBe(201);
    // The answer is what the cloud accepted (no reads after the attach: the pages refetch).
    expect(res.body).toMatchObject({
      serverId: srv,
      volumeId: vol,
      mode: 'rw',
      state: 'reserved',
      host: null,
    });
    await stack.cloud.settle();
    const detail = await demo.get(`/api/volumes/${vol}`);
    expect(detail.body.attachments).toEqual([
      expect.objectContaining({
        serverId: srv,
        serverName: 'a1',
        volumeId: vol,
        volumeName: 'v1',
        mode: 'rw',
        state: 'attached',
        attachmentId: expect.any(String),
        device: expect.stringMatching(/^\/dev\/vd/),
        host: null,
      }),
    ]);
  });

  it('refuses a second writer on a shared volume until acknowledged', async () => {
    const [s1, s2, s3] = [
      await inv.server('demo', 'w1'),
      await inv.server('demo', 'w2'),
      await inv.server('demo', 'w3'),
    ];
    const vol = await inv.volume('demo', 'shared-1', { shared: true });
    expect((await demo.post(`/api/servers/${s1}/attachments`, { volumeId: vol, mode: 'rw' })).status).toBe(
      201,
    );
    await stack.cloud.settle();

    const refused = await demo.post(`/api/servers/${s2}/attachments`, { volumeId: vol, mode: 'rw' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('multiple_writers_unacknowledged');
    expect(refused.body.error.message).toMatch(/cluster file system/);
    expect(refused.body.error.message).toMatch(/w1/);
    expect(refused.body.error.details.writers).toEqual([{ serverId: s1, serverName: 'w1' }]);

    // Read-only needs no acknowledgement.
    const ro = await demo.post(`/api/servers/${s3}/attachments`, { volumeId: vol, mode: 'ro' });
    expect(ro.status).toBe(201);
    expect(ro.body.mode).toBe('ro');

    const acked = await demo.post(`/api/servers/${s2}/attachments`, {
      volumeId: vol,
      mode: 'rw',
      acknowledgeMultipleWriters: true,
    });
    expect(acked.status).toBe(201);
    expect(acked.body.mode).toBe('rw');
    await stack.cloud.settle();

    const detail = await demo.get(`/api/volumes/${vol}`);
    const modes = Object.fromEntries(
      detail.body.attachments.map((a: { serverName: string; mode: string }) => [a.serverName, a.mode]),
    );
    expect(modes).toEqual({ w1: 'rw', w2: 'rw', w3: 'ro' });
  });

  it('shows a read-only attach as ro in the volume detail and the server detail', async () => {
    const srv = await inv.server('demo', 'reader');
    const vol = await inv.volume('demo', 'ro-vol', { shared: true });
    const res = await demo.post(`/api/servers/${srv}/attachments`, { volumeId: vol, mode: 'ro' });
    expect(res.status).toBe(201);
    await stack.cloud.settle();
    const v = await demo.get(`/api/volumes/${vol}`);
    expect(v.body.attachments).toEqual([
      expect.objectContaining({ serverId: srv, mode: 'ro', state: 'attached' }),
    ]);
    const s = await demo.get(`/api/servers/${srv}`);
    expect(s.body.attachments).toEqual([expect.objectContaining({ volumeId: vol, mode: 'ro' })]);
  });

  it("passes on Nova's refusal to attach a plain in-use volume to a second server (4xx, cloud's message)", async () => {
    const s1 = await inv.server('demo', 'p1');
    const s2 = await inv.server('demo', 'p2');
    const vol = await inv.volume('demo', 'plain');
    expect((await demo.post(`/api/servers/${s1}/attachments`, { volumeId: vol })).status).toBe(201);
    await stack.cloud.settle();
    const res = await demo.post(`/api/servers/${s2}/attachments`, {
      volumeId: vol,
      acknowledgeMultipleWriters: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'cloud_rejected',
      message: `Invalid volume: volume ${vol} is already attached to instances: ${s1}`,
      details: { service: 'compute', status: 400 },
    });
  });

  it("passes on Nova's 409 for a read-only attach on a host too old for attach modes", async () => {
    await (await import('../../cloud/test/api/compute/servers-fixtures.js')).onlyHosts(stack.cloud, [
      'compute-old',
    ]);
    try {
      const srv = await inv.server('demo', 'old-host');
      const vol = await inv.volume('demo', 'old-vol', { shared: true });
      const res = await demo.post(`/api/servers/${srv}/attachments`, { volumeId: vol, mode: 'ro' });
      expect(res.status).toBe(409);
      expect(res.body.error.details).toMatchObject({ service: 'compute', status: 409 });
    } finally {
      await inv.modernHostsOnly();
    }
  });

  it('validates the body and answers unknown volumes with 404', async () => {
    const srv = await inv.server('demo', 'v');
    const bad = await demo.post(`/api/servers/${srv}/attachments`, { volumeId: '', mode: 'rx' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toMatchObject({ volumeId: 'Choose a volume' });
    const missing = await demo.post(`/api/servers/${srv}/attachments`, {
      volumeId: '00000000-0000-0000-0000-000000000000',
    });
    // Nothing is read before the attach: the 404 is Nova's, which looks the volume up.
    expect(missing.status).toBe(404);
    expect(missing.body.error.details.service).toBe('compute');
  });

  it('detaches (202) and publishes the change', async () => {
    const srv = await inv.server('demo', 'd1');
    const vol = await inv.volume('demo', 'dv');
    expect((await demo.post(`/api/servers/${srv}/attachments`, { volumeId: vol })).status).toBe(201);
    await stack.cloud.settle();
    const res = await demo.delete(`/api/servers/${srv}/attachments/${vol}`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true });
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${vol}`)).body).toMatchObject({
      status: 'available',
      attachments: [],
    });
    const again = await demo.delete(`/api/servers/${srv}/attachments/${vol}`);
    expect(again.status).toBe(404);
  });
});

describe('attachments service decisions', () => {
  it('refuses read-only on a cloud without 2.105 with the capability reason, before calling the cloud', async () => {
    const base = await sessionOf(demo);
    const reason = "This cloud's compute API stops at 2.96; read-only attachments need 2.105.";
    const session: SessionData = {
      ...base,
      // An unreachable cloud proves nothing was asked of it.
      endpoints: { compute: 'http://127.0.0.1:9/compute', volume: 'http://127.0.0.1:9/volume', image: null },
      capabilities: { ...base.capabilities, readOnlyAttach: { available: false, reason } },
    };
    const svc = attachmentsService(new ChangeBus());
    const err = await svc
      .attach(session, 'srv', { volumeId: 'vol', mode: 'ro', acknowledgeMultipleWriters: false })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'read_only_unavailable', message: reason });
  });

  it('publishes attachments changes with the server and volume ids', async () => {
    const bus = new ChangeBus();
    const events: ChangeEvent[] = [];
    const session = await sessionOf(demo);
    const off = bus.subscribe(session.project.id, (e) => events.push(e));
    const srv = await inv.server('demo', 'pub');
    const vol = await inv.volume('demo', 'pub-vol');
    const attachment = await attachmentsService(bus).attach(session, srv, {
      volumeId: vol,
      mode: 'rw',
      acknowledgeMultipleWriters: false,
    });
    off();
    expect(attachment.volumeId).toBe(vol);
    expect(events).toEqual([expect.objectContaining({ kind: 'attachments', ids: [srv, vol] })]);
  });
});

describe('joinHolds (where each field comes from)', () => {
  const volume = {
    id: 'v',
    name: 'vol',
    description: null,
    sizeGb: 1,
    status: 'in-use',
    typeName: 'multiattach',
    multiattach: true,
    bootable: false,
    readonly: false,
    availabilityZone: 'nova',
    projectId: 'p',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: null,
    attachments: [
      {
        attachmentId: 'a1',
        serverId: 's1',
        device: '/dev/vdb',
        hostName: 'h1',
        attachedAt: '2026-01-01T00:00:01Z',
      },
    ],
  };
  const cinder = (id: string, serverId: string, mode: AttachMode, status = 'attached') => ({
    id,
    volumeId: 'v',
    serverId,
    status,
    mode,
    attachedAt: null,
    detachedAt: null,
  });

  it("prefers Nova's mode, then Cinder's, and merges records of one attachment", async () => {
    const { joinHolds } = await import('../src/openstack/attachments.js');
    const holds = joinHolds({
      volumes: [volume],
      cinderAttachments: [
        cinder('a1', 's1', 'rw'),
        cinder('a2', 's2', 'ro', 'attaching'),
        cinder('a3', 's3', 'rw', 'detached'),
      ],
      novaAttachments: [
        {
          serverId: 's1',
          volumeId: 'v',
          device: '/dev/vdc',
          attachmentId: 'a1',
          bdmId: 'b',
          mode: 'ro',
          deleteOnTermination: false,
        },
      ],
      withHosts: false,
    });
    expect(holds).toHaveLength(2);
    expect(holds.find((h) => h.serverId === 's1')).toMatchObject({
      mode: 'ro',
      device: '/dev/vdc',
      state: 'attached',
      host: null,
      since: '2026-01-01T00:00:01Z',
    });
    expect(holds.find((h) => h.serverId === 's2')).toMatchObject({
      mode: 'ro',
      state: 'attaching',
      device: null,
    });
  });

  it("falls back to the volume's readonly flag when no one reports a mode, and shows hosts to admins", async () => {
    const { joinHolds } = await import('../src/openstack/attachments.js');
    const [hold] = joinHolds({ volumes: [{ ...volume, readonly: true }], withHosts: true });
    expect(hold).toMatchObject({
      mode: 'ro',
      state: 'attached',
      host: 'h1',
      serverName: null,
      volumeName: 'vol',
    });
  });
});
