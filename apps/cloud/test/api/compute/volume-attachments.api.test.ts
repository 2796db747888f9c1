import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import {
  bdmRows,
  bootFromVolume,
  createServer,
  holdBackendWork,
  setServer,
} from '../../helpers/compute-fixtures.js';
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

type Opts = { version?: string; session?: Session; body?: unknown };
const nova = (method: string, path: string, opts: Opts = {}) => {
  const s = opts.session ?? demo;
  return http(tc, method, `/compute/v2.1${path}`, {
    token: s.token,
    version: `compute ${opts.version ?? '2.60'}`,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
};
const attach = (serverId: string, volumeAttachment: Record<string, unknown>, opts: Opts = {}) =>
  nova('POST', `/servers/${serverId}/os-volume_attachments`, { ...opts, body: { volumeAttachment } });
const list = (serverId: string, opts: Opts = {}, query = '') =>
  nova('GET', `/servers/${serverId}/os-volume_attachments${query}`, opts);
const show = (serverId: string, volumeId: string, opts: Opts = {}) =>
  nova('GET', `/servers/${serverId}/os-volume_attachments/${volumeId}`, opts);
const detach = (serverId: string, volumeId: string, opts: Opts = {}) =>
  nova('DELETE', `/servers/${serverId}/os-volume_attachments/${volumeId}`, opts);

const server = (extra: Partial<Parameters<typeof createServer>[1]> = {}) =>
  createServer(tc, { projectId: demo.projectId, ...extra });
const plainVolume = () => createVolume(tc, { projectId: demo.projectId });
const sharedVolume = () => createVolume(tc, { projectId: demo.projectId, multiattach: true });
const fault = (status: number, message: string) => {
  const name = { 400: 'badRequest', 403: 'forbidden', 404: 'itemNotFound', 409: 'conflictingRequest' }[
    status
  ];
  return { [name ?? 'computeFault']: { code: status, message } };
};

describe('POST os-volume_attachments (attach)', () => {
  it('2.60: 200 with id, serverId, volumeId and the reserved device; the host then attaches it', async () => {
    const s = await server();
    const vol = await plainVolume();
    const res = await attach(s.id, { volumeId: vol });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      volumeAttachment: { id: vol, serverId: s.id, volumeId: vol, device: '/dev/vdb' },
    });
    expect(Object.keys(res.body.volumeAttachment)).toEqual(['id', 'serverId', 'volumeId', 'device']);
    expect(res.headers.get('openstack-api-version')).toBe('compute 2.60');
    await tc.settle();
    const [att] = await attachmentRows(tc, vol);
    expect(att).toMatchObject({
      instance_uuid: s.id,
      attach_status: 'attached',
      attach_mode: 'rw',
      mountpoint: '/dev/vdb',
    });
    expect(JSON.parse(att!.connector!)).toMatchObject({
      host: 'compute-1',
      mode: 'rw',
      mountpoint: '/dev/vdb',
    });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const [bdm] = await bdmRows(tc, s.id);
    expect(bdm).toMatchObject({
      volume_id: vol,
      attachment_id: att!.id,
      device_name: '/dev/vdb',
      attach_mode: 'rw',
    });
    expect(JSON.parse(bdm!.connection_info!)).toMatchObject({ serial: vol, access_mode: 'rw' });
  });

  it('gives each further volume the next device name', async () => {
    const s = await server();
    const devices: string[] = [];
    for (let i = 0; i < 3; i++)
      devices.push((await attach(s.id, { volumeId: await plainVolume() })).body.volumeAttachment.device);
    expect(devices).toEqual(['/dev/vdb', '/dev/vdc', '/dev/vdd']);
    await tc.settle();
  });

  it('ignores a requested device name, as the libvirt driver does', async () => {
    const s = await server();
    const res = await attach(s.id, { volumeId: await plainVolume(), device: '/dev/vdz' });
    expect(res.status).toBe(200);
    expect(res.body.volumeAttachment.device).toBe('/dev/vdb');
    await tc.settle();
  });

  it('2.70 adds tag and 2.79 delete_on_termination to the answer', async () => {
    const s = await server();
    const v1 = await plainVolume();
    const r70 = await attach(s.id, { volumeId: v1, tag: 'data' }, { version: '2.70' });
    expect(r70.status).toBe(200);
    expect(r70.body.volumeAttachment).toEqual({
      id: v1,
      serverId: s.id,
      volumeId: v1,
      device: '/dev/vdb',
      tag: 'data',
    });
    const v2 = await plainVolume();
    const r79 = await attach(s.id, { volumeId: v2, delete_on_termination: 'yes' }, { version: '2.79' });
    expect(r79.body.volumeAttachment).toEqual({
      id: v2,
      serverId: s.id,
      volumeId: v2,
      device: '/dev/vdc',
      tag: null,
      delete_on_termination: true,
    });
    await tc.settle();
  });

  it.each(['2.101', '2.104', '2.105'])(
    '%s: 202 with no body; the device is chosen by the host',
    async (version) => {
      const s = await server();
      const vol = await plainVolume();
      const res = await attach(s.id, { volumeId: vol }, { version });
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
      await tc.settle();
      expect((await bdmRows(tc, s.id))[0]?.device_name).toBe('/dev/vdb');
      expect((await volumeRow(tc, vol)).status).toBe('in-use');
    },
  );

  it('unknown volume: 404 (capture 218)', async () => {
    const s = await server();
    const vid = '7b851e48-9313-4795-8b9c-83e492afafec';
    const res = await attach(s.id, { volumeId: vid });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Volume ${vid} could not be found.`));
  });

  it("another project's volume is not found for a member", async () => {
    const s = await server();
    const vol = await createVolume(tc, { projectId: admin.projectId });
    const res = await attach(s.id, { volumeId: vol });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Volume ${vol} could not be found.`));
  });

  it.each([
    ['/dev/cap2 bad', 216],
    ['sdb', 217],
  ])('device %s fails the schema (capture %s)', async (device) => {
    const s = await server();
    const vol = await plainVolume();
    const res = await attach(s.id, { volumeId: vol, device });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(
        400,
        `Invalid input for field/attribute device. Value: ${device}. '${device}' does not match '(^/dev/x{0,1}[a-z]{0,1}d{0,1})([a-z]+)[0-9]*$'`,
      ),
    );
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });

  it('schema: volumeAttachment required, volumeId a uuid, no unknown keys', async () => {
    const s = await server();
    const noWrapper = await nova('POST', `/servers/${s.id}/os-volume_attachments`, { body: {} });
    expect(noWrapper.body).toEqual(fault(400, "'volumeAttachment' is a required property"));
    const noId = await attach(s.id, {});
    expect(noId.body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute volumeAttachment. Value: {}. 'volumeId' is a required property",
      ),
    );
    const badId = await attach(s.id, { volumeId: 'nope' });
    expect(badId.body).toEqual(
      fault(400, "Invalid input for field/attribute volumeId. Value: nope. 'nope' is not a 'uuid'"),
    );
    const vol = await plainVolume();
    const tag48 = await attach(s.id, { volumeId: vol, tag: 'x' }, { version: '2.48' });
    expect(tag48.body).toEqual(
      fault(
        400,
        `Invalid input for field/attribute volumeAttachment. Value: {'volumeId': '${vol}', 'tag': 'x'}. Additional properties are not allowed ('tag' was unexpected)`,
      ),
    );
    const dot78 = await attach(s.id, { volumeId: vol, delete_on_termination: true }, { version: '2.78' });
    expect(dot78.status).toBe(400);
    expect(dot78.body.badRequest.message).toContain("('delete_on_termination' was unexpected)");
    const badTag = await attach(s.id, { volumeId: vol, tag: 'a/b' }, { version: '2.49' });
    expect(badTag.body).toEqual(
      fault(400, "Invalid input for field/attribute tag. Value: a/b. 'a/b' does not match '^[^,/]*$'"),
    );
  });

  it('a plain volume already held by another server: 400 naming it (capture 50)', async () => {
    const a = await server();
    const b = await server();
    const vol = await plainVolume();
    expect((await attach(a.id, { volumeId: vol })).status).toBe(200);
    await tc.settle();
    const res = await attach(b.id, { volumeId: vol });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(400, `Invalid volume: volume ${vol} is already attached to instances: ${a.id}`),
    );
  });

  it('a multiattach volume twice to one server: 400 (capture 49)', async () => {
    const a = await server();
    const vol = await sharedVolume();
    expect((await attach(a.id, { volumeId: vol })).status).toBe(200);
    await tc.settle();
    const res = await attach(a.id, { volumeId: vol });
    expect(res.body).toEqual(fault(400, `Invalid volume: volume ${vol} already attached`));
  });

  it('a multiattach volume below 2.60: 400 even for the first attachment (capture 52)', async () => {
    const a = await server();
    const vol = await sharedVolume();
    const res = await attach(a.id, { volumeId: vol }, { version: '2.59' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(400, 'Multiattach volumes are only supported starting with compute API version 2.60.'),
    );
    expect(await bdmRows(tc, a.id)).toEqual([]);
    expect((await volumeRow(tc, vol)).status).toBe('available');
  });

  it('a multiattach volume onto two servers at 2.60 (captures 200-202)', async () => {
    const a = await server();
    const b = await server();
    const vol = await sharedVolume();
    expect((await attach(a.id, { volumeId: vol })).body.volumeAttachment.device).toBe('/dev/vdb');
    expect((await attach(b.id, { volumeId: vol })).body.volumeAttachment.device).toBe('/dev/vdb');
    await tc.settle();
    const atts = await attachmentRows(tc, vol);
    expect(atts.map((x) => [x.attach_status, x.attach_mode])).toEqual([
      ['attached', 'rw'],
      ['attached', 'rw'],
    ]);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
    expect(JSON.parse((await bdmRows(tc, a.id))[0]!.connection_info!)).toMatchObject({ multiattach: true });
  });

  it('a multiattach volume onto a host whose driver cannot share disks: 400', async () => {
    const s = await server({ host: 'ironic-1' });
    const vol = await sharedVolume();
    const res = await attach(s.id, { volumeId: vol });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      fault(400, `Volume ${vol} has 'multiattach' set, which is not supported for this instance.`),
    );
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });

  it('unknown server, or one of another project: 404', async () => {
    const missing = 'c99ffad6-4b83-43f3-a071-0f23f3c4212a';
    const res = await attach(missing, { volumeId: await plainVolume() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Instance ${missing} could not be found.`));
    const theirs = await createServer(tc, { projectId: admin.projectId });
    const res2 = await list(theirs.id);
    expect(res2.body).toEqual(fault(404, `Instance ${theirs.id} could not be found.`));
    expect((await list(theirs.id, { session: admin })).status).toBe(200);
  });

  it('locked: 409 for the owner, allowed for an admin', async () => {
    const s = await server({ locked: true });
    const vol = await plainVolume();
    const res = await attach(s.id, { volumeId: vol });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(fault(409, `Instance ${s.id} is locked`));
    expect((await attach(s.id, { volumeId: vol }, { session: admin })).status).toBe(200);
    await tc.settle();
  });

  it('state checks: vm_state and task_state give 409, stopped and paused are fine', async () => {
    const building = await server({ vmState: 'building', host: null });
    const r1 = await attach(building.id, { volumeId: await plainVolume() });
    expect(r1.status).toBe(409);
    expect(r1.body).toEqual(
      fault(409, `Cannot 'attach_volume' instance ${building.id} while it is in vm_state building`),
    );
    const busy = await server({ taskState: 'rebooting' });
    const r2 = await attach(busy.id, { volumeId: await plainVolume() });
    expect(r2.body).toEqual(
      fault(409, `Cannot 'attach_volume' instance ${busy.id} while it is in task_state rebooting`),
    );
    for (const vmState of ['stopped', 'paused']) {
      const s = await server({ vmState });
      expect((await attach(s.id, { volumeId: await plainVolume() })).status).toBe(200);
    }
    await tc.settle();
  });
});

describe('shelved-offloaded servers (captures 169-175)', () => {
  const offloaded = () => server({ vmState: 'shelved_offloaded', host: null });

  it('below 2.20 attach and detach are 409 (capture 170)', async () => {
    const s = await offloaded();
    const res = await attach(s.id, { volumeId: await plainVolume() }, { version: '2.19' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      fault(409, `Cannot 'attach_volume' instance ${s.id} while it is in vm_state shelved_offloaded`),
    );
    const shelved = await server({ vmState: 'shelved' });
    const res2 = await detach(shelved.id, await plainVolume(), { version: '2.19' });
    expect(res2.body).toEqual(
      fault(409, `Cannot 'detach_volume' instance ${shelved.id} while it is in vm_state shelved`),
    );
  });

  it('refuses a multiattach volume (169) and a tag (171)', async () => {
    const s = await offloaded();
    const shared = await sharedVolume();
    expect((await attach(s.id, { volumeId: shared })).body).toEqual(
      fault(400, 'Attaching multiattach volumes is not supported for shelved-offloaded instances.'),
    );
    const plain = await plainVolume();
    expect((await attach(s.id, { volumeId: plain, tag: 'cap2' }, { version: '2.60' })).body).toEqual(
      fault(400, 'Tagged volume attachment is not supported for shelved-offloaded instances.'),
    );
    expect(await attachmentRows(tc, shared)).toEqual([]);
    expect(await attachmentRows(tc, plain)).toEqual([]);
  });

  it('takes a plain volume locally: device null, attached with mode "null", no connection (172-175)', async () => {
    const s = await offloaded();
    const vol = await plainVolume();
    const res = await attach(s.id, { volumeId: vol });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ volumeAttachment: { id: vol, serverId: s.id, volumeId: vol, device: null } });
    // Completed in the request: nothing is left for a host to do.
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const [att] = await attachmentRows(tc, vol);
    expect(att).toMatchObject({
      attach_status: 'attached',
      attach_mode: 'null',
      connection_info: null,
      connector: null,
    });
    const listed = await list(s.id, { version: '2.89' });
    expect(listed.body.volumeAttachments).toEqual([
      {
        volumeId: vol,
        serverId: s.id,
        tag: null,
        delete_on_termination: false,
        attachment_id: att!.id,
        bdm_uuid: (await bdmRows(tc, s.id))[0]!.uuid,
      },
    ]);
    // Detach is local and immediate too.
    expect((await detach(s.id, vol)).status).toBe(202);
    expect(await attachmentRows(tc, vol)).toEqual([]);
    expect((await volumeRow(tc, vol)).status).toBe('available');
  });
});

describe('GET list and show', () => {
  async function attachedPair() {
    const s = await server();
    const root = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    await bootFromVolume(tc, s, root);
    const data = await plainVolume();
    expect((await attach(s.id, { volumeId: data, tag: 'logs' }, { version: '2.70' })).status).toBe(200);
    await tc.settle();
    const bdms = await bdmRows(tc, s.id);
    return { s, root, data, bdms };
  }

  it('keys per microversion: 2.1/2.60, 2.70 tag, 2.79 delete_on_termination, 2.89 attachment_id/bdm_uuid', async () => {
    const { s, root, data, bdms } = await attachedPair();
    const rootBdm = bdms.find((b) => b.volume_id === root)!;
    const dataBdm = bdms.find((b) => b.volume_id === data)!;
    for (const version of ['2.1', '2.60']) {
      const res = await list(s.id, { version });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        volumeAttachments: [
          { id: root, volumeId: root, serverId: s.id, device: '/dev/vda' },
          { id: data, volumeId: data, serverId: s.id, device: '/dev/vdb' },
        ],
      });
    }
    expect((await list(s.id, { version: '2.70' })).body.volumeAttachments[1]).toEqual({
      id: data,
      volumeId: data,
      serverId: s.id,
      device: '/dev/vdb',
      tag: 'logs',
    });
    expect((await list(s.id, { version: '2.79' })).body.volumeAttachments[0]).toEqual({
      id: root,
      volumeId: root,
      serverId: s.id,
      device: '/dev/vda',
      tag: null,
      delete_on_termination: false,
    });
    const at89 = (await list(s.id, { version: '2.89' })).body.volumeAttachments;
    expect(at89[1]).toEqual({
      volumeId: data,
      serverId: s.id,
      device: '/dev/vdb',
      tag: 'logs',
      delete_on_termination: false,
      attachment_id: dataBdm.attachment_id,
      bdm_uuid: dataBdm.uuid,
    });
    expect(Object.keys(at89[0])).toEqual([
      'volumeId',
      'serverId',
      'device',
      'tag',
      'delete_on_termination',
      'attachment_id',
      'bdm_uuid',
    ]);
    expect(at89[0].bdm_uuid).toBe(rootBdm.uuid);
    // 2.101 changed nothing here; attach_mode appears only at 2.105.
    expect((await list(s.id, { version: '2.101' })).body.volumeAttachments).toEqual(at89);
    expect((await list(s.id, { version: '2.104' })).body.volumeAttachments[0]).not.toHaveProperty(
      'attach_mode',
    );
    const at105 = (await list(s.id, { version: '2.105' })).body.volumeAttachments;
    expect(at105.map((a: { attach_mode: string }) => a.attach_mode)).toEqual(['rw', 'rw']);
  });

  it('show: same shapes, 404 when not attached (capture 219)', async () => {
    const { s, data, bdms } = await attachedPair();
    const dataBdm = bdms.find((b) => b.volume_id === data)!;
    expect((await show(s.id, data, { version: '2.1' })).body).toEqual({
      volumeAttachment: { id: data, volumeId: data, serverId: s.id, device: '/dev/vdb' },
    });
    expect((await show(s.id, data, { version: '2.89' })).body.volumeAttachment).toEqual({
      volumeId: data,
      serverId: s.id,
      device: '/dev/vdb',
      tag: 'logs',
      delete_on_termination: false,
      attachment_id: dataBdm.attachment_id,
      bdm_uuid: dataBdm.uuid,
    });
    expect((await show(s.id, data, { version: '2.105' })).body.volumeAttachment.attach_mode).toBe('rw');
    const other = await plainVolume();
    const res = await show(s.id, other);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Instance ${s.id} is not attached to volume ${other}`));
  });

  it('limit and offset; unknown query keys are 400 from 2.75 only', async () => {
    const { s, root, data } = await attachedPair();
    expect(
      (await list(s.id, {}, '?limit=1')).body.volumeAttachments.map((a: { id: string }) => a.id),
    ).toEqual([root]);
    expect(
      (await list(s.id, {}, '?limit=1&offset=1')).body.volumeAttachments.map((a: { id: string }) => a.id),
    ).toEqual([data]);
    expect((await list(s.id, {}, '?offset=5')).body.volumeAttachments).toEqual([]);
    expect((await list(s.id, { version: '2.74' }, '?foo=1')).status).toBe(200);
    const res = await list(s.id, { version: '2.75' }, '?foo=1');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, "Additional properties are not allowed ('foo' was unexpected)"));
    const bad = await list(s.id, {}, '?limit=abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      fault(400, "Invalid input for query parameters limit. Value: abc. 'abc' does not match '^[0-9]*$'"),
    );
  });

  it('an admin sees the same list as the owner (capture 31)', async () => {
    const { s } = await attachedPair();
    const mine = await list(s.id, { version: '2.89' });
    const theirs = await list(s.id, { version: '2.89', session: admin });
    expect(theirs.body).toEqual(mine.body);
  });
});

describe('DELETE os-volume_attachments (detach)', () => {
  it('202; the host then deletes the attachment and the volume is available', async () => {
    const s = await server();
    const vol = await plainVolume();
    await attach(s.id, { volumeId: vol });
    await tc.settle();
    const res = await detach(s.id, vol);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    await tc.settle();
    expect(await attachmentRows(tc, vol)).toEqual([]);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
    expect((await list(s.id)).body).toEqual({ volumeAttachments: [] });
  });

  it('a multiattach volume stays in-use while another server holds it', async () => {
    const a = await server();
    const b = await server();
    const vol = await sharedVolume();
    await attach(a.id, { volumeId: vol });
    await attach(b.id, { volumeId: vol });
    await tc.settle();
    expect((await detach(a.id, vol)).status).toBe(202);
    await tc.settle();
    const left = await attachmentRows(tc, vol);
    expect(left.map((x) => x.instance_uuid)).toEqual([b.id]);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('the root volume: 400 (capture 56)', async () => {
    const s = await server();
    const root = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    await bootFromVolume(tc, s, root);
    const res = await detach(s.id, root);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'Cannot detach a root device volume'));
  });

  it('not attached: 404 (214); unknown volume: 404 (215)', async () => {
    const s = await server();
    const vol = await plainVolume();
    expect((await detach(s.id, vol)).body).toEqual(
      fault(404, `Instance ${s.id} is not attached to volume ${vol}`),
    );
    const missing = '44e943c9-a0dd-4d12-b1ce-937976536100';
    const res = await detach(s.id, missing);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Volume ${missing} could not be found.`));
  });

  it('locked: 409', async () => {
    const s = await server();
    const vol = await plainVolume();
    await attach(s.id, { volumeId: vol });
    await tc.settle();
    await setServer(tc, s.id, { locked: 1 });
    expect((await detach(s.id, vol)).body).toEqual(fault(409, `Instance ${s.id} is locked`));
  });
});

describe('concurrency of one request at a time', () => {
  it('detach then re-attach of the same volume to another server works', async () => {
    const a = await server();
    const b = await server();
    const vol = await plainVolume();
    await attach(a.id, { volumeId: vol });
    await tc.settle();
    await detach(a.id, vol);
    await tc.settle();
    expect((await attach(b.id, { volumeId: vol })).status).toBe(200);
    await tc.settle();
    expect((await attachmentRows(tc, vol)).map((x) => x.instance_uuid)).toEqual([b.id]);
  });
});

describe('while the emulated host has not run yet', () => {
  it('attach reserves in the request: volume reserved, attachment without connector', async () => {
    const s = await server();
    const vol = await plainVolume();
    const hold = holdBackendWork(tc);
    try {
      const res = await attach(s.id, { volumeId: vol });
      expect(res.status).toBe(200);
      expect((await volumeRow(tc, vol)).status).toBe('reserved');
      expect((await attachmentRows(tc, vol))[0]).toMatchObject({
        attach_status: 'reserved',
        connector: null,
      });
      // The list already shows it (Nova reads its own BDMs), with the reserved device.
      expect((await list(s.id)).body.volumeAttachments).toEqual([
        { id: vol, volumeId: vol, serverId: s.id, device: '/dev/vdb' },
      ]);
      // Cinder's begin_detaching refuses a volume that is not in-use yet.
      const det = await detach(s.id, vol);
      expect(det.status).toBe(400);
      expect(det.body.badRequest.message).toMatch(
        /^Invalid volume: Invalid input received: Invalid volume: Unable to detach volume\. Volume status must be 'in-use' and attach_status must be 'attached' to detach\. \(HTTP 400\) \(Request-ID: req-[0-9a-f-]{36}\)$/,
      );
    } finally {
      await hold.release();
    }
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('from 2.101 no device is reserved in the request, and the list leaves it out', async () => {
    const s = await server();
    const vol = await plainVolume();
    const hold = holdBackendWork(tc);
    try {
      const res = await attach(s.id, { volumeId: vol }, { version: '2.101' });
      expect(res.status).toBe(202);
      expect((await bdmRows(tc, s.id))[0]?.device_name).toBeNull();
      expect((await list(s.id)).body.volumeAttachments).toEqual([{ id: vol, volumeId: vol, serverId: s.id }]);
    } finally {
      await hold.release();
    }
    expect((await bdmRows(tc, s.id))[0]?.device_name).toBe('/dev/vdb');
  });

  it('detach moves the volume to detaching until the host deletes the attachment', async () => {
    const s = await server();
    const vol = await plainVolume();
    await attach(s.id, { volumeId: vol });
    await tc.settle();
    const hold = holdBackendWork(tc);
    try {
      expect((await detach(s.id, vol)).status).toBe(202);
      expect((await volumeRow(tc, vol)).status).toBe('detaching');
      expect(await attachmentRows(tc, vol)).toHaveLength(1);
    } finally {
      await hold.release();
    }
    expect((await volumeRow(tc, vol)).status).toBe('available');
  });
});

describe("Cinder asks Nova before a user deletes Nova's attachment (OSSA-2023-003, captures 57, 58)", () => {
  it('DELETE /attachments/{id} and os-detach of an attachment Nova uses: 409', async () => {
    const s = await server();
    const vol = await plainVolume();
    await attach(s.id, { volumeId: vol });
    await tc.settle();
    const [att] = await attachmentRows(tc, vol);
    const del = await http(tc, 'DELETE', `${demo.volumeBase}/attachments/${att!.id}`, {
      token: demo.token,
      version: 'volume 3.27',
    });
    expect(del.status).toBe(409);
    expect(del.body).toEqual({
      conflictingRequest: {
        code: 409,
        message: `ConflictNovaUsingAttachment: Detach volume from instance ${s.id} using the Compute API`,
      },
    });
    const osDetach = await http(tc, 'POST', `${demo.volumeBase}/volumes/${vol}/action`, {
      token: demo.token,
      version: 'volume 3.50',
      body: { 'os-detach': { attachment_id: att!.id } },
    });
    expect(osDetach.status).toBe(409);
    expect(await attachmentRows(tc, vol)).toHaveLength(1);
    // Through Nova it works, and then Cinder no longer sees Nova using it.
    expect((await detach(s.id, vol)).status).toBe(202);
    await tc.settle();
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });
});

describe('releaseServerVolumes (server delete)', () => {
  it('deletes attachments and mappings; delete_on_termination volumes go unless still held', async () => {
    const { releaseServerVolumes } = await import('../../../src/compute/host/volume-connect.js');
    const { computeDeps } = await import('../../helpers/compute-fixtures.js');
    const a = await server();
    const b = await server();
    const shared = await sharedVolume();
    const own = await plainVolume();
    const kept = await plainVolume();
    await attach(a.id, { volumeId: shared, delete_on_termination: true }, { version: '2.79' });
    await attach(b.id, { volumeId: shared }, { version: '2.79' });
    await attach(a.id, { volumeId: own, delete_on_termination: true }, { version: '2.79' });
    await attach(a.id, { volumeId: kept }, { version: '2.79' });
    await tc.settle();
    const deps = computeDeps(tc);
    const deleted = await deps.store.transaction(async (tx) => {
      const row = await tx.selectFrom('servers').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
      return releaseServerVolumes(deps, tx, row, { deleteOnTermination: true });
    });
    await tc.settle();
    expect(deleted).toEqual([own]);
    expect(await bdmRows(tc, a.id)).toEqual([]);
    // Still held by server B: Cinder refuses the delete and Nova ignores it (299).
    expect(await volumeRow(tc, shared)).toMatchObject({ status: 'in-use' });
    expect((await attachmentRows(tc, shared)).map((x) => x.instance_uuid)).toEqual([b.id]);
    expect(await volumeRow(tc, kept)).toMatchObject({ status: 'available' });
    const gone = await tc.cloud.deps.store.db
      .selectFrom('volumes')
      .select('id')
      .where('id', '=', own)
      .execute();
    expect(gone).toEqual([]);
  });
});

describe("Cinder's reserve refusing: Nova's wording", () => {
  it('attach API: "Invalid input received: <Cinder message> (HTTP 400) (Request-ID: ...)"', async () => {
    const s = await server();
    const vol = await createVolume(tc, { projectId: demo.projectId, status: 'creating' });
    const res = await attach(s.id, { volumeId: vol });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toMatch(
      new RegExp(
        `^Invalid input received: Invalid volume: Volume ${vol} status must be available or downloading to reserve, but the current status is creating\\. \\(HTTP 400\\) \\(Request-ID: req-[0-9a-f-]{36}\\)$`,
      ),
    );
    expect(await bdmRows(tc, s.id)).toEqual([]);
  });

  it('server create path: wrapped once more in "Invalid volume: "; unknown volume is a BDM error', async () => {
    const { reserveVolumeForServers } = await import(
      '../../../src/compute/service/volume-attachments.service.js'
    );
    const { Microversion } = await import('../../../src/platform/http/microversion.js');
    const { callerFor, computeDeps } = await import('../../helpers/compute-fixtures.js');
    const s = await server();
    const deps = computeDeps(tc);
    const base = {
      bootIndex: 0,
      sourceType: 'volume',
      destinationType: 'volume',
      deleteOnTermination: false,
      attachMode: null,
      version: Microversion.of('2.60'),
      duringCreate: true,
    };
    const busy = await plainVolume();
    await attach((await server()).id, { volumeId: busy });
    await tc.settle();
    const inUse = deps.store.transaction((tx) =>
      reserveVolumeForServers(deps, tx, callerFor(demo.projectId), [s], { ...base, volumeId: busy }),
    );
    await expect(inUse).rejects.toThrow(
      new RegExp(
        `^Invalid volume: Invalid input received: Invalid volume: Volume ${busy} status must be available or downloading to reserve, but the current status is in-use\\. \\(HTTP 400\\)`,
      ),
    );
    const missing = '0155e063-a222-4d63-b764-c99019bdcf50';
    const unknown = deps.store.transaction((tx) =>
      reserveVolumeForServers(deps, tx, callerFor(demo.projectId), [s], { ...base, volumeId: missing }),
    );
    await expect(unknown).rejects.toThrow(
      `Block Device Mapping is Invalid: failed to get volume ${missing}.`,
    );
    const shared = await sharedVolume();
    const old = deps.store.transaction((tx) =>
      reserveVolumeForServers(deps, tx, callerFor(demo.projectId), [s], {
        ...base,
        volumeId: shared,
        version: Microversion.of('2.59'),
      }),
    );
    await expect(old).rejects.toThrow(
      'Multiattach volumes are only supported starting with compute API version 2.60.',
    );
    expect(await bdmRows(tc, s.id)).toEqual([]);
  });
});
