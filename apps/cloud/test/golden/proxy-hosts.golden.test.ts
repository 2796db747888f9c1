import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { createServer } from '../helpers/compute-fixtures.js';
import { type CompareCaptureOptions, compareCapture, loadCapture } from './capture.js';

/**
 * Golden tests for the compute os-volumes / os-snapshots proxy, os-hosts, os-aggregates and the
 * instance usage audit log (captures 970-999): each recorded request is replayed against the
 * bundled cloud and its status, keys, value types and formats compared, with fault messages and
 * fixed values exactly. Host names differ (the reference has one host, `oracle-compute`).
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

async function check(
  n: number,
  session: Session,
  path: string,
  opts: CompareCaptureOptions & { body?: unknown } = {},
) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const { body, ...compare } = opts;
  const sent = body !== undefined ? body : cap.request.body;
  const res = await http(tc, cap.request.method, `/compute/v2.1${path}`, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(sent !== null && sent !== '' ? { body: sent } : {}),
  });
  return {
    res,
    diffs: compareCapture(cap, res.status, res.text === '' ? '' : res.body, { formats: true, ...compare }),
  };
}

const FAULT = ['$'];

describe('os-volumes / os-snapshots proxy (captures 970-980)', () => {
  it('creates, shows, lists, snapshots and deletes a volume as Nova proxies Cinder', async () => {
    const created = await check(970, demo, '/os-volumes', {
      exact: [
        '$.volume.displayName',
        '$.volume.displayDescription',
        '$.volume.metadata',
        '$.volume.attachments',
      ],
    });
    expect(created.diffs).toEqual([]);
    const id = created.res.body.volume.id as string;
    expect(created.res.headers.get('location')).toMatch(new RegExp(`/compute/v2.1/os-volumes/${id}$`));
    await tc.settle();
    const shown = await check(971, demo, `/os-volumes/${id}`, {
      exact: ['$.volume.status', '$.volume.size', '$.volume.metadata', '$.volume.attachments'],
    });
    expect(shown.diffs).toEqual([]);
    expect((await check(972, demo, '/os-volumes/detail?limit=1&offset=0')).diffs).toEqual([]);

    const snap = await check(976, demo, '/os-snapshots', {
      body: { snapshot: { volume_id: id, display_name: 'proxy-snap', display_description: 'snap via nova' } },
      exact: ['$.snapshot.displayName', '$.snapshot.displayDescription', '$.snapshot.size'],
    });
    expect(snap.diffs).toEqual([]);
    expect(snap.res.body.snapshot.volumeId).toBe(id);
    await tc.settle();
    const snapId = snap.res.body.snapshot.id as string;
    expect(
      (await check(977, demo, `/os-snapshots/${snapId}`, { exact: ['$.snapshot.status'] })).diffs,
    ).toEqual([]);
    expect((await check(978, demo, `/os-volumes/${id}`, { exact: FAULT })).diffs).toEqual([]);

    const del = await http(tc, 'DELETE', `/compute/v2.1/os-snapshots/${snapId}`, { token: demo.token });
    expect(del.status).toBe(202);
    await tc.settle();
    const gone = await http(tc, 'DELETE', `/compute/v2.1/os-volumes/${id}`, { token: demo.token });
    expect(gone.status).toBe(202);
  });

  it('shows an attached volume with its server and device (capture 979), refuses deleting it (980)', async () => {
    const created = await http(tc, 'POST', '/compute/v2.1/os-volumes', {
      token: demo.token,
      body: {
        volume: {
          size: 1,
          display_name: 'proxy-vol',
          display_description: 'made through nova',
          metadata: { k1: 'v1' },
        },
      },
    });
    const id = created.body.volume.id as string;
    await tc.settle();
    const server = await createServer(tc, { projectId: demo.projectId, userId: demo.userId });
    const attach = await http(tc, 'POST', `/compute/v2.1/servers/${server.id}/os-volume_attachments`, {
      token: demo.token,
      version: 'compute 2.60',
      body: { volumeAttachment: { volumeId: id } },
    });
    expect(attach.status).toBe(200);
    await tc.settle();
    const shown = await check(979, demo, `/os-volumes/${id}`, {
      exact: ['$.volume.status', '$.volume.metadata'],
    });
    expect(shown.diffs).toEqual([]);
    expect(shown.res.body.volume.attachments).toEqual([
      // The fake driver names sdb where the emulated QEMU host names vdb: the device is the attach's.
      { id, volumeId: id, serverId: server.id, device: attach.body.volumeAttachment.device },
    ]);
    const refused = await check(980, demo, `/os-volumes/${id}`);
    expect(refused.diffs).toEqual([]);
    const norm = (m: string) => m.replace(/req-[0-9a-f-]{36}/, 'req-*');
    expect(norm(refused.res.body.badRequest.message)).toBe(
      norm((loadCapture(980).response.body as { badRequest: { message: string } }).badRequest.message),
    );
  });

  it.each([973, 974, 975])('refuses the size of capture %i with Nova’s message', async (n) => {
    expect((await check(n, demo, '/os-volumes', { exact: FAULT })).diffs).toEqual([]);
  });
});
