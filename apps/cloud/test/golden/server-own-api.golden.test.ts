import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import { type Capture, compareCapture, type Json, loadCapture, mapCapturePath } from './capture.js';

/**
 * The server's own API (issue 14, C1) against the recorded Nova (captures 500-512): the legacy
 * v2 version document, PUT /servers/{id} per microversion, server metadata, instance actions,
 * lock and the state conflicts. Replayed in the recorded order on a server booted as capture
 * 502's was (from a volume, with the IPv6 access address Tempest sends).
 */

let tc: TestCloud;
let demo: Session;
const ids: Record<string, string> = {};
const RECORDED_SERVER = '5f66d706-40a5-4e33-a896-56de15b024bd';

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession }) => {
  tc = cloud;
  demo = demoSession;
});

const replace = (text: string) => {
  let out = text;
  for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
  return out;
};

async function replay(n: number, opts: { token?: boolean } = {}) {
  const capture = loadCapture(n);
  const url = capture.request.url;
  const path =
    url.startsWith('http://127.0.0.1:8774/v2') && !url.includes('/v2.1')
      ? `/compute${new URL(url).pathname}`
      : mapCapturePath(replace(url));
  const version = capture.request.headers['OpenStack-API-Version'];
  const body = capture.request.body;
  const res = await http(tc, capture.request.method, path, {
    ...(opts.token === false ? {} : { token: demo.token }),
    ...(version ? { version } : {}),
    ...(body === null || body === '' ? {} : { rawBody: replace(JSON.stringify(body)) }),
  });
  return { capture, res };
}

function expectLike(got: { capture: Capture; res: Awaited<ReturnType<typeof http>> }) {
  const { capture, res } = got;
  const diffs = compareCapture(capture, res.status, res.text === '' ? '' : (res.body as Json), {
    formats: true,
    headers: {
      actual: res.headers,
      names: ['OpenStack-API-Version', 'X-OpenStack-Nova-API-Version'],
      exactValues: ['OpenStack-API-Version', 'X-OpenStack-Nova-API-Version'],
    },
  });
  expect(diffs, capture.file).toEqual([]);
}

function expectSameFault(got: { capture: Capture; res: Awaited<ReturnType<typeof http>> }) {
  expectLike(got);
  const recorded = got.capture.response.body as Record<string, { message: string }>;
  const [name, value] = Object.entries(recorded)[0]!;
  expect(got.res.body[name].message).toBe(replace(value.message));
}

describe('the legacy v2 version document (500, 501)', () => {
  it('answers /compute/v2/ and /compute/v2 without a token, as recorded, no microversion headers', async () => {
    for (const n of [500, 501]) {
      const got = await replay(n, { token: false });
      expectLike(got);
      const body = got.res.body as { version: Record<string, unknown> };
      const recorded = (got.capture.response.body as { version: Record<string, unknown> }).version;
      for (const k of ['id', 'status', 'version', 'min_version', 'updated', 'media-types']) {
        expect(body.version[k]).toEqual(recorded[k]);
      }
      expect(got.res.headers.get('openstack-api-version')).toBeNull();
    }
  });
});

describe('a server through its own API (502-512)', () => {
  it('boots a server to work on, with the IPv6 access address printed as Nova prints it', async () => {
    const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.60',
      body: {
        server: {
          name: 'c1-srv',
          flavorRef: '1',
          networks: 'none',
          accessIPv6: '0000:0000:0000:0000:0000:babe:220.12.22.2',
          block_device_mapping_v2: [
            {
              boot_index: 0,
              uuid: volume,
              source_type: 'volume',
              destination_type: 'volume',
              delete_on_termination: true,
            },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    ids[RECORDED_SERVER] = res.body.server.id;
    await tc.settle();
  });

  it('502, 503: PUT answers the reduced view at 2.1 and the whole show view at 2.75', async () => {
    const old = await replay(502);
    expectLike(old);
    const recorded = (old.capture.response.body as { server: Record<string, unknown> }).server;
    expect(old.res.body.server.accessIPv6).toBe(recorded.accessIPv6);
    expect(old.res.body.server.accessIPv4).toBe(recorded.accessIPv4);
    expectLike(await replay(503));
  });

  it('504-506: metadata merge, a key/URI mismatch, deleting a missing key', async () => {
    const merged = await replay(504);
    expectLike(merged);
    expect(merged.res.body).toEqual(merged.capture.response.body);
    expectSameFault(await replay(505));
    expectSameFault(await replay(506));
  });

  it('507: the actions so far at 2.58 (create only: update and metadata record none)', async () => {
    const got = await replay(507);
    expectLike(got);
    const recorded = (got.capture.response.body as { instanceActions: { action: string }[] }).instanceActions;
    expect(got.res.body.instanceActions.map((a: { action: string }) => a.action)).toEqual(
      recorded.map((a) => a.action),
    );
  });

  it('508-512: lock (2.73), the owner refused while locked, unlock, unpause and resume from ACTIVE', async () => {
    for (const n of [508, 509, 510, 511, 512]) {
      const got = await replay(n);
      if (got.capture.response.status >= 400) expectSameFault(got);
      else expectLike(got);
      await tc.settle();
    }
  });
});
