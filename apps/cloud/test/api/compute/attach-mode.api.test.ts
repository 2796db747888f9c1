import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { bdmRows, bootFromVolume, createServer } from '../../helpers/compute-fixtures.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';

/** The enhancement microversion 2.105 (seeds/002): attach_mode on attach, shown at 2.105 only. */

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const nova = (method: string, path: string, version: string, body?: unknown, session: Session = demo) =>
  http(tc, method, `/compute/v2.1${path}`, {
    token: session.token,
    version: `compute ${version}`,
    ...(body !== undefined ? { body } : {}),
  });
const attach = (serverId: string, volumeAttachment: Record<string, unknown>, version = '2.105') =>
  nova('POST', `/servers/${serverId}/os-volume_attachments`, version, { volumeAttachment });
const server = (host = 'compute-1') => createServer(tc, { projectId: demo.projectId, host });
const volume = (multiattach = false) => createVolume(tc, { projectId: demo.projectId, multiattach });
const badRequest = (message: string) => ({ badRequest: { code: 400, message } });

describe('attach_mode on POST os-volume_attachments', () => {
  it.each(['2.1', '2.60', '2.101', '2.104'])('below 2.105 (%s) the schema refuses it', async (version) => {
    const s = await server();
    const vol = await volume();
    const res = await attach(s.id, { volumeId: vol, attach_mode: 'ro' }, version);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      badRequest(
        `Invalid input for field/attribute volumeAttachment. Value: {'volumeId': '${vol}', 'attach_mode': 'ro'}. Additional properties are not allowed ('attach_mode' was unexpected)`,
      ),
    );
    expect(await attachmentRows(tc, vol)).toEqual([]);
  });

  it.each([
    ['RO', "Invalid input for field/attribute attach_mode. Value: RO. 'RO' is not one of ['ro', 'rw']"],
    ['', "Invalid input for field/attribute attach_mode. Value: . '' is not one of ['ro', 'rw']"],
    [1, "Invalid input for field/attribute attach_mode. Value: 1. 1 is not of type 'string'"],
    [null, "Invalid input for field/attribute attach_mode. Value: None. None is not of type 'string'"],
  ])('at 2.105 any other value is 400 (%j)', async (value, message) => {
    const s = await server();
    const res = await attach(s.id, { volumeId: await volume(), attach_mode: value });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(badRequest(message));
  });

  it('ro reaches Cinder as the attachment mode and the connection access_mode', async () => {
    const s = await server();
    const vol = await volume(true);
    const res = await attach(s.id, { volumeId: vol, attach_mode: 'ro' });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    await tc.settle();
    const [att] = await attachmentRows(tc, vol);
    expect(att).toMatchObject({ attach_status: 'attached', attach_mode: 'ro' });
    expect(JSON.parse(att!.connector!)).toMatchObject({ mode: 'ro', host: 'compute-1' });
    expect(JSON.parse(att!.connection_info!)).toMatchObject({ access_mode: 'ro' });
    expect((await bdmRows(tc, s.id))[0]?.attach_mode).toBe('ro');
  });

  it('Cinder GET /attachments/{id} at 3.54 shows mode ro', async () => {
    const s = await server();
    const vol = await volume(true);
    await attach(s.id, { volumeId: vol, attach_mode: 'ro' });
    await tc.settle();
    const [att] = await attachmentRows(tc, vol);
    const res = await http(tc, 'GET', `${demo.volumeBase}/attachments/${att!.id}`, {
      token: demo.token,
      version: 'volume 3.54',
    });
    expect(res.status).toBe(200);
    expect(res.body.attachment).toMatchObject({
      id: att!.id,
      attach_mode: 'ro',
      status: 'attached',
      instance: s.id,
    });
  });

  it('list and show carry attach_mode at 2.105 only; the default is rw', async () => {
    const s = await server();
    const ro = await volume(true);
    const rw = await volume();
    const dflt = await volume();
    await attach(s.id, { volumeId: ro, attach_mode: 'ro' });
    await attach(s.id, { volumeId: rw, attach_mode: 'rw' });
    await attach(s.id, { volumeId: dflt });
    await tc.settle();
    const at105 = await nova('GET', `/servers/${s.id}/os-volume_attachments`, '2.105');
    expect(
      at105.body.volumeAttachments.map((a: { volumeId: string; attach_mode: string }) => [
        a.volumeId,
        a.attach_mode,
      ]),
    ).toEqual([
      [ro, 'ro'],
      [rw, 'rw'],
      [dflt, 'rw'],
    ]);
    expect(Object.keys(at105.body.volumeAttachments[0]).at(-1)).toBe('attach_mode');
    const shown = await nova('GET', `/servers/${s.id}/os-volume_attachments/${ro}`, '2.105');
    expect(shown.body.volumeAttachment.attach_mode).toBe('ro');
    for (const version of ['2.1', '2.89', '2.104']) {
      const listed = await nova('GET', `/servers/${s.id}/os-volume_attachments`, version);
      for (const a of listed.body.volumeAttachments) expect(a).not.toHaveProperty('attach_mode');
      const one = await nova('GET', `/servers/${s.id}/os-volume_attachments/${ro}`, version);
      expect(one.body.volumeAttachment).not.toHaveProperty('attach_mode');
    }
    // Cinder's volume view never grows the key (Tempest's strict schema).
    const vol = await http(tc, 'GET', `${demo.volumeBase}/volumes/${ro}`, {
      token: demo.token,
      version: 'volume 3.70',
    });
    if (vol.status === 200) {
      for (const a of vol.body.volume.attachments) expect(a).not.toHaveProperty('attach_mode');
    }
  });

  it('ro onto a host too old for attach modes: 409; rw and the default still work there', async () => {
    const s = await server('compute-old');
    const vol = await volume(true);
    const res = await attach(s.id, { volumeId: vol, attach_mode: 'ro' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      conflictingRequest: {
        code: 409,
        message: `Read-only volume attachment is not yet available on the compute host of instance ${s.id}.`,
      },
    });
    expect(await attachmentRows(tc, vol)).toEqual([]);
    expect((await attach(s.id, { volumeId: vol, attach_mode: 'rw' })).status).toBe(202);
    expect((await attach(s.id, { volumeId: await volume() })).status).toBe(202);
    await tc.settle();
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('a multiattach volume onto ironic-1: the real 400, at 2.105 too', async () => {
    const s = await server('ironic-1');
    const vol = await volume(true);
    const res = await attach(s.id, { volumeId: vol, attach_mode: 'ro' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      badRequest(`Volume ${vol} has 'multiattach' set, which is not supported for this instance.`),
    );
  });

  it('one rw writer and several ro readers of one multiattach volume', async () => {
    const servers = [await server(), await server('compute-2'), await server('compute-3')];
    const vol = await volume(true);
    await attach(servers[0]!.id, { volumeId: vol });
    await attach(servers[1]!.id, { volumeId: vol, attach_mode: 'ro' });
    await attach(servers[2]!.id, { volumeId: vol, attach_mode: 'ro' });
    await tc.settle();
    const atts = await attachmentRows(tc, vol);
    expect(atts.map((a) => [a.instance_uuid, a.attach_mode, a.attached_host])).toEqual([
      [servers[0]!.id, 'rw', 'compute-1'],
      [servers[1]!.id, 'ro', 'compute-2'],
      [servers[2]!.id, 'ro', 'compute-3'],
    ]);
  });

  it('a read-only root volume from the boot path', async () => {
    const s = await server();
    const root = await createVolume(tc, { projectId: demo.projectId, bootable: true, multiattach: true });
    await bootFromVolume(tc, s, root, { attachMode: 'ro' });
    const listed = await nova('GET', `/servers/${s.id}/os-volume_attachments`, '2.105');
    expect(listed.body.volumeAttachments).toEqual([
      expect.objectContaining({ volumeId: root, device: '/dev/vda', attach_mode: 'ro' }),
    ]);
    expect((await attachmentRows(tc, root))[0]?.attach_mode).toBe('ro');
  });
});

describe('attach_mode and swap', () => {
  it('the new volume keeps the old attachment mode', async () => {
    const s = await server();
    const old = await volume(true);
    const fresh = await volume(true);
    await attach(s.id, { volumeId: old, attach_mode: 'ro' });
    await tc.settle();
    const res = await nova(
      'PUT',
      `/servers/${s.id}/os-volume_attachments/${old}`,
      '2.105',
      { volumeAttachment: { volumeId: fresh } },
      admin,
    );
    expect(res.status).toBe(202);
    await tc.settle();
    const shown = await nova('GET', `/servers/${s.id}/os-volume_attachments/${fresh}`, '2.105');
    expect(shown.body.volumeAttachment).toMatchObject({
      volumeId: fresh,
      attach_mode: 'ro',
      device: '/dev/vdb',
    });
    const [att] = await attachmentRows(tc, fresh);
    expect(att).toMatchObject({ attach_mode: 'ro', attach_status: 'attached' });
    expect(JSON.parse(att!.connector!)).toMatchObject({ mode: 'ro' });
  });

  it('PUT takes no attach_mode, even at 2.105', async () => {
    const s = await server();
    const vol = await volume();
    await attach(s.id, { volumeId: vol });
    await tc.settle();
    const res = await nova(
      'PUT',
      `/servers/${s.id}/os-volume_attachments/${vol}`,
      '2.105',
      { volumeAttachment: { volumeId: vol, attach_mode: 'ro' } },
      admin,
    );
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toContain(
      "Additional properties are not allowed ('attach_mode' was unexpected)",
    );
  });
});
