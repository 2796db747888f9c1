import { afterAll, afterEach, describe, expect } from 'vitest';
import { http, login, type Session, scriptedNova, startCloud, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { attachmentRows, connector, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';

const nova = scriptedNova();
let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest({}, { nova });
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});
afterEach(() => {
  nova.answer = null;
});

const SERVER_A = 'aa9f60b8-70d7-485f-937a-36dbf5135a60';
const SERVER_B = 'fc182e0e-cbd6-47a4-87a2-55d6d73f525b';

const action = (volumeId: string, body: unknown, opts: { version?: string; session?: Session } = {}) => {
  const s = opts.session ?? demo;
  return http(tc, 'POST', `${s.volumeBase}/volumes/${volumeId}/action`, {
    token: s.token,
    version: `volume ${opts.version ?? '3.50'}`,
    body,
  });
};

const expectAccepted = (res: { status: number; text: string }) => {
  expect(res.status).toBe(202);
  expect(res.text).toBe('');
};

const plainVolume = (extra: { status?: string; readonly?: 'True' | 'False' } = {}) =>
  createVolume(tc, { projectId: demo.projectId, ...extra });
const sharedVolume = () => createVolume(tc, { projectId: demo.projectId, multiattach: true });

/** The legacy attach sequence of an old Nova: reserve, initialize_connection, attach. */
async function legacyAttach(volumeId: string, instance: string, mode: 'rw' | 'ro' = 'rw') {
  expectAccepted(await action(volumeId, { 'os-reserve': null }));
  expect((await action(volumeId, { 'os-initialize_connection': { connector: connector() } })).status).toBe(
    200,
  );
  expectAccepted(
    await action(volumeId, { 'os-attach': { instance_uuid: instance, mountpoint: '/dev/vdb', mode } }),
  );
}

describe('os-reserve / os-unreserve', () => {
  it('moves an available volume to attaching and back', async () => {
    const vol = await plainVolume();
    expectAccepted(await action(vol, { 'os-reserve': null }));
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'attaching' });
    expectAccepted(await action(vol, { 'os-unreserve': {} }));
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
  });

  it('refuses a second reserve with the legacy message (volume/api.py reserve_volume)', async () => {
    const vol = await plainVolume();
    expectAccepted(await action(vol, { 'os-reserve': null }));
    const res = await action(vol, { 'os-reserve': null });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      badRequest: {
        code: 400,
        message: 'Invalid volume: Volume status must be available to reserve, but the status is attaching.',
      },
    });
  });

  it('lets an in-use multiattach volume be reserved again, and lists both statuses otherwise', async () => {
    const vol = await sharedVolume();
    await legacyAttach(vol, SERVER_A);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
    expectAccepted(await action(vol, { 'os-reserve': null }));
    const again = await action(vol, { 'os-reserve': null });
    expect(again.body.badRequest.message).toBe(
      'Invalid volume: Volume status must be available or in-use to reserve, but the status is attaching.',
    );
    // Unreserving an attaching volume with an attachment gives it back to its attachments: in-use.
    expectAccepted(await action(vol, { 'os-unreserve': null }));
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('os-unreserve of a volume that is not attaching changes nothing', async () => {
    const vol = await plainVolume({ status: 'error' });
    expectAccepted(await action(vol, { 'os-unreserve': null }));
    expect((await volumeRow(tc, vol)).status).toBe('error');
  });

  it("answers another project's volume with 404, and lets an admin act on it", async () => {
    const vol = await createVolume(tc, { projectId: admin.projectId });
    const res = await action(vol, { 'os-reserve': null });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ itemNotFound: { code: 404, message: `Volume ${vol} could not be found.` } });
    const mine = await plainVolume();
    expectAccepted(await action(mine, { 'os-reserve': null }, { session: admin }));
  });
});

describe('os-attach', () => {
  it('records a finished attachment: in-use, attached, readonly=False added', async () => {
    const vol = await plainVolume();
    await legacyAttach(vol, SERVER_A);
    expect(await volumeRow(tc, vol)).toMatchObject({
      status: 'in-use',
      attach_status: 'attached',
      readonly_flag: 'False',
    });
    const [row] = await attachmentRows(tc, vol);
    expect(row).toMatchObject({
      instance_uuid: SERVER_A,
      attach_status: 'attached',
      attach_mode: 'rw',
      mountpoint: '/dev/vdb',
    });
    expect(row?.attached_at).not.toBeNull();
  });

  it('is idempotent for the same server', async () => {
    const vol = await plainVolume();
    await legacyAttach(vol, SERVER_A);
    expectAccepted(await action(vol, { 'os-attach': { instance_uuid: SERVER_A, mountpoint: '/dev/vdb' } }));
    expect(await attachmentRows(tc, vol)).toHaveLength(1);
  });

  it('refuses a plain in-use volume for another server', async () => {
    const vol = await plainVolume();
    await legacyAttach(vol, SERVER_A);
    const res = await action(vol, { 'os-attach': { instance_uuid: SERVER_B, mountpoint: '/dev/vdc' } });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      'Invalid volume: volume is already attached and multiple attachments are not enabled',
    );
  });

  it('attaches a multiattach volume to a second server', async () => {
    const vol = await sharedVolume();
    await legacyAttach(vol, SERVER_A);
    expectAccepted(await action(vol, { 'os-attach': { instance_uuid: SERVER_B, mountpoint: '/dev/vdc' } }));
    expect(await attachmentRows(tc, vol)).toHaveLength(2);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('refuses rw on a readonly volume', async () => {
    const vol = await plainVolume({ readonly: 'True' });
    const res = await action(vol, { 'os-attach': { instance_uuid: SERVER_A, mountpoint: '/dev/vdb' } });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(`Invalid attaching mode 'rw' for volume ${vol}.`);
    expectAccepted(
      await action(vol, { 'os-attach': { instance_uuid: SERVER_A, mountpoint: '/dev/vdb', mode: 'ro' } }),
    );
  });

  it('refuses a volume in maintenance', async () => {
    const vol = await plainVolume({ status: 'maintenance' });
    const res = await action(vol, { 'os-attach': { instance_uuid: SERVER_A, mountpoint: '/dev/vdb' } });
    expect(res.body.badRequest.message).toBe(
      'Invalid volume: The volume cannot be attached in maintenance mode.',
    );
  });

  it.each([
    [
      { 'os-attach': { instance_uuid: SERVER_A } },
      `Invalid input for field/attribute os-attach. Value: {'instance_uuid': '${SERVER_A}'}. 'mountpoint' is a required property`,
    ],
    [
      { 'os-attach': { mountpoint: '/dev/vdb' } },
      "Invalid input for field/attribute os-attach. Value: {'mountpoint': '/dev/vdb'}. {'mountpoint': '/dev/vdb'} is not valid under any of the given schemas",
    ],
    [
      { 'os-attach': { instance_uuid: SERVER_A, mountpoint: '/dev/vdb', mode: 'xx' } },
      "Invalid input for field/attribute mode. Value: xx. 'xx' is not one of ['rw', 'ro']",
    ],
  ])('validates %j', async (body, message) => {
    const vol = await plainVolume();
    const res = await action(vol, body);
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(message);
  });
});

describe('os-begin_detaching / os-roll_detaching', () => {
  it('moves in-use to detaching and back', async () => {
    const vol = await plainVolume();
    await legacyAttach(vol, SERVER_A);
    expectAccepted(await action(vol, { 'os-begin_detaching': null }));
    expect((await volumeRow(tc, vol)).status).toBe('detaching');
    expectAccepted(await action(vol, { 'os-roll_detaching': null }));
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
  });

  it('refuses to begin detaching a volume that is not in use', async () => {
    const vol = await plainVolume();
    const res = await action(vol, { 'os-begin_detaching': null });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      "Invalid volume: Unable to detach volume. Volume status must be 'in-use' and attach_status must be 'attached' to detach.",
    );
  });

  it('os-roll_detaching of a volume that is not detaching changes nothing', async () => {
    const vol = await plainVolume();
    expectAccepted(await action(vol, { 'os-roll_detaching': null }));
    expect((await volumeRow(tc, vol)).status).toBe('available');
  });
});

describe('os-detach', () => {
  it('detaches the only attachment without an attachment_id', async () => {
    const vol = await plainVolume();
    await legacyAttach(vol, SERVER_A);
    expectAccepted(await action(vol, { 'os-begin_detaching': null }));
    expectAccepted(await action(vol, { 'os-detach': null }));
    expect(await attachmentRows(tc, vol)).toHaveLength(0);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
  });

  it('needs the attachment_id when the volume has several attachments (seed 003)', async () => {
    const vol = await sharedVolume();
    await legacyAttach(vol, SERVER_A);
    expectAccepted(await action(vol, { 'os-attach': { instance_uuid: SERVER_B, mountpoint: '/dev/vdc' } }));
    const res = await action(vol, { 'os-detach': {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      badRequest: {
        code: 400,
        message:
          'Invalid volume: Detach volume failed: More than one attachment, but no attachment_id provided.',
      },
    });
    const [first] = await attachmentRows(tc, vol);
    expectAccepted(await action(vol, { 'os-detach': { attachment_id: first?.id } }));
    const left = await attachmentRows(tc, vol);
    expect(left.map((a) => a.instance_uuid)).toEqual([SERVER_B]);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('accepts an unknown attachment_id and only puts the status right', async () => {
    const vol = await plainVolume();
    await legacyAttach(vol, SERVER_A);
    expectAccepted(
      await action(vol, { 'os-detach': { attachment_id: '0b1d6e0a-7f6c-4a52-9d0e-8f0e1c2b3a4d' } }),
    );
    expect(await attachmentRows(tc, vol)).toHaveLength(1);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
  });

  it('refuses to detach what Nova still uses (OSSA-2023-003, capture 58)', async () => {
    const vol = await plainVolume();
    const base = `${demo.volumeBase}/attachments`;
    const opts = { token: demo.token, version: 'volume 3.44' };
    const a = (
      await http(tc, 'POST', base, {
        ...opts,
        body: { attachment: { volume_uuid: vol, instance_uuid: SERVER_A } },
      })
    ).body.attachment;
    await http(tc, 'PUT', `${base}/${a.id}`, { ...opts, body: { attachment: { connector: connector() } } });
    await http(tc, 'POST', `${base}/${a.id}/action`, { ...opts, body: { 'os-complete': null } });
    nova.answer = async (instance, id) => instance === SERVER_A && id === a.id;
    const res = await action(vol, { 'os-detach': { attachment_id: a.id } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      conflictingRequest: {
        code: 409,
        message: `ConflictNovaUsingAttachment: Detach volume from instance ${SERVER_A} using the Compute API`,
      },
    });
    expect(await attachmentRows(tc, vol)).toHaveLength(1);
  });

  it('validates attachment_id', async () => {
    const vol = await plainVolume();
    const res = await action(vol, { 'os-detach': { attachment_id: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      "Invalid input for field/attribute attachment_id. Value: x. 'x' is not a 'uuid'",
    );
  });
});

describe('os-initialize_connection / os-terminate_connection', () => {
  it('returns the connection info (200) and unreserves on terminate', async () => {
    const vol = await plainVolume();
    expectAccepted(await action(vol, { 'os-reserve': null }));
    const res = await action(vol, { 'os-initialize_connection': { connector: connector() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      connection_info: {
        access_mode: 'rw',
        qos_specs: null,
        encrypted: false,
        cacheable: false,
        driver_volume_type: 'iscsi',
      },
    });
    expectAccepted(await action(vol, { 'os-terminate_connection': { connector: connector() } }));
    expect((await volumeRow(tc, vol)).status).toBe('available');
  });

  it('gives access_mode ro for a readonly volume', async () => {
    const vol = await plainVolume({ readonly: 'True' });
    const res = await action(vol, { 'os-initialize_connection': { connector: connector() } });
    expect(res.body.connection_info.access_mode).toBe('ro');
  });

  it('needs a connector', async () => {
    const vol = await plainVolume();
    const res = await action(vol, { 'os-initialize_connection': {} });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      "Invalid input for field/attribute os-initialize_connection. Value: {}. 'connector' is a required property",
    );
  });
});

describe('two clouds in one process', () => {
  let other: TestCloud;
  afterAll(async () => {
    await other?.close();
  });

  it('each action reaches the cloud that serves it, before any attachments request', async () => {
    other = await startCloud();
    const otherDemo = await login(other, 'demo');
    const there = await createVolume(other, { projectId: otherDemo.projectId });
    const res = await http(other, 'POST', `${otherDemo.volumeBase}/volumes/${there}/action`, {
      token: otherDemo.token,
      version: 'volume 3.50',
      body: { 'os-reserve': null },
    });
    expectAccepted(res);
    expect((await volumeRow(other, there)).status).toBe('attaching');
    const here = await plainVolume();
    expectAccepted(await action(here, { 'os-reserve': null }));
    expect((await volumeRow(tc, here)).status).toBe('attaching');
  });
});
