import { afterEach, beforeAll, describe, expect } from 'vitest';
import { http, type Session, scriptedNova, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { connector, createVolume } from '../helpers/volume-fixtures.js';
import {
  type CompareCaptureOptions,
  compareCapture,
  loadCapture,
  mapCapturePath,
  replayHeaders,
} from './capture.js';

/**
 * Golden tests for Cinder's attachments API: each recorded exchange is replayed against the
 * bundled cloud, in a state built to match the recorded one, and its status, keys, value types,
 * formats, version headers and (for faults and states) values compared. Captured ids are mapped
 * to ours in the request and in the expected values.
 */
const nova = scriptedNova();
let tc: TestCloud;
let demo: Session;
const ids: Record<string, string> = {};

const it = cloudTest({}, { nova });
it.beforeAll(async ({ tc: cloud, demo: demoSession }) => {
  tc = cloud;
  demo = demoSession;
});
afterEach(() => {
  nova.answer = null;
});

const VERSION_HEADERS = ['OpenStack-API-Version', 'Vary'];

// Captured ids (servers are Nova's: any uuid will do on the Cinder side).
const SERVER_A = 'aa9f60b8-70d7-485f-937a-36dbf5135a60';
const SERVER_B = 'fc182e0e-cbd6-47a4-87a2-55d6d73f525b';
const SERVER_C = 'b4f86ff8-c672-4cdb-b61a-95798a618647';
const SERVER_D = '06b535c3-c39a-4b93-8b65-90a338d3acc8';
const SERVER_E = 'fd86b596-94fa-4ba8-a00e-884dd0c0f3f5';

const replace = (text: string) => {
  let out = text;
  for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
  return out;
};

async function check(n: number, opts: CompareCaptureOptions = {}) {
  const cap = loadCapture(n);
  const headers = replayHeaders(cap, { token: demo.token });
  const path = mapCapturePath(cap.request.url, { projectId: demo.projectId, replaceIds: ids });
  const body = cap.request.body;
  const res = await http(tc, cap.request.method, path, {
    headers,
    ...(body !== null && body !== '' ? { rawBody: replace(JSON.stringify(body)) } : {}),
  });
  const diffs = compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
    formats: true,
    replaceIds: ids,
    ...opts,
    headers: { actual: res.headers, names: VERSION_HEADERS, exactValues: VERSION_HEADERS },
  });
  return { res, diffs };
}

const api = (method: string, path: string, body?: unknown, version = '3.70') =>
  http(tc, method, `${demo.volumeBase}${path}`, {
    token: demo.token,
    version: `volume ${version}`,
    ...(body !== undefined ? { body } : {}),
  });

/** Reserve, connect and complete, as Nova does for an attach; maps the captured attachment id. */
async function attach(
  capturedId: string,
  volumeId: string,
  server: string,
  complete = true,
): Promise<string> {
  const res = await api('POST', '/attachments', {
    attachment: { volume_uuid: volumeId, instance_uuid: server },
  });
  expect(res.status).toBe(200);
  const id: string = res.body.attachment.id;
  ids[capturedId] = id;
  if (complete) {
    expect((await api('PUT', `/attachments/${id}`, { attachment: { connector: connector() } })).status).toBe(
      200,
    );
    expect((await api('POST', `/attachments/${id}/action`, { 'os-complete': null })).status).toBe(204);
  }
  // Distinct creation times keep the newest-first order of the captures.
  await new Promise((r) => setTimeout(r, 5));
  return id;
}

const mapVolume = async (capturedId: string, fixture: Parameters<typeof createVolume>[1]) => {
  ids[capturedId] = await createVolume(tc, fixture);
  return ids[capturedId] as string;
};

const STATE_FIELDS = ['status', 'attach_mode', 'attached_at', 'detached_at', 'connection_info', 'instance'];
const exactFields = (prefix: string) => ['id', 'volume_id', ...STATE_FIELDS].map((f) => `${prefix}.${f}`);

describe('list, detail and show of two servers sharing a volume (captures 39-48)', () => {
  beforeAll(async () => {
    const shared = await mapVolume('0155e063-a222-4d63-b764-c99019bdcf50', {
      projectId: demo.projectId,
      multiattach: true,
    });
    const plain = await mapVolume('21b9b27a-4031-4dd4-b16c-f7e7222bd929', { projectId: demo.projectId });
    // Oldest first, as recorded: server B's attachment, then server A's two.
    await attach('1bb10e67-79d8-4504-be88-8a85af63f8b6', shared, SERVER_B);
    await attach('3d360d3a-ddff-45d7-bdfa-b42c1e0215e8', plain, SERVER_A);
    await attach('8c18efe9-8395-4304-be5e-7875f1e222ed', shared, SERVER_A);
  });

  it.each([39, 41, 43, 45])('summary list, capture %i', async (n) => {
    const { diffs } = await check(n, { exact: ['$.attachments'] });
    expect(diffs).toEqual([]);
  });

  it.each([40, 42, 44])('detail list, capture %i', async (n) => {
    const { diffs } = await check(n, {
      pairwiseArrays: ['$.attachments'],
      exact: [...exactFields('$.attachments[*]')].filter((p) => !p.endsWith('attached_at')),
    });
    expect(diffs).toEqual([]);
  });

  it.each([47, 48])('show, capture %i', async (n) => {
    const { diffs } = await check(n, {
      exact: exactFields('$.attachment').filter((p) => !p.endsWith('attached_at')),
    });
    expect(diffs).toEqual([]);
  });

  it("answers below 3.27 with webob's 404 (capture 46)", async () => {
    const { diffs } = await check(46, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it("refuses a user's delete of an attachment Nova uses (capture 57)", async () => {
    nova.answer = async () => true;
    const { diffs } = await check(57, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it("refuses a user's os-detach of an attachment Nova uses (capture 58)", async () => {
    nova.answer = async () => true;
    const { diffs } = await check(58, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });
});

describe('reserve and delete (captures 59-62)', () => {
  beforeAll(async () => {
    await mapVolume('67833be2-9c01-49db-a545-3fe5a0ed328c', { projectId: demo.projectId, multiattach: true });
  });

  it('names the missing volume_uuid (capture 59)', async () => {
    const { diffs } = await check(59, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('reserves without a connector (capture 60) and the volume is reserved (capture 61)', async () => {
    const { res, diffs } = await check(60, {
      exact: [
        '$.attachment.volume_id',
        '$.attachment.instance',
        ...STATE_FIELDS.map((f) => `$.attachment.${f}`),
      ],
    });
    expect(diffs).toEqual([]);
    ids['74ed608f-ccd6-4140-9655-13ff48aef506'] = res.body.attachment.id;
    const volume = await api('GET', `/volumes/${ids['67833be2-9c01-49db-a545-3fe5a0ed328c']}`);
    const recorded = loadCapture(61).response.body as { volume: { status: string; attachments: unknown[] } };
    expect(volume.status).toBe(200);
    expect(volume.body.volume.status).toBe(recorded.volume.status);
    expect(volume.body.volume.attachments).toEqual(recorded.volume.attachments);
  });

  it('deletes the reserved attachment (capture 62)', async () => {
    const { diffs } = await check(62, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });
});

describe('read-only volumes and the 3.54 mode (captures 248-260)', () => {
  it('reserves ro on a readonly volume and shows it (captures 248, 249)', async () => {
    await mapVolume('599ded6a-55b8-41f8-a831-098e486545cc', { projectId: demo.projectId, readonly: 'True' });
    const created = await check(248, { exact: STATE_FIELDS.map((f) => `$.attachment.${f}`) });
    expect(created.diffs).toEqual([]);
    ids['506be175-31e2-4a66-8a75-664b95cd783e'] = created.res.body.attachment.id;
    const shown = await check(249, { exact: ['$'] });
    expect(shown.diffs).toEqual([]);
  });

  it('still reserves ro after readonly=False (capture 255)', async () => {
    const vol = ids['599ded6a-55b8-41f8-a831-098e486545cc'] as string;
    await api('DELETE', `/attachments/${ids['506be175-31e2-4a66-8a75-664b95cd783e']}`);
    await tc.cloud.deps.store.db
      .updateTable('volumes')
      .set({ readonly_flag: 'False' })
      .where('id', '=', vol)
      .execute();
    const { diffs } = await check(255, { exact: STATE_FIELDS.map((f) => `$.attachment.${f}`) });
    expect(diffs).toEqual([]);
  });

  it('refuses mode below 3.54 (capture 256) and an unknown mode (capture 260)', async () => {
    await mapVolume('1c4483af-0381-422c-9ed0-5bbf6a0c1125', { projectId: demo.projectId });
    for (const n of [256, 260]) {
      const { diffs } = await check(n, { exact: ['$'] });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });

  it('reserves with mode ro at 3.54 and shows it (captures 257-259)', async () => {
    const created = await check(257, { exact: STATE_FIELDS.map((f) => `$.attachment.${f}`) });
    expect(created.diffs).toEqual([]);
    ids['bb1a1e9e-cf1d-413b-9c82-8c2351b96e3b'] = created.res.body.attachment.id;
    for (const n of [258, 259]) {
      const { diffs } = await check(n, { exact: ['$'] });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });
});

describe('detail views of attached volumes (captures 174, 178, 191, 202, 297)', () => {
  it('completed without a connection: attached, mode "null", no times (capture 174)', async () => {
    const vol = await mapVolume('3c11809d-d7a3-4441-8ff0-218d24a96007', { projectId: demo.projectId });
    const id = await attach('76d4a21e-6cff-416d-8005-4888179e137a', vol, SERVER_D, false);
    await api('POST', `/attachments/${id}/action`, { 'os-complete': null });
    const { diffs } = await check(174, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });

  it('connected and completed: rw, connection info, attach time (captures 178, 191)', async () => {
    await api('DELETE', `/attachments/${ids['76d4a21e-6cff-416d-8005-4888179e137a']}`);
    await attach(
      '76d4a21e-6cff-416d-8005-4888179e137a',
      ids['3c11809d-d7a3-4441-8ff0-218d24a96007'] as string,
      SERVER_D,
    );
    const vol = await mapVolume('1129836f-7461-46e2-834f-ef3e0b07940b', {
      projectId: demo.projectId,
      bootable: true,
    });
    await attach('f41f66fb-e1bd-46ad-8e6a-8a5ed55fe6db', vol, SERVER_D);
    for (const n of [178, 191]) {
      const { diffs } = await check(n, {
        exact: exactFields('$.attachments[*]').filter((p) => !p.endsWith('attached_at')),
      });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });

  it('a shared volume with two rw attachments, then one (captures 202, 297)', async () => {
    const vol = await mapVolume('20c1278c-10de-49bd-8d67-16ef64ea2a69', {
      projectId: demo.projectId,
      multiattach: true,
    });
    await attach('6aececbe-1301-40e5-b248-3eff3bb6ed83', vol, SERVER_C);
    await attach('a72d122d-ed85-48ae-a228-57b0de185c10', vol, SERVER_E);
    const opts = {
      pairwiseArrays: ['$.attachments'],
      exact: exactFields('$.attachments[*]').filter((p) => !p.endsWith('attached_at')),
    };
    const both = await check(202, opts);
    expect(both.diffs).toEqual([]);
    await api('DELETE', `/attachments/${ids['a72d122d-ed85-48ae-a228-57b0de185c10']}`);
    const one = await check(297, opts);
    expect(one.diffs).toEqual([]);
  });
});
