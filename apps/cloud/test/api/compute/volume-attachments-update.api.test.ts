import { describe, expect } from 'vitest';
import { Microversion } from '../../../src/platform/http/microversion.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { bdmRows, createServer, setServer } from '../../helpers/compute-fixtures.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

type Opts = { version?: string; session?: Session };
const nova = (method: string, path: string, body: unknown, opts: Opts = {}) => {
  const s = opts.session ?? demo;
  return http(tc, method, `/compute/v2.1${path}`, {
    token: s.token,
    version: `compute ${opts.version ?? '2.60'}`,
    ...(body !== undefined ? { body } : {}),
  });
};
const attach = (serverId: string, volumeId: string, extra: Record<string, unknown> = {}, version = '2.60') =>
  nova(
    'POST',
    `/servers/${serverId}/os-volume_attachments`,
    { volumeAttachment: { volumeId, ...extra } },
    { version },
  );
const put = (
  serverId: string,
  volumeId: string,
  volumeAttachment: Record<string, unknown>,
  opts: Opts = {},
) => nova('PUT', `/servers/${serverId}/os-volume_attachments/${volumeId}`, { volumeAttachment }, opts);

const server = (extra: Partial<Parameters<typeof createServer>[1]> = {}) =>
  createServer(tc, { projectId: demo.projectId, ...extra });
const volume = (extra: { multiattach?: boolean } = {}) =>
  createVolume(tc, { projectId: demo.projectId, ...extra });
const fault = (status: number, message: string) => {
  const name = { 400: 'badRequest', 403: 'forbidden', 404: 'itemNotFound', 409: 'conflictingRequest' }[
    status
  ];
  return { [name ?? 'computeFault']: { code: status, message } };
};

async function attached(
  serverId: string,
  volumeId: string,
  extra: Record<string, unknown> = {},
  version = '2.60',
) {
  const res = await attach(serverId, volumeId, extra, version);
  // 2.101 made attach asynchronous: 202 and no body; before, 200 and the attachment.
  expect(res.status).toBe(Microversion.of(version).atLeast('2.101') ? 202 : 200);
  await tc.settle();
}

describe('swap volume (PUT below 2.85)', () => {
  it('as a member: 403 (capture 205)', async () => {
    const s = await server();
    const old = await volume();
    await attached(s.id, old);
    const res = await put(s.id, old, { volumeId: await volume() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-volumes-attachments:swap to be performed."),
    );
  });

  it('an admin swap of a plain volume: 202, same device, old available, new in-use (207-210)', async () => {
    const s = await server();
    const old = await volume();
    const fresh = await volume();
    await attached(s.id, old);
    const before = (await bdmRows(tc, s.id))[0]!;
    const res = await put(s.id, old, { volumeId: fresh }, { session: admin });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    await tc.settle();
    const list = await nova('GET', `/servers/${s.id}/os-volume_attachments`, undefined, { version: '2.89' });
    const [after] = await bdmRows(tc, s.id);
    expect(list.body.volumeAttachments).toEqual([
      {
        volumeId: fresh,
        serverId: s.id,
        device: '/dev/vdb',
        tag: null,
        delete_on_termination: false,
        attachment_id: after!.attachment_id,
        bdm_uuid: before.uuid,
      },
    ]);
    expect(after!.attachment_id).not.toBe(before.attachment_id);
    expect((await volumeRow(tc, old)).status).toBe('available');
    expect(await attachmentRows(tc, old)).toEqual([]);
    expect(await volumeRow(tc, fresh)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    expect((await attachmentRows(tc, fresh))[0]).toMatchObject({
      instance_uuid: s.id,
      mountpoint: '/dev/vdb',
    });
  });

  it('old volume not attached to this server: 400 (capture 211)', async () => {
    const s = await server();
    const other = await server();
    const old = await volume();
    await attached(other.id, old);
    const res = await put(s.id, old, { volumeId: await volume() }, { session: admin });
    expect(res.body).toEqual(fault(400, 'Invalid volume: Old volume is attached to a different instance.'));
  });

  it('new volume already attached: 400 (capture 212)', async () => {
    const s = await server();
    const old = await volume();
    const busy = await volume({ multiattach: true });
    await attached(s.id, old);
    await attached((await server()).id, busy);
    const res = await put(s.id, old, { volumeId: busy }, { session: admin });
    expect(res.body).toEqual(fault(400, 'Invalid volume: New volume must be detached in order to swap.'));
    expect((await volumeRow(tc, old)).status).toBe('in-use');
  });

  it('unknown new volume: 400 not 404 (capture 213); unknown old volume: 404', async () => {
    const s = await server();
    const old = await volume();
    await attached(s.id, old);
    const missing = '53846aff-9c7e-4c89-8e58-732ddce044c4';
    const res = await put(s.id, old, { volumeId: missing }, { session: admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, `Volume ${missing} could not be found.`));
    const res2 = await put(s.id, missing, { volumeId: old }, { session: admin });
    expect(res2.status).toBe(404);
    expect(res2.body).toEqual(fault(404, `Volume ${missing} could not be found.`));
  });

  it('a smaller new volume: 400', async () => {
    const s = await server();
    const old = await volume();
    await attached(s.id, old);
    await tc.cloud.deps.store.db.updateTable('volumes').set({ size: 5 }).where('id', '=', old).execute();
    const res = await put(s.id, old, { volumeId: await volume() }, { session: admin });
    expect(res.body).toEqual(fault(400, 'Invalid volume: New volume must be the same size or larger.'));
  });

  it('from a multiattach volume with two rw attachments: 400, volume untouched (203, 204)', async () => {
    const a = await server();
    const b = await server();
    const shared = await volume({ multiattach: true });
    await attached(a.id, shared);
    await attached(b.id, shared);
    const res = await put(a.id, shared, { volumeId: await volume() }, { session: admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(400, 'Swapping multi-attach volumes with more than one read/write attachment is not supported.'),
    );
    expect((await volumeRow(tc, shared)).status).toBe('in-use');
    expect(await attachmentRows(tc, shared)).toHaveLength(2);
  });

  it('from a multiattach volume with one rw and one ro attachment: allowed', async () => {
    const a = await server();
    const b = await server();
    const shared = await volume({ multiattach: true });
    await attached(a.id, shared);
    await attached(b.id, shared, { attach_mode: 'ro' }, '2.105');
    const fresh = await volume();
    const res = await put(a.id, shared, { volumeId: fresh }, { session: admin });
    expect(res.status).toBe(202);
    await tc.settle();
    expect((await attachmentRows(tc, shared)).map((x) => [x.instance_uuid, x.attach_mode])).toEqual([
      [b.id, 'ro'],
    ]);
    expect((await volumeRow(tc, shared)).status).toBe('in-use');
    expect((await bdmRows(tc, a.id))[0]?.volume_id).toBe(fresh);
  });

  it('state and lock: 409 with the swap_volume action; no "not migrating" 409 (errata 3)', async () => {
    const s = await server();
    const old = await volume();
    await attached(s.id, old);
    await setServer(tc, s.id, { vm_state: 'stopped' });
    const res = await put(s.id, old, { volumeId: await volume() }, { session: admin });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      fault(409, `Cannot 'swap_volume' instance ${s.id} while it is in vm_state stopped`),
    );
  });

  it('below 2.85 the body takes volumeId only', async () => {
    const s = await server();
    const old = await volume();
    await attached(s.id, old);
    const res = await put(
      s.id,
      old,
      { volumeId: old, device: '/dev/vdb' },
      { session: admin, version: '2.84' },
    );
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      `Invalid input for field/attribute volumeAttachment. Value: {'volumeId': '${old}', 'device': '/dev/vdb'}. Additional properties are not allowed ('device' was unexpected)`,
    );
  });
});

describe('update (PUT from 2.85)', () => {
  it('changes delete_on_termination without a swap, as a member', async () => {
    const s = await server();
    const vol = await volume();
    await attached(s.id, vol);
    const res = await put(s.id, vol, { volumeId: vol, delete_on_termination: true }, { version: '2.85' });
    expect(res.status).toBe(202);
    const shown = await nova('GET', `/servers/${s.id}/os-volume_attachments/${vol}`, undefined, {
      version: '2.79',
    });
    expect(shown.body.volumeAttachment.delete_on_termination).toBe(true);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('id, serverId, device and tag may be sent but not changed', async () => {
    const s = await server();
    const vol = await volume();
    await attached(s.id, vol, { tag: 'a' }, '2.85');
    const other = '2e5a9994-2f8d-45b1-bd3f-c05dbece1dd4';
    const ok = await put(
      s.id,
      vol,
      { volumeId: vol, id: vol, serverId: s.id, device: '/dev/vdb', tag: 'a' },
      { version: '2.85' },
    );
    expect(ok.status).toBe(202);
    const cases: [Record<string, unknown>, string][] = [
      [{ id: other }, 'The id property is not mutable'],
      [{ serverId: other }, 'The serverId property is not mutable'],
      [{ device: '/dev/vdc' }, 'The device property is not mutable'],
      [{ tag: 'b' }, 'The tag property is not mutable'],
    ];
    for (const [extra, message] of cases) {
      const res = await put(s.id, vol, { volumeId: vol, ...extra }, { version: '2.85' });
      expect(res.body).toEqual(fault(400, message));
    }
  });

  it('a different volumeId is a swap and needs the swap policy', async () => {
    const s = await server();
    const vol = await volume();
    await attached(s.id, vol);
    const res = await put(s.id, vol, { volumeId: await volume() }, { version: '2.85' });
    expect(res.status).toBe(403);
    const fresh = await volume();
    const ok = await put(
      s.id,
      vol,
      { volumeId: fresh, delete_on_termination: true },
      { version: '2.85', session: admin },
    );
    expect(ok.status).toBe(202);
    await tc.settle();
    const [bdm] = await bdmRows(tc, s.id);
    expect(bdm).toMatchObject({ volume_id: fresh, delete_on_termination: 1 });
  });

  it('a volume not attached to the server: 404', async () => {
    const s = await server();
    const vol = await volume();
    const res = await put(s.id, vol, { volumeId: vol, delete_on_termination: true }, { version: '2.85' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `No volume Block Device Mapping with id ${vol}.`));
  });
});
