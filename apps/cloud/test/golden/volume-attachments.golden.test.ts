import { beforeAll, describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { bootFromVolume, createServer, setServer } from '../helpers/compute-fixtures.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import { type Capture, compareCapture, type Json, loadCapture, mapCapturePath } from './capture.js';

/**
 * The os-volume_attachments captures replayed against the bundled cloud, with the recorded
 * scenario rebuilt first: same status, same keys, same value types (and id/time formats).
 * Captured ids are mapped onto ours; device names differ by bus (sdX there, vdX here).
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
/** Captured id -> our id. */
const ids: Record<string, string> = {};

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

function replaceIds(text: string): string {
  let out = text;
  for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
  return out;
}

/** Sends the captured request (method, microversion, body) on our ids and compares the answer. */
async function replay(
  n: number,
  session: Session = demo,
): Promise<{ capture: Capture; status: number; body: unknown }> {
  const capture = loadCapture(n);
  const path = mapCapturePath(capture.request.url, { projectId: session.projectId, replaceIds: ids });
  const version = Object.entries(capture.request.headers).find(
    ([k]) => k.toLowerCase() === 'openstack-api-version',
  )?.[1];
  const body =
    capture.request.body === null
      ? undefined
      : (JSON.parse(replaceIds(JSON.stringify(capture.request.body))) as Json);
  const res = await http(tc, capture.request.method, path, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(body !== undefined ? { body } : {}),
  });
  return { capture, status: res.status, body: res.text === '' ? '' : res.body };
}

async function expectGolden(n: number, session: Session = demo, extra: { nullable?: string[] } = {}) {
  const { capture, status, body } = await replay(n, session);
  const diffs = compareCapture(capture, status, body, { formats: true, ...extra });
  expect(diffs, `${capture.file}: ${JSON.stringify(body)}`).toEqual([]);
  return body as Record<string, Record<string, unknown>>;
}

const volume = (opts: { multiattach?: boolean; bootable?: boolean } = {}) =>
  createVolume(tc, { projectId: demo.projectId, userId: demo.userId, ...opts });
const server = () => createServer(tc, { projectId: demo.projectId, userId: demo.userId });

describe('first run: servers A and B sharing a multiattach root (12, 16-31, 49-52, 56)', () => {
  beforeAll(async () => {
    const a = await server();
    const b = await server();
    const ma = await volume({ multiattach: true, bootable: true });
    const plainRoot = await volume({ bootable: true });
    await bootFromVolume(tc, a, ma);
    await bootFromVolume(tc, b, plainRoot);
    Object.assign(ids, {
      'fc182e0e-cbd6-47a4-87a2-55d6d73f525b': a.id,
      'aa9f60b8-70d7-485f-937a-36dbf5135a60': b.id,
      '0155e063-a222-4d63-b764-c99019bdcf50': ma,
      '21b9b27a-4031-4dd4-b16c-f7e7222bd929': plainRoot,
    });
  });

  it('12: attach the multiattach volume to server B at 2.60', async () => {
    await expectGolden(12);
    await tc.settle();
  });

  it.each([16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30])('%s: list/show', async (n) => {
    await expectGolden(n);
  });

  it('31: the list as admin', async () => {
    await expectGolden(31, admin);
  });

  it('49: the same multiattach volume twice to server B', async () => {
    await expectGolden(49);
  });

  it('50: the in-use plain volume onto server A', async () => {
    await expectGolden(50);
  });

  it('51, 52: a new multiattach data volume, attached at 2.59', async () => {
    const created = await replay(51);
    expect(
      compareCapture(created.capture, created.status, created.body, {
        formats: true,
        nullable: ['$.volume.*'],
      }),
    ).toEqual([]);
    const id = (created.body as { volume: { id: string } }).volume.id;
    ids['67833be2-9c01-49db-a545-3fe5a0ed328c'] = id;
    await tc.settle();
    await expectGolden(52);
  });

  it('56: detach the root volume', async () => {
    await expectGolden(56);
  });
});

describe('volume-backed servers at 2.89 (129, 138)', () => {
  it('129: the list of a BFV server', async () => {
    const s = await server();
    const root = await volume({ bootable: true });
    await bootFromVolume(tc, s, root);
    ids['06b535c3-c39a-4b93-8b65-90a338d3acc8'] = s.id;
    await expectGolden(129);
  });

  it('138: a root volume with delete_on_termination', async () => {
    const s = await server();
    await bootFromVolume(tc, s, await volume({ bootable: true }), { deleteOnTermination: true });
    ids['8ef51672-81ac-4240-88b5-3ea5a8b69afa'] = s.id;
    const body = await expectGolden(138);
    expect(
      (body['volumeAttachments'] as unknown as { delete_on_termination: boolean }[])[0]
        ?.delete_on_termination,
    ).toBe(true);
  });
});

describe('a shelved-offloaded server (169-175)', () => {
  beforeAll(async () => {
    // 129 made the server: shelve it the way the recorded cloud did (no host any more).
    await setServer(tc, ids['06b535c3-c39a-4b93-8b65-90a338d3acc8']!, {
      vm_state: 'shelved_offloaded',
      host: null,
      node: null,
    });
    ids['3b1f9f4a-59f4-42f5-8117-e5bcfed96a17'] = await volume({ multiattach: true });
    ids['3c11809d-d7a3-4441-8ff0-218d24a96007'] = await volume();
  });

  it.each([169, 170, 171, 172])('%s: attach', async (n) => {
    await expectGolden(n);
  });

  it('173: the volume in Cinder', async () => {
    await expectGolden(173, demo, { nullable: ['$.volume.*'] });
  });

  it('174: its Cinder attachment', async () => {
    await expectGolden(174);
  });

  it('175: the list omits the device of the local attachment', async () => {
    await expectGolden(175);
  });
});

describe('swap, detach and errors (200-219)', () => {
  beforeAll(async () => {
    const s1 = await server();
    const s2 = await server();
    await bootFromVolume(tc, s1, await volume({ bootable: true }));
    await bootFromVolume(tc, s2, await volume({ bootable: true }));
    Object.assign(ids, {
      'b4f86ff8-c672-4cdb-b61a-95798a618647': s1.id,
      'fd86b596-94fa-4ba8-a00e-884dd0c0f3f5': s2.id,
      '20c1278c-10de-49bd-8d67-16ef64ea2a69': await volume({ multiattach: true }),
      '61df8e28-c258-4d67-ba9c-799fdcb7f2dc': await volume(),
      '5ac25681-b471-4029-8c4e-5f888554931d': await volume(),
      '2e5a9994-2f8d-45b1-bd3f-c05dbece1dd4': await volume(),
    });
  });

  it('200, 201: the multiattach volume onto both servers', async () => {
    await expectGolden(200);
    await expectGolden(201);
    await tc.settle();
  });

  it('202: both attachments rw in Cinder', async () => {
    await expectGolden(202);
  });

  it('203, 204: admin swap from it is refused, the volume untouched', async () => {
    await expectGolden(203, admin);
    await expectGolden(204, demo, { nullable: ['$.volume.*'] });
  });

  it('205: swap as a member', async () => {
    await expectGolden(205);
  });

  it('206-210: a plain volume attached, then swapped by an admin', async () => {
    await expectGolden(206);
    await tc.settle();
    await expectGolden(207, admin);
    await tc.settle();
    await expectGolden(208);
    await expectGolden(209, demo, { nullable: ['$.volume.*'] });
    await expectGolden(210, demo, { nullable: ['$.volume.*', '$.volume.attachments'] });
  });

  it.each([211, 212, 213])('%s: swap errors', async (n) => {
    await expectGolden(n, admin);
  });

  it.each([214, 215, 216, 217, 218, 219])('%s: detach, attach and show errors', async (n) => {
    await expectGolden(n);
  });
});

describe('deleting one of two servers sharing a multiattach volume (296-298)', () => {
  it('leaves the volume in-use with the survivor attachment', async () => {
    const s2 = ids['fd86b596-94fa-4ba8-a00e-884dd0c0f3f5']!;
    const del = await http(tc, 'DELETE', `/compute/v2.1/servers/${s2}`, {
      token: demo.token,
      version: 'compute 2.60',
    });
    expect(del.status).toBe(204);
    await tc.settle();
    await expectGolden(296, demo, { nullable: ['$.volume.*'] });
    await expectGolden(297);
    await expectGolden(298);
  });
});
