import { beforeAll, describe, expect } from 'vitest';
import { DELETE_REFUSED } from '../../src/volume/service/volumes.service.js';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import {
  type CompareCaptureOptions,
  compareCapture,
  loadCapture,
  mapCapturePath,
  replayHeaders,
} from './capture.js';

/**
 * Golden tests for Cinder's volumes, volume types and version documents: each recorded exchange
 * is replayed against the bundled cloud in a state built to match the recorded one (captured ids
 * mapped to ours), then status, keys, value types and formats, the version headers, and the values
 * that carry the behaviour (statuses, flags, error messages) are compared.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
const ids: Record<string, string> = {};

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const VERSION_HEADERS = ['OpenStack-API-Version', 'Vary'];
/** Captures taken with the admin token (INDEX.md "user" column). */
const ADMIN_CAPTURES = new Set([37, 38, 237, 276, 278, 279, 283, 287, 288, 289]);

const CAPTURED = {
  maRoot: '0155e063-a222-4d63-b764-c99019bdcf50',
  plainRoot: '21b9b27a-4031-4dd4-b16c-f7e7222bd929',
  maData: '67833be2-9c01-49db-a545-3fe5a0ed328c',
  ro: '599ded6a-55b8-41f8-a831-098e486545cc',
  retype: 'b02669c2-2f14-416e-b9d6-81cc2d0abab4',
  inUsePlain: '2e5a9994-2f8d-45b1-bd3f-c05dbece1dd4',
  inUseShared: '20c1278c-10de-49bd-8d67-16ef64ea2a69',
  serverA: 'aa9f60b8-70d7-485f-937a-36dbf5135a60',
  serverB: 'fc182e0e-cbd6-47a4-87a2-55d6d73f525b',
  typeMultiattach: 'a6ea9e2c-52b8-4ed0-afac-d28327da8b4a',
  typeDefault: '10bd3c2e-f426-4ac3-b037-e7c36e2fefb7',
  typeCreated: '3cfedf1c-3aa9-471a-9304-0e2c393dfcf8',
};

const replace = (text: string) => {
  let out = text;
  for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
  return out;
};

/** Replays capture `n` (with the token of the user that recorded it) and compares the answer. */
async function check(n: number, opts: CompareCaptureOptions & { noToken?: boolean } = {}) {
  const cap = loadCapture(n);
  const session = ADMIN_CAPTURES.has(n) ? admin : demo;
  const headers = replayHeaders(cap, opts.noToken ? {} : { token: session.token });
  // Capture 38 is the admin token with the demo project in the URL.
  const projectId = n === 38 ? demo.projectId : session.projectId;
  const path = mapCapturePath(cap.request.url, { projectId, replaceIds: ids });
  const body = cap.request.body;
  const res = await http(tc, cap.request.method, path, {
    headers,
    ...(body !== null && body !== '' ? { rawBody: replace(JSON.stringify(body)) } : {}),
  });
  const { noToken: _ignored, ...compare } = opts;
  const diffs = compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
    formats: true,
    replaceIds: ids,
    baseUrl: tc.url,
    projectId,
    ...compare,
    headers: { actual: res.headers, names: VERSION_HEADERS, exactValues: VERSION_HEADERS },
  });
  return { res, diffs };
}

const call = (session: Session, method: string, path: string, body?: unknown, version = '3.70') =>
  http(tc, method, `${session.volumeBase}${path}`, {
    token: session.token,
    version: `volume ${version}`,
    ...(body !== undefined ? { body } : {}),
  });

/** Creates a volume for the captured id and waits until the backend made it available. */
async function volume(capturedId: string, spec: Record<string, unknown>, session = demo): Promise<string> {
  const res = await call(session, 'POST', '/volumes', { volume: { size: 1, ...spec } });
  expect(res.status, res.text).toBe(202);
  ids[capturedId] = res.body.volume.id;
  await tc.settle();
  // Distinct creation times keep the newest-first order deterministic.
  await new Promise((r) => setTimeout(r, 3));
  return res.body.volume.id;
}

/** Reserve with a connector and complete, as Nova attaches; device and host as recorded. */
async function attach(volumeId: string, server: string, device: string, capturedId?: string) {
  const res = await call(demo, 'POST', '/attachments', {
    attachment: {
      volume_uuid: volumeId,
      instance_uuid: server,
      connector: {
        host: 'oracle-compute',
        initiator: 'iqn.2004-10.com.ubuntu:01:oracle',
        mountpoint: device,
      },
    },
  });
  expect(res.status, res.text).toBe(200);
  if (capturedId) ids[capturedId] = res.body.attachment.id;
  const done = await call(demo, 'POST', `/attachments/${res.body.attachment.id}/action`, {
    'os-complete': null,
  });
  expect(done.status, done.text).toBe(204);
  await new Promise((r) => setTimeout(r, 3));
  return res.body.attachment.id as string;
}

const reserve = async (volumeId: string, server: string) => {
  const res = await call(demo, 'POST', '/attachments', {
    attachment: { volume_uuid: volumeId, instance_uuid: server },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.attachment.id as string;
};

/** JSON paths of a volume's values that carry behaviour (compared exactly). */
const volumeState = (p: string) => [
  ...['status', 'size', 'volume_type', 'multiattach', 'bootable', 'metadata', 'encrypted'].map(
    (f) => `${p}.${f}`,
  ),
  ...['id', 'attachment_id', 'volume_id', 'server_id', 'host_name', 'device'].map(
    (f) => `${p}.attachments[*].${f}`,
  ),
];
/** The attachments arrays are compared item by item (same length, same order). */
const PAIRWISE = { pairwiseArrays: ['$.volume.attachments'] };

describe('version discovery and microversion headers (captures 02, 220-227)', () => {
  it.each([2, 220, 221])('capture %i', async (n) => {
    const { diffs } = await check(n, {
      noToken: n === 220,
      exact: ['$.versions[0].id', '$.versions[0].status'],
    });
    expect(diffs).toEqual([]);
  });

  it.each([222, 227])('capture %i: no token', async (n) => {
    const cap = loadCapture(n);
    const path = mapCapturePath(cap.request.url, { projectId: demo.projectId });
    const res = await http(tc, cap.request.method, path, { headers: replayHeaders(cap) });
    const diffs = compareCapture(cap, res.status, res.body, {
      exact: ['$'],
      headers: { actual: res.headers, names: VERSION_HEADERS },
    });
    expect(diffs).toEqual([]);
  });

  it.each([223, 224, 225, 226])('capture %i', async (n) => {
    const { diffs } = await check(n, {
      // Our maximum is 3.71 (DESIGN.md); the rest of the text is Cinder's.
      normalize: (v) => (typeof v === 'string' ? v.replace('maximum is 3.70', 'maximum is 3.71') : v),
      exact: n === 225 ? [] : ['$'],
      allowEmptyArrays: true,
    });
    const expected =
      n === 225
        ? ['header OpenStack-API-Version: value differs: expected "volume 3.70", got "volume 3.71"']
        : [];
    expect(diffs).toEqual(expected);
  });
});

describe('create, show, bootable (captures 04, 05, 07, 10, 228-233)', () => {
  it('04: creates a multiattach volume; 05: shows it available', async () => {
    const c4 = await check(4, {
      exact: [...volumeState('$.volume'), '$.volume.shared_targets', '$.volume.service_uuid'],
    });
    expect(c4.diffs).toEqual([]);
    ids[CAPTURED.maRoot] = c4.res.body.volume.id;
    await tc.settle();
    const c5 = await check(5, {
      exact: [...volumeState('$.volume'), '$.volume.shared_targets', '$.volume.links'],
    });
    expect(c5.diffs).toEqual([]);
  });

  it('07: sets it bootable', async () => {
    const { diffs } = await check(7);
    expect(diffs).toEqual([]);
    expect((await call(demo, 'GET', `/volumes/${ids[CAPTURED.maRoot]}`)).body.volume.bootable).toBe('true');
  });

  it('10: creates a plain volume', async () => {
    const { diffs, res } = await check(10, { exact: volumeState('$.volume') });
    expect(diffs).toEqual([]);
    ids[CAPTURED.plainRoot] = res.body.volume.id;
    await tc.settle();
  });

  it.each([228, 229, 230, 231, 233])('capture %i: refused with the recorded fault', async (n) => {
    const { diffs } = await check(n, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('232: an unknown key is ignored', async () => {
    const { diffs } = await check(232, { exact: volumeState('$.volume') });
    expect(diffs).toEqual([]);
    await tc.settle();
  });
});

describe('a volume shared by two servers (captures 32-38, 53)', () => {
  beforeAll(async () => {
    const shared = ids[CAPTURED.maRoot] as string;
    await attach(shared, CAPTURED.serverB, '/dev/sda', '1bb10e67-79d8-4504-be88-8a85af63f8b6');
    await attach(shared, CAPTURED.serverA, '/dev/sdb', '8c18efe9-8395-4304-be5e-7875f1e222ed');
  });

  it.each([32, 33, 34, 35, 36])('capture %i: member view at its microversion', async (n) => {
    const { diffs } = await check(n, { exact: volumeState('$.volume'), ...PAIRWISE });
    expect(diffs).toEqual([]);
  });

  it('37: admin view, host attributes and attachment host names', async () => {
    const { diffs, res } = await check(37, { exact: volumeState('$.volume'), ...PAIRWISE });
    expect(diffs).toEqual([]);
    expect(res.body.volume['os-vol-host-attr:host']).toBe('cloud@lvmdriver-1#lvmdriver-1');
  });

  it('38: an admin token with another project in the URL', async () => {
    const { diffs } = await check(38, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('53: an attached volume cannot be deleted', async () => {
    const { diffs, res } = await check(53, { exact: ['$'] });
    expect(diffs).toEqual([]);
    expect(res.body.badRequest.message).toBe(`Invalid volume: ${DELETE_REFUSED}`);
  });
});

describe('lists, filters and paging (captures 234-245)', () => {
  beforeAll(async () => {
    for (const name of [
      'cap2-root-x-1da8fc',
      'cap2-root-s1-1da8fc',
      'cap2-ma-data-1da8fc',
      'cap2-p2-1da8fc',
      'cap2-p1-1da8fc',
    ]) {
      await volume(`name:${name}`, { name });
    }
    await volume('admin-only', { name: 'bars-admin-only' }, admin);
  });

  it.each([234, 235, 236, 238])('capture %i', async (n) => {
    const { diffs, res } = await check(n);
    expect(diffs).toEqual([]);
    if (n === 236) expect(res.body.volumes.map((v: { name: string }) => v.name)).toEqual(['cap2-p1-1da8fc']);
    if (n === 238) expect(JSON.stringify(res.body)).not.toContain('bars-admin-only');
  });

  it('237: admins see every project with all_tenants', async () => {
    const { diffs, res } = await check(237);
    expect(diffs).toEqual([]);
    expect(JSON.stringify(res.body)).toContain('bars-admin-only');
  });

  it('239 and 245: unknown filter and unknown marker', async () => {
    expect((await check(239, { exact: ['$'] })).diffs).toEqual([]);
    expect((await check(245, { exact: ['$'] })).diffs).toEqual([]);
  });

  it('240-243: pages of two, each with a next link', async () => {
    const markers = [
      '61df8e28-c258-4d67-ba9c-799fdcb7f2dc',
      '2e5a9994-2f8d-45b1-bd3f-c05dbece1dd4',
      'ef636505-0edd-4bac-b981-3986db40a221',
    ];
    const saved = { ...ids };
    try {
      for (const [i, n] of [240, 241, 242, 243].entries()) {
        const { diffs, res } = await check(n, { ignore: ['$.volumes_links[0].href'] });
        expect(diffs).toEqual([]);
        expect(res.body.volumes).toHaveLength(2);
        const last = res.body.volumes[1].id as string;
        expect(res.body.volumes_links[0].href).toMatch(new RegExp(`volumes\\?limit=2&marker=${last}$`));
        const captured = markers[i];
        if (captured) ids[captured] = last;
      }
    } finally {
      for (const k of markers) delete ids[k];
      Object.assign(ids, saved);
    }
  });

  it('244: detail sorted by name', async () => {
    const { diffs } = await check(244, { ignore: ['$.volumes_links[0].href'] });
    expect(diffs).toEqual([]);
  });
});

describe('readonly flag (captures 246, 247, 250-254, 61)', () => {
  let attachment: string;
  beforeAll(async () => {
    await volume(CAPTURED.ro, { name: 'cap2-ro-1da8fc' });
  });

  it('246, 247: readonly true shows in metadata', async () => {
    expect((await check(246)).diffs).toEqual([]);
    expect((await check(247, { exact: volumeState('$.volume') })).diffs).toEqual([]);
  });

  it('250-252: reserved volume: no attachments listed, no delete, no flag change', async () => {
    attachment = await reserve(ids[CAPTURED.ro] as string, 'b4f86ff8-c672-4cdb-b61a-95798a618647');
    expect((await check(250, { exact: volumeState('$.volume') })).diffs).toEqual([]);
    expect((await check(251, { exact: ['$'] })).diffs).toEqual([]);
    expect((await check(252, { exact: ['$'] })).diffs).toEqual([]);
  });

  it('253, 254: readonly false once the attachment is gone', async () => {
    expect((await call(demo, 'DELETE', `/attachments/${attachment}`)).status).toBe(200);
    expect((await check(253)).diffs).toEqual([]);
    expect((await check(254, { exact: volumeState('$.volume') })).diffs).toEqual([]);
  });

  it('61: a reserved multiattach volume at 3.70', async () => {
    await volume(CAPTURED.maData, { name: 'ma-data-894b77', volume_type: 'multiattach' });
    await call(demo, 'POST', `/volumes/${ids[CAPTURED.maData]}/action`, {
      'os-set_bootable': { bootable: true },
    });
    await reserve(ids[CAPTURED.maData] as string, CAPTURED.serverA);
    expect((await check(61, { exact: volumeState('$.volume') })).diffs).toEqual([]);
  });
});

describe('retype, extend, reset status, delete (captures 261-279, 290-292)', () => {
  beforeAll(async () => {
    await volume(CAPTURED.retype, { name: 'cap2-retype-1da8fc' });
    await volume(CAPTURED.inUsePlain, { name: 'cap2-p2-1da8fc' });
    await attach(ids[CAPTURED.inUsePlain] as string, CAPTURED.serverA, '/dev/vdb');
    await volume(CAPTURED.inUseShared, { name: 'cap2-ma-data-1da8fc', volume_type: 'multiattach' });
    await attach(ids[CAPTURED.inUseShared] as string, CAPTURED.serverB, '/dev/vdc');
  });

  it('261-264: retype to multiattach and back', async () => {
    for (const n of [261, 262, 263, 264]) {
      const { diffs } = await check(n, n % 2 === 0 ? { exact: volumeState('$.volume') } : {});
      expect(diffs, `capture ${n}`).toEqual([]);
      await tc.settle();
    }
  });

  it.each([265, 266, 267, 268, 269])('capture %i: refused as recorded', async (n) => {
    expect((await check(n, { exact: ['$'] })).diffs).toEqual([]);
  });

  it('270, 271: extend (our backend succeeds where the fake driver failed)', async () => {
    expect((await check(270)).diffs).toEqual([]);
    await tc.settle();
    const { diffs, res } = await check(271);
    expect(diffs).toEqual([]);
    expect(res.body.volume).toMatchObject({ status: 'available', size: 2 });
  });

  it('273: a size that is not greater (on a size-1 volume left in error_extending)', async () => {
    const saved = ids[CAPTURED.retype] as string;
    await volume(CAPTURED.retype, { name: 'cap2-extend-1da8fc' });
    expect(
      (
        await call(admin, 'POST', `/volumes/${ids[CAPTURED.retype]}/action`, {
          'os-reset_status': { status: 'error_extending' },
        })
      ).status,
    ).toBe(202);
    expect((await check(273, { exact: ['$'] })).diffs).toEqual([]);
    ids[CAPTURED.retype] = saved;
  });

  it('274: in-use below 3.42', async () => {
    expect((await check(274, { exact: ['$'] })).diffs).toEqual([]);
  });

  it('275-279: reset status is for admins', async () => {
    expect((await check(275, { exact: ['$'] })).diffs).toEqual([]);
    expect((await check(276)).diffs).toEqual([]);
    expect((await check(277, { exact: ['$.volume.status'] })).diffs).toEqual([]);
    expect((await check(278, { exact: ['$'] })).diffs).toEqual([]);
    expect((await check(279)).diffs).toEqual([]);
  });

  it.each([290, 291, 292])('capture %i: delete refused', async (n) => {
    expect((await check(n, { exact: ['$'] })).diffs).toEqual([]);
  });
});

describe('volume types (captures 03, 280-289)', () => {
  beforeAll(async () => {
    const types = (await call(admin, 'GET', '/types')).body.volume_types as { id: string; name: string }[];
    ids[CAPTURED.typeMultiattach] = types.find((t) => t.name === 'multiattach')?.id as string;
    ids[CAPTURED.typeDefault] = types.find((t) => t.name === '__DEFAULT__')?.id as string;
  });

  it.each([3, 280])('capture %i: the seeded types as a member lists them', async (n) => {
    expect((await check(n, { exact: ['$'] })).diffs).toEqual([]);
  });

  it.each([281, 282, 283, 284, 285, 286])('capture %i', async (n) => {
    expect((await check(n, { exact: ['$'] })).diffs).toEqual([]);
  });

  it('287-289: admin creates, deletes, then cannot find a type', async () => {
    const created = await check(287, { exact: ['$.volume_type.name', '$.volume_type.extra_specs'] });
    expect(created.diffs).toEqual([]);
    ids[CAPTURED.typeCreated] = created.res.body.volume_type.id;
    expect((await check(288)).diffs).toEqual([]);
    expect(created.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await check(289, { exact: ['$'] })).diffs).toEqual([]);
  });
});
