import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../src/image/seed.js';
import { addFlavor, allHostsEnabled, onlyHosts } from '../api/compute/servers-fixtures.js';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import {
  type Capture,
  type CompareCaptureOptions,
  compareCapture,
  type Json,
  loadCapture,
  mapCapturePath,
} from './capture.js';

/**
 * The servers API against the recorded Nova (captures 06-15, 54, 55, 116-199): each capture's
 * request is replayed with our ids in place of the recorded ones, and the answer must have the
 * same status, the same keys and the same value types (and formats) as the recorded one.
 * Sequences that depend on earlier steps run in the order they were recorded.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
/** Recorded id -> ours, applied to URLs and request bodies. */
const ids: Record<string, string> = {};

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  // The flavor capture 179 created, with its id, for the resize captures.
  await addFlavor(tc, {
    id: 'c3d9fc56-750c-406b-8643-962951fa6139',
    name: 'cap2-small-1da8fc',
    vcpus: 2,
    ram: 1024,
    disk: 1,
  });
});

function replace(text: string): string {
  let out = text;
  for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
  return out;
}

interface ReplayOptions {
  session?: Session;
  /** Replaces the request's microversion (for `latest`, which is 2.105 here). */
  version?: string;
}

async function replay(n: number, opts: ReplayOptions = {}) {
  const capture = loadCapture(n);
  const path = mapCapturePath(replace(capture.request.url));
  const headers = Object.fromEntries(
    Object.entries(capture.request.headers).filter(([k]) => ['content-type'].includes(k.toLowerCase())),
  );
  const version =
    opts.version ??
    capture.request.headers['OpenStack-API-Version'] ??
    capture.request.headers['openstack-api-version'];
  const body = capture.request.body;
  const res = await http(tc, capture.request.method, path, {
    token: (opts.session ?? demo).token,
    ...(version ? { version } : {}),
    headers,
    ...(body === null || body === ''
      ? {}
      : typeof body === 'string'
        ? { rawBody: body }
        : { rawBody: replace(JSON.stringify(body)) }),
  });
  return { capture, res };
}

/** Status, keys, types and formats as recorded; Location and the version headers too. */
function expectLike(
  got: { capture: Capture; res: Awaited<ReturnType<typeof http>> },
  opts: CompareCaptureOptions = {},
) {
  const { capture, res } = got;
  const diffs = compareCapture(capture, res.status, res.text === '' ? '' : (res.body as Json), {
    formats: true,
    ...opts,
    headers: {
      actual: res.headers,
      names: ['Location', 'OpenStack-API-Version', 'X-OpenStack-Nova-API-Version'],
      exactValues: ['OpenStack-API-Version', 'X-OpenStack-Nova-API-Version'],
    },
  });
  expect(diffs, `${capture.file}`).toEqual([]);
}

/** Faults must also carry the recorded message (with our ids). */
function expectSameFault(got: { capture: Capture; res: Awaited<ReturnType<typeof http>> }) {
  expectLike(got);
  const recorded = got.capture.response.body as Record<string, { message: string }>;
  const [name, value] = Object.entries(recorded)[0]!;
  expect(got.res.body[name].message).toBe(replace(value.message));
}

async function settle() {
  await tc.settle();
}

describe('first run: boot from volume, the multiattach gates (06-15, 54, 55)', () => {
  it('06: a non-bootable volume', async () => {
    ids['0155e063-a222-4d63-b764-c99019bdcf50'] = await createVolume(tc, {
      projectId: demo.projectId,
      multiattach: true,
    });
    expectSameFault(await replay(6));
    await tc.cloud.deps.store.db
      .updateTable('volumes')
      .set({ bootable: 1 })
      .where('id', '=', ids['0155e063-a222-4d63-b764-c99019bdcf50']!)
      .execute();
  });

  it('08, 09: boot server A from the multiattach volume, then show it', async () => {
    const got = await replay(8);
    expectLike(got);
    ids['fc182e0e-cbd6-47a4-87a2-55d6d73f525b'] = got.res.body.server.id;
    await settle();
    expectLike(await replay(9));
  });

  it('11: boot server B from a plain volume', async () => {
    ids['21b9b27a-4031-4dd4-b16c-f7e7222bd929'] = await createVolume(tc, {
      projectId: demo.projectId,
      bootable: true,
    });
    const got = await replay(11);
    expectLike(got);
    ids['aa9f60b8-70d7-485f-937a-36dbf5135a60'] = got.res.body.server.id;
    await settle();
  });

  it.each([13, 14, 15, 54])('%i: multi-create with a volume mapping', async (n) => {
    expectSameFault(await replay(n));
  });

  it('55: a multiattach volume at 2.59', async () => {
    ids['67833be2-9c01-49db-a545-3fe5a0ed328c'] = await createVolume(tc, {
      projectId: demo.projectId,
      multiattach: true,
      bootable: true,
    });
    expectSameFault(await replay(55));
  });
});

describe('second run: one volume-backed server through every view and action (116-199)', () => {
  const X = '06b535c3-c39a-4b93-8b65-90a338d3acc8';

  it('116: boot (networks none, 202 + Location)', async () => {
    ids['1129836f-7461-46e2-834f-ef3e0b07940b'] = await createVolume(tc, {
      projectId: demo.projectId,
      bootable: true,
    });
    const got = await replay(116);
    expectLike(got);
    ids[X] = got.res.body.server.id;
    await settle();
    const row = await tc.cloud.deps.store.db
      .selectFrom('servers')
      .select('reservation_id')
      .where('id', '=', ids[X]!)
      .executeTakeFirstOrThrow();
    ids['r-2gxy867d'] = row.reservation_id;
  });

  it.each([117, 118, 119, 120, 121])('%i: show at its microversion', async (n) => {
    expectLike(await replay(n));
  });

  it('122, 123: 2.96 and 2.100 exist here (max 2.105): 200 with the 2.89 keys plus their own', async () => {
    const base = Object.keys((loadCapture(121).response.body as { server: Record<string, unknown> }).server);
    const at296 = (await replay(122)).res;
    expect(at296.status).toBe(200);
    expect(Object.keys(at296.body.server).sort()).toEqual(
      [...base, 'OS-EXT-SRV-ATTR:hostname', 'pinned_availability_zone'].sort(),
    );
    const at2100 = (await replay(123)).res;
    expect(Object.keys(at2100.body.server).sort()).toEqual(
      [...base, 'OS-EXT-SRV-ATTR:hostname', 'pinned_availability_zone', 'scheduler_hints'].sort(),
    );
  });

  it('124: latest was 2.93 on the recorded cloud', async () => {
    const got = await replay(124, { version: 'compute 2.93' });
    const diffs = compareCapture(got.capture, got.res.status, got.res.body as Json, { formats: true });
    expect(diffs).toEqual([]);
  });

  it('125: show as admin', async () => {
    expectLike(await replay(125, { session: admin }));
  });

  it('126, 127, 128: detail for all tenants as admin, list, list by reservation id', async () => {
    expectLike(await replay(126, { session: admin }), { allowEmptyArrays: true });
    expectLike(await replay(127));
    const got = await replay(128);
    expectLike(got);
    expect(got.res.body.servers.map((s: { id: string }) => s.id)).toEqual([ids[X]]);
  });

  it('130, 131, 132, 133: multi-create from an image', async () => {
    expectSameFault(await replay(130));
    ids['ef207275-01b4-5c19-b67a-4547a09ce3b6'] = SEED_IMAGE_ID;
    const got = await replay(131);
    expectLike(got);
    ids['r-y3hrtgeb'] = got.res.body.reservation_id;
    await settle();
    const list = await replay(132);
    expectLike(list);
    const second = list.res.body.servers.find((s: { name: string }) => s.name.endsWith('-2'));
    ids['914c8fae-6ab6-49a7-8cc9-bec8365c37f9'] = second.id;
    expectLike(await replay(133));
  });

  it('134-139: multi-create with volume mappings', async () => {
    ids['c7aa67f4-e319-493a-b533-353f7b333795'] = await createVolume(tc, {
      projectId: demo.projectId,
      bootable: true,
    });
    expectSameFault(await replay(134));
    const got = await replay(135);
    expectLike(got);
    ids['r-b8x9j741'] = got.res.body.reservation_id;
    await settle();
    expectLike(await replay(136));
    expectLike(await replay(137));
    expectLike(await replay(139));
    await settle();
  });

  it.each([140, 141, 142, 143, 144, 145, 146, 147])('%i: a bad create request', async (n) => {
    ids['e108e7f2-194b-4e73-a9a8-a6c26f84e788'] ??= await createVolume(tc, {
      projectId: demo.projectId,
      bootable: true,
    });
    ids['08eea6a0-e939-4666-9b85-b6082a5f5a9f'] ??= await createVolume(tc, { projectId: demo.projectId });
    expectSameFault(await replay(n));
  });

  it('148: an unknown volume; 149: text/plain is JSON; 150: XML is 415', async () => {
    expectSameFault(await replay(148));
    expectLike(await replay(149));
    expectSameFault(await replay(150));
    await settle();
  });

  it('151, 152, 153, 154: webob 404s and an unknown server', async () => {
    for (const n of [151, 152, 154]) {
      const got = await replay(n);
      expect(compareCapture(got.capture, got.res.status, got.res.body as Json, { exact: ['$'] })).toEqual([]);
      expect(got.res.headers.get('openstack-api-version')).toBeNull();
    }
    expectSameFault(await replay(153));
  });

  it('155-161: stop, start, reboot, and their conflicts', async () => {
    for (const n of [155, 156, 157, 158, 159, 160]) {
      const got = await replay(n);
      if (got.capture.response.status >= 400) expectSameFault(got);
      else expectLike(got);
      await settle();
    }
    expectSameFault(await replay(161));
  });

  it('162, 163: shelve a volume-backed server, show it offloaded', async () => {
    expectLike(await replay(162));
    await settle();
    expectLike(await replay(163));
  });

  it('166, 167, 168: shelveOffload as member and admin, shelve again', async () => {
    expectSameFault(await replay(166));
    expectSameFault(await replay(167, { session: admin }));
    expectSameFault(await replay(168));
  });

  it('176: unshelve', async () => {
    expectLike(await replay(176));
    await settle();
  });

  it('181, 182, 183: confirm without a resize, resize to the same flavor, resize with one host', async () => {
    expectSameFault(await replay(181));
    expectSameFault(await replay(182));
    const host = (
      await tc.cloud.deps.store.db
        .selectFrom('servers')
        .select('host')
        .where('id', '=', ids[X]!)
        .executeTakeFirstOrThrow()
    ).host!;
    await onlyHosts(tc, [host]);
    expectLike(await replay(183));
    await settle();
    await allHostsEnabled(tc);
  });

  it('188, 189, 190: resize to a second host, VERIFY_RESIZE as member and admin', async () => {
    expectLike(await replay(188));
    await settle();
    expectLike(await replay(189));
    expectLike(await replay(190, { session: admin }));
  });

  it('193, 194: confirmResize 204, then ACTIVE on the new host', async () => {
    expectLike(await replay(193));
    await settle();
    expectLike(await replay(194, { session: admin }));
  });

  it('195, 196: delete, then 404', async () => {
    expectLike(await replay(195));
    await settle();
    expectSameFault(await replay(196));
  });
});
