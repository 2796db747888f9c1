import { afterEach, beforeAll, describe, expect } from 'vitest';
import { http, type Session, scriptedNova, type TestCloud } from '../../helpers/cloud.js';
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
const SERVER_C = 'b4f86ff8-c672-4cdb-b61a-95798a618647';

type Opts = { version?: string; session?: Session; body?: unknown };
const call = (method: string, path: string, opts: Opts = {}) => {
  const s = opts.session ?? demo;
  return http(tc, method, `${s.volumeBase}${path}`, {
    token: s.token,
    version: `volume ${opts.version ?? '3.70'}`,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
};

const reserve = (volumeId: string, instanceUuid: string | null = SERVER_A, opts: Opts = {}) =>
  call('POST', '/attachments', {
    ...opts,
    body: { attachment: { volume_uuid: volumeId, ...(instanceUuid ? { instance_uuid: instanceUuid } : {}) } },
  });

const plainVolume = (extra: { status?: string; readonly?: 'True' | 'False' } = {}) =>
  createVolume(tc, { projectId: demo.projectId, ...extra });
const sharedVolume = (extra: { status?: string } = {}) =>
  createVolume(tc, { projectId: demo.projectId, multiattach: true, ...extra });

describe('microversion gates', () => {
  it.each([
    ['GET', '/attachments'],
    ['GET', '/attachments/detail'],
    ['GET', '/attachments/8c18efe9-8395-4304-be5e-7875f1e222ed'],
    ['POST', '/attachments'],
    ['PUT', '/attachments/8c18efe9-8395-4304-be5e-7875f1e222ed'],
    ['DELETE', '/attachments/8c18efe9-8395-4304-be5e-7875f1e222ed'],
  ])("%s %s below 3.27 is webob's 404 (capture 46)", async (method, path) => {
    const res = await call(method, path, {
      version: '3.26',
      body: method === 'POST' || method === 'PUT' ? {} : undefined,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ itemNotFound: { code: 404, message: 'The resource could not be found.' } });
    expect(res.headers.get('openstack-api-version')).toBe('volume 3.26');
  });

  it('without a version header (3.0) the attachments API does not exist', async () => {
    const res = await http(tc, 'GET', `${demo.volumeBase}/attachments`, { token: demo.token });
    expect(res.status).toBe(404);
  });

  it('os-complete does not exist below 3.44', async () => {
    const vol = await sharedVolume();
    const a = (await reserve(vol)).body.attachment;
    const res = await call('POST', `/attachments/${a.id}/action`, {
      version: '3.43',
      body: { 'os-complete': null },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ itemNotFound: { code: 404, message: 'The resource could not be found.' } });
    expect((await attachmentRows(tc, vol))[0]?.attach_status).toBe('reserved');
  });
});

describe('POST /attachments (reserve)', () => {
  it('reserves without a connector: 200, detail view, volume reserved (captures 60, 61)', async () => {
    const vol = await plainVolume();
    const res = await reserve(vol, SERVER_A, { version: '3.27' });
    expect(res.status).toBe(200);
    expect(res.headers.get('openstack-api-version')).toBe('volume 3.27');
    const a = res.body.attachment;
    expect(Object.keys(a)).toEqual([
      'id',
      'status',
      'instance',
      'volume_id',
      'attached_at',
      'detached_at',
      'attach_mode',
      'connection_info',
    ]);
    expect(a).toMatchObject({
      status: 'reserved',
      instance: SERVER_A,
      volume_id: vol,
      attached_at: '',
      detached_at: '',
      attach_mode: 'null',
      connection_info: {},
    });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved', attach_status: 'reserved' });
  });

  it('accepts a reserve without instance_uuid', async () => {
    const vol = await plainVolume();
    const res = await reserve(vol, null);
    expect(res.status).toBe(200);
    expect(res.body.attachment.instance).toBeNull();
  });

  it('creates and connects at once when a connector is given (capture 178 connection_info)', async () => {
    const vol = await plainVolume();
    const res = await call('POST', '/attachments', {
      body: { attachment: { volume_uuid: vol, instance_uuid: SERVER_A, connector: connector('compute-1') } },
    });
    expect(res.status).toBe(200);
    const a = res.body.attachment;
    expect(a.status).toBe('attaching');
    expect(a.attach_mode).toBe('rw');
    expect(a.attached_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(a.connection_info).toEqual({
      access_mode: 'rw',
      qos_specs: null,
      encrypted: false,
      cacheable: false,
      driver_volume_type: 'iscsi',
      attachment_id: a.id,
    });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'attaching', attach_status: 'attaching' });
    const [row] = await attachmentRows(tc, vol);
    expect(row).toMatchObject({ attached_host: 'compute-1', mountpoint: '/dev/vdb' });
    expect(JSON.parse(row?.connector ?? '{}').mode).toBe('rw');
  });

  it("a connector with mode ro and no stored mode connects ro (the manager's rule)", async () => {
    const vol = await plainVolume();
    const res = await call('POST', '/attachments', {
      body: {
        attachment: { volume_uuid: vol, instance_uuid: SERVER_A, connector: connector('h', { mode: 'ro' }) },
      },
    });
    expect(res.body.attachment.attach_mode).toBe('ro');
    expect(res.body.attachment.connection_info.access_mode).toBe('ro');
  });

  it('answers an unknown volume with 404', async () => {
    const missing = '53846aff-9c7e-4c89-8e58-732ddce044c4';
    const res = await reserve(missing);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      itemNotFound: { code: 404, message: `Volume ${missing} could not be found.` },
    });
  });

  it("hides another project's volume from a member, while an admin may reserve it", async () => {
    const adminVol = await createVolume(tc, { projectId: admin.projectId });
    const res = await reserve(adminVol);
    expect(res.status).toBe(404);
    expect(res.body.itemNotFound.message).toBe(`Volume ${adminVol} could not be found.`);

    const demoVol = await plainVolume();
    const byAdmin = await reserve(demoVol, SERVER_A, { session: admin });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.attachment.volume_id).toBe(demoVol);
  });

  it("refuses a second reserve of a plain volume with Cinder's 400", async () => {
    const vol = await plainVolume();
    expect((await reserve(vol, SERVER_A)).status).toBe(200);
    const res = await reserve(vol, SERVER_B);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      badRequest: {
        code: 400,
        message: `Invalid volume: Volume ${vol} status must be available or downloading to reserve, but the current status is reserved.`,
      },
    });
    expect(await attachmentRows(tc, vol)).toHaveLength(1);
  });

  it('refuses a plain in-use volume for another server', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol, SERVER_A)).body.attachment;
    await call('PUT', `/attachments/${a.id}`, { body: { attachment: { connector: connector() } } });
    await call('POST', `/attachments/${a.id}/action`, { body: { 'os-complete': null } });
    const res = await reserve(vol, SERVER_B);
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      `Invalid volume: Volume ${vol} status must be available or downloading to reserve, but the current status is in-use.`,
    );
  });

  it('lets the same server reserve a plain volume again (LP 1694530, live migration)', async () => {
    const vol = await plainVolume();
    expect((await reserve(vol, SERVER_A)).status).toBe(200);
    const again = await reserve(vol, SERVER_A);
    expect(again.status).toBe(200);
    expect(await attachmentRows(tc, vol)).toHaveLength(2);
  });

  it('reserves a multiattach volume for three servers in a row while reserved (bug 1747985 fixed)', async () => {
    const vol = await sharedVolume();
    const ids: string[] = [];
    for (const server of [SERVER_A, SERVER_B, SERVER_C]) {
      const res = await reserve(vol, server);
      expect(res.status).toBe(200);
      expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved', attach_status: 'reserved' });
      ids.push(res.body.attachment.id);
    }
    for (const [i, id] of ids.entries()) {
      const up = await call('PUT', `/attachments/${id}`, {
        body: { attachment: { connector: connector(`host-${i}`) } },
      });
      expect(up.status).toBe(200);
      expect(up.body.attachment.status).toBe('attaching');
      const done = await call('POST', `/attachments/${id}/action`, {
        version: '3.44',
        body: { 'os-complete': null },
      });
      expect(done.status).toBe(204);
      expect(done.text).toBe('');
    }
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const list = await call('GET', `/attachments?volume_id=${vol}`);
    expect(list.body.attachments).toHaveLength(3);
    expect(list.body.attachments.every((a: { status: string }) => a.status === 'attached')).toBe(true);
  });

  it('reserves an in-use multiattach volume for another server and keeps it in-use', async () => {
    const vol = await sharedVolume();
    const a = (await reserve(vol, SERVER_A)).body.attachment;
    await call('PUT', `/attachments/${a.id}`, { body: { attachment: { connector: connector() } } });
    await call('POST', `/attachments/${a.id}/action`, { body: { 'os-complete': null } });
    const second = await reserve(vol, SERVER_B);
    expect(second.status).toBe(200);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
  });

  it('refuses a multiattach volume that is attaching, with the fixed status list', async () => {
    const vol = await sharedVolume();
    const a = (await reserve(vol, SERVER_A)).body.attachment;
    await call('PUT', `/attachments/${a.id}`, { body: { attachment: { connector: connector() } } });
    const res = await reserve(vol, SERVER_B);
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      `Invalid volume: Volume ${vol} status must be available or in-use or downloading or reserved to reserve, but the current status is attaching.`,
    );
  });

  it('refuses a volume in an error state, trailing space included', async () => {
    const vol = await plainVolume({ status: 'error_extending' });
    const res = await reserve(vol);
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      `Invalid volume: Volume attachments can not be created if the volume is in an error state. The Volume ${vol} currently has a status of: error_extending `,
    );
  });

  it('refuses a volume that is not ready (creating)', async () => {
    const vol = await plainVolume({ status: 'creating' });
    const res = await reserve(vol);
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      `Invalid volume: Volume ${vol} status must be available or downloading to reserve, but the current status is creating.`,
    );
  });
});

describe('concurrent reserves', () => {
  const servers = Array.from({ length: 6 }, (_, i) => `0000000${i}-0000-4000-8000-000000000000`);

  it('let exactly one of several parallel reserves of a plain volume through', async () => {
    const vol = await plainVolume();
    const results = await Promise.all(servers.map((s) => reserve(vol, s)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await attachmentRows(tc, vol)).toHaveLength(1);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved' });
  });

  it('let every parallel reserve of a multiattach volume through', async () => {
    const vol = await sharedVolume();
    const results = await Promise.all(servers.map((s) => reserve(vol, s)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await attachmentRows(tc, vol)).toHaveLength(servers.length);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved', attach_status: 'reserved' });
  });
});

describe('attach modes', () => {
  it('comes out ro on a readonly volume, even with readonly=False (captures 248, 255)', async () => {
    for (const flag of ['True', 'False'] as const) {
      const vol = await plainVolume({ readonly: flag });
      const res = await reserve(vol, SERVER_C, { version: '3.27' });
      expect(res.status).toBe(200);
      expect(res.body.attachment.attach_mode).toBe('ro');
    }
  });

  it('takes the 3.54 mode (capture 257) and connects read-only', async () => {
    const vol = await plainVolume();
    const res = await call('POST', '/attachments', {
      version: '3.54',
      body: { attachment: { volume_uuid: vol, instance_uuid: SERVER_C, mode: 'ro' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.attachment).toMatchObject({ status: 'reserved', attach_mode: 'ro', connection_info: {} });
    // The stored mode wins over the connector's, and (enhancement) gives access_mode ro.
    const up = await call('PUT', `/attachments/${res.body.attachment.id}`, {
      body: { attachment: { connector: connector('h', { mode: 'rw' }) } },
    });
    expect(up.body.attachment.attach_mode).toBe('ro');
    expect(up.body.attachment.connection_info.access_mode).toBe('ro');
  });

  it('readonly=False keeps access_mode rw for an rw connection at 3.27 (reference 2.5)', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    const up = await call('PUT', `/attachments/${a.id}`, {
      body: { attachment: { connector: connector() } },
    });
    expect(up.body.attachment.attach_mode).toBe('rw');
    expect(up.body.attachment.connection_info.access_mode).toBe('rw');
  });
});

describe('request body errors', () => {
  const vol = '67833be2-9c01-49db-a545-3fe5a0ed328c';

  it('names a missing volume_uuid the way capture 59 does', async () => {
    const res = await call('POST', '/attachments', {
      version: '3.27',
      body: { attachment: { volume_id: vol, instance_uuid: SERVER_A } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      badRequest: {
        code: 400,
        message: `Invalid input for field/attribute attachment. Value: {'volume_id': '${vol}', 'instance_uuid': '${SERVER_A}'}. 'volume_uuid' is a required property`,
      },
    });
  });

  it('refuses mode below 3.54 as an additional property (capture 256)', async () => {
    const res = await call('POST', '/attachments', {
      version: '3.50',
      body: { attachment: { volume_uuid: vol, instance_uuid: SERVER_C, mode: 'ro' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      `Invalid input for field/attribute attachment. Value: {'volume_uuid': '${vol}', 'instance_uuid': '${SERVER_C}', 'mode': 'ro'}. Additional properties are not allowed ('mode' was unexpected)`,
    );
  });

  it('refuses an unknown mode at 3.54 (capture 260)', async () => {
    const res = await call('POST', '/attachments', {
      version: '3.54',
      body: { attachment: { volume_uuid: vol, instance_uuid: SERVER_C, mode: 'xx' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      "Invalid input for field/attribute mode. Value: xx. 'xx' is not one of ['rw', 'ro']",
    );
  });

  it.each([
    [{}, "'attachment' is a required property"],
    [
      { attachment: { volume_uuid: vol }, extra: 1 },
      "Additional properties are not allowed ('extra' was unexpected)",
    ],
    [
      { attachment: { volume_uuid: 'nope' } },
      "Invalid input for field/attribute volume_uuid. Value: nope. 'nope' is not a 'uuid'",
    ],
    [
      { attachment: { volume_uuid: vol, connector: 'x' } },
      "Invalid input for field/attribute connector. Value: x. 'x' is not of type 'object', 'null'",
    ],
    [
      { attachment: { volume_uuid: vol, instance_uuid: null } },
      "Invalid input for field/attribute instance_uuid. Value: None. None is not of type 'string'",
    ],
  ])('create body %j → %s', async (body, message) => {
    const res = await call('POST', '/attachments', { body });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(message);
  });

  it('validates an empty create body as None', async () => {
    const res = await http(tc, 'POST', `${demo.volumeBase}/attachments`, {
      token: demo.token,
      version: 'volume 3.27',
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe("None is not of type 'object'");
  });

  it.each([
    [
      { attachment: { connector: {} } },
      'Invalid input for field/attribute connector. Value: {}. {} does not have enough properties',
    ],
    [
      { attachment: {} },
      "Invalid input for field/attribute attachment. Value: {}. 'connector' is a required property",
    ],
    [
      { attachment: { connector: null } },
      "Invalid input for field/attribute connector. Value: None. None is not of type 'object'",
    ],
  ])('update body %j → %s', async (body, message) => {
    const res = await call('PUT', '/attachments/8c18efe9-8395-4304-be5e-7875f1e222ed', { body });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(message);
  });
});

describe('PUT /attachments/{id}', () => {
  it('connects a reserved attachment: attaching, connection_info filled', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    const res = await call('PUT', `/attachments/${a.id}`, {
      body: { attachment: { connector: connector() } },
    });
    expect(res.status).toBe(200);
    expect(res.body.attachment).toMatchObject({ id: a.id, status: 'attaching', attach_mode: 'rw' });
    expect(res.body.attachment.connection_info.attachment_id).toBe(a.id);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'attaching', attach_status: 'attaching' });
  });

  it('answers an unknown attachment with 404', async () => {
    const id = '0b1d6e0a-7f6c-4a52-9d0e-8f0e1c2b3a4d';
    const res = await call('PUT', `/attachments/${id}`, { body: { attachment: { connector: connector() } } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      itemNotFound: {
        code: 404,
        message: `Volume attachment could not be found with filter: attachment_id = ${id}.`,
      },
    });
  });

  it('refuses a volume in an error state with 409', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    await tc.cloud.deps.store.db
      .updateTable('volumes')
      .set({ status: 'error' })
      .where('id', '=', vol)
      .execute();
    const res = await call('PUT', `/attachments/${a.id}`, {
      body: { attachment: { connector: connector() } },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      conflictingRequest: {
        code: 409,
        message: `Resource conflict: Volume attachments can not be updated if the volume is in an error state. The Volume ${vol} currently has a status of: error `,
      },
    });
  });

  it('refuses a second connection on a plain volume (duplicate connectors)', async () => {
    const vol = await plainVolume();
    const first = (await reserve(vol, SERVER_A)).body.attachment;
    const second = (await reserve(vol, SERVER_A)).body.attachment;
    expect(
      (
        await call('PUT', `/attachments/${first.id}`, {
          body: { attachment: { connector: connector('src') } },
        })
      ).status,
    ).toBe(200);
    const res = await call('PUT', `/attachments/${second.id}`, {
      body: { attachment: { connector: connector('dst') } },
    });
    expect(res.status).toBe(409);
    expect(res.body.conflictingRequest.message).toBe(
      `Resource conflict: duplicate connectors detected on volume ${vol}`,
    );
  });
});

describe('POST /attachments/{id}/action', () => {
  it('os-complete marks the attachment attached and the volume in-use', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    await call('PUT', `/attachments/${a.id}`, { body: { attachment: { connector: connector() } } });
    const res = await call('POST', `/attachments/${a.id}/action`, { body: { 'os-complete': null } });
    expect(res.status).toBe(204);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    const show = await call('GET', `/attachments/${a.id}`);
    expect(show.body.attachment.status).toBe('attached');
  });

  it('completing without a connection keeps attached_at empty and mode "null" (capture 174)', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    await call('POST', `/attachments/${a.id}/action`, { body: { 'os-complete': null } });
    const show = await call('GET', `/attachments/${a.id}`);
    expect(show.body.attachment).toMatchObject({
      status: 'attached',
      attached_at: '',
      attach_mode: 'null',
      connection_info: {},
    });
  });

  it('answers an unknown action and a malformed body with 400', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    const unknown = await call('POST', `/attachments/${a.id}/action`, { body: { 'os-bogus': null } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.badRequest.message).toBe('There is no such action: os-bogus');
    const two = await call('POST', `/attachments/${a.id}/action`, { body: { 'os-complete': null, x: 1 } });
    expect(two.status).toBe(400);
    expect(two.body.badRequest.message).toBe('Malformed request body');
  });

  it('answers os-complete of an unknown attachment with 404', async () => {
    const id = '0b1d6e0a-7f6c-4a52-9d0e-8f0e1c2b3a4d';
    const res = await call('POST', `/attachments/${id}/action`, { body: { 'os-complete': null } });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /attachments/{id}', () => {
  it('deletes a reserved attachment: 200 {"attachments": []}, volume available (capture 62)', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol)).body.attachment;
    const res = await call('DELETE', `/attachments/${a.id}`, { version: '3.27' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ attachments: [] });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
  });

  it('recomputes the status after each delete and lists what remains', async () => {
    const vol = await sharedVolume();
    const ids: string[] = [];
    for (const server of [SERVER_A, SERVER_B, SERVER_C])
      ids.push((await reserve(vol, server)).body.attachment.id);
    const [a, b, c] = ids as [string, string, string];
    // a attached, b attaching, c reserved.
    await call('PUT', `/attachments/${a}`, { body: { attachment: { connector: connector('h1') } } });
    await call('POST', `/attachments/${a}/action`, { body: { 'os-complete': null } });
    await call('PUT', `/attachments/${b}`, { body: { attachment: { connector: connector('h2') } } });
    expect((await volumeRow(tc, vol)).status).toBe('in-use');

    const afterA = await call('DELETE', `/attachments/${a}`);
    expect(afterA.status).toBe(200);
    expect(afterA.body.attachments.map((x: { id: string }) => x.id).sort()).toEqual([b, c].sort());
    expect(Object.keys(afterA.body.attachments[0])).toEqual(['id', 'status', 'instance', 'volume_id']);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'attaching', attach_status: 'attaching' });

    await call('DELETE', `/attachments/${b}`);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'reserved', attach_status: 'reserved' });

    const last = await call('DELETE', `/attachments/${c}`);
    expect(last.body).toEqual({ attachments: [] });
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'available', attach_status: 'detached' });
  });

  it('refuses a user delete of an attachment Nova still reports (OSSA-2023-003, capture 57)', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol, SERVER_A)).body.attachment;
    await call('PUT', `/attachments/${a.id}`, { body: { attachment: { connector: connector() } } });
    await call('POST', `/attachments/${a.id}/action`, { body: { 'os-complete': null } });
    const asked: string[][] = [];
    nova.answer = async (instance, attachment) => {
      asked.push([instance, attachment]);
      return true;
    };
    const res = await call('DELETE', `/attachments/${a.id}`, { version: '3.27' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      conflictingRequest: {
        code: 409,
        message: `ConflictNovaUsingAttachment: Detach volume from instance ${SERVER_A} using the Compute API`,
      },
    });
    expect(asked).toEqual([[SERVER_A, a.id]]);
    expect(await attachmentRows(tc, vol)).toHaveLength(1);

    // Once Nova no longer reports it, the user may delete it.
    nova.answer = async () => false;
    expect((await call('DELETE', `/attachments/${a.id}`)).status).toBe(200);
  });

  it('never asks Nova about an attachment without a connection', async () => {
    const vol = await plainVolume();
    const a = (await reserve(vol, SERVER_A)).body.attachment;
    nova.answer = async () => {
      throw new Error('must not be asked');
    };
    expect((await call('DELETE', `/attachments/${a.id}`)).status).toBe(200);
  });

  it("answers another project's attachment with 404 and leaves it", async () => {
    const adminVol = await createVolume(tc, { projectId: admin.projectId });
    const a = (await reserve(adminVol, SERVER_A, { session: admin })).body.attachment;
    const res = await call('DELETE', `/attachments/${a.id}`);
    expect(res.status).toBe(404);
    expect(res.body.itemNotFound.message).toBe(
      `Volume attachment could not be found with filter: attachment_id = ${a.id}.`,
    );
    expect(await attachmentRows(tc, adminVol)).toHaveLength(1);
  });
});

describe('GET /attachments, /attachments/detail, /attachments/{id}', () => {
  let d: Session;
  let adm: Session;
  let volA: string;
  let volB: string;
  let adminVol: string;
  const ids: Record<string, string> = {};

  const get = (path: string, s: Session, version = '3.70') =>
    http(tc, 'GET', `${s.volumeBase}${path}`, { token: s.token, version: `volume ${version}` });
  const post = (s: Session, body: unknown) =>
    http(tc, 'POST', `${s.volumeBase}/attachments`, { token: s.token, version: 'volume 3.70', body });

  beforeAll(async () => {
    // A known set of attachments: forget the ones the tests above made (one cloud per file keeps
    // the PostgreSQL runs to one schema per file).
    await tc.cloud.deps.store.db.deleteFrom('volume_attachments').execute();
    d = demo;
    adm = admin;
    volA = await createVolume(tc, { projectId: d.projectId, multiattach: true });
    volB = await createVolume(tc, { projectId: d.projectId });
    adminVol = await createVolume(tc, { projectId: adm.projectId });
    for (const [key, vol, server, s] of [
      ['a1', volA, SERVER_A, d],
      ['a2', volA, SERVER_B, d],
      ['b1', volB, SERVER_A, d],
      ['x1', adminVol, SERVER_C, adm],
    ] as const) {
      const res = await post(s, { attachment: { volume_uuid: vol, instance_uuid: server } });
      expect(res.status).toBe(200);
      ids[key] = res.body.attachment.id;
      await new Promise((r) => setTimeout(r, 5)); // distinct created_at
    }
    await http(tc, 'PUT', `${d.volumeBase}/attachments/${ids['a1']}`, {
      token: d.token,
      version: 'volume 3.70',
      body: { attachment: { connector: connector() } },
    });
  });

  it("lists the project's attachments, newest first, in the summary view (captures 39, 43)", async () => {
    const res = await get('/attachments', d, '3.27');
    expect(res.status).toBe(200);
    expect(res.body.attachments.map((a: { id: string }) => a.id)).toEqual([ids['b1'], ids['a2'], ids['a1']]);
    expect(Object.keys(res.body.attachments[0])).toEqual(['id', 'status', 'instance', 'volume_id']);
    expect(res.body).not.toHaveProperty('attachments_links');
  });

  it('shows details in /detail (captures 40, 44)', async () => {
    const res = await get('/attachments/detail', d);
    expect(res.status).toBe(200);
    const a1 = res.body.attachments.find((a: { id: string }) => a.id === ids['a1']);
    expect(a1).toMatchObject({ status: 'attaching', attach_mode: 'rw', detached_at: '' });
    expect(a1.connection_info.driver_volume_type).toBe('iscsi');
  });

  it.each([
    ['volume_id', () => `volume_id=${volA}`, () => [ids['a2'], ids['a1']]],
    ['status', () => 'status=attaching', () => [ids['a1']]],
    ['attach_status', () => 'attach_status=reserved', () => [ids['b1'], ids['a2']]],
    ['instance_id', () => `instance_id=${SERVER_A}`, () => [ids['b1'], ids['a1']]],
  ])('filters by %s', async (_name, query, expected) => {
    const res = await get(`/attachments?${query()}`, d);
    expect(res.status).toBe(200);
    expect(res.body.attachments.map((a: { id: string }) => a.id)).toEqual(expected());
  });

  it('pages with limit, marker and offset, and sorts ascending on request', async () => {
    const page1 = await get('/attachments?limit=2', d);
    expect(page1.body.attachments.map((a: { id: string }) => a.id)).toEqual([ids['b1'], ids['a2']]);
    const page2 = await get(`/attachments?limit=2&marker=${ids['a2']}`, d);
    expect(page2.body.attachments.map((a: { id: string }) => a.id)).toEqual([ids['a1']]);
    const skipped = await get('/attachments?offset=1&limit=1', d);
    expect(skipped.body.attachments.map((a: { id: string }) => a.id)).toEqual([ids['a2']]);
    const asc = await get('/attachments?sort_dir=asc', d);
    expect(asc.body.attachments.map((a: { id: string }) => a.id)).toEqual([ids['a1'], ids['a2'], ids['b1']]);
  });

  it("answers bad paging parameters with Cinder's 400s and an unknown marker with 404", async () => {
    expect((await get('/attachments?limit=x', d)).body.badRequest.message).toBe(
      'limit param must be an integer',
    );
    expect((await get('/attachments?limit=-1', d)).body.badRequest.message).toBe(
      'limit param must be positive',
    );
    const marker = '0b1d6e0a-7f6c-4a52-9d0e-8f0e1c2b3a4d';
    const res = await get(`/attachments?marker=${marker}`, d);
    expect(res.status).toBe(404);
    expect(res.body.itemNotFound.message).toBe(
      `Volume attachment could not be found with filter: attachment_id = ${marker}.`,
    );
  });

  it('refuses unknown filters from 3.34 for members, and drops them before', async () => {
    const res = await get('/attachments?bogus=1', d, '3.34');
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe('Invalid filters bogus are found in query options.');
    const old = await get('/attachments?bogus=1', d, '3.33');
    expect(old.status).toBe(200);
    expect(old.body.attachments).toHaveLength(3);
  });

  it("keeps projects apart: a member never sees another project's attachments", async () => {
    const mine = await get('/attachments', d);
    expect(mine.body.attachments.map((a: { id: string }) => a.id)).not.toContain(ids['x1']);
    const show = await get(`/attachments/${ids['x1']}`, d);
    expect(show.status).toBe(404);
    expect(show.body.itemNotFound.message).toBe(
      `Volume attachment could not be found with filter: attachment_id = ${ids['x1']}.`,
    );
    // all_tenants from a member is ignored (as for volumes, capture 238).
    const all = await get('/attachments?all_tenants=1', d);
    expect(all.status).toBe(200);
    expect(all.body.attachments).toHaveLength(3);
  });

  it('lets an admin see every project with all_tenants, and only their own without', async () => {
    const own = await get('/attachments', adm);
    expect(own.body.attachments.map((a: { id: string }) => a.id)).toEqual([ids['x1']]);
    const all = await get('/attachments?all_tenants=1', adm);
    expect(all.body.attachments.map((a: { id: string }) => a.id)).toEqual([
      ids['x1'],
      ids['b1'],
      ids['a2'],
      ids['a1'],
    ]);
    const show = await get(`/attachments/${ids['a1']}`, adm);
    expect(show.status).toBe(200);
    expect(show.body.attachment.id).toBe(ids['a1']);
  });

  it('shows one attachment in the detail view (captures 47, 48)', async () => {
    const res = await get(`/attachments/${ids['a2']}`, d, '3.27');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      attachment: {
        id: ids['a2'],
        status: 'reserved',
        instance: SERVER_B,
        volume_id: volA,
        attached_at: '',
        detached_at: '',
        attach_mode: 'null',
        connection_info: {},
      },
    });
  });
});
