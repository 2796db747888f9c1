import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import { type Capture, compareCapture, type Json, loadCapture, mapCapturePath } from './capture.js';

/**
 * Rebuild (issue 14, cloud-rebuild) against the recorded Nova 26 (captures 850-877): one image
 * server of demo's rebuilt at 2.1 (the reduced view with adminPass), 2.75 (the full view), 2.57
 * (user_data in the answer, personality refused), 2.63 (trusted certificates kept and shown) and
 * 2.90 (hostname); the lock, a paused server, a stopped one (rebuilt, it ends SHUTOFF), the
 * metadata and personality limits at create and rebuild, and a volume-backed server, which keeps
 * its volume's image before 2.93.
 */

let tc: TestCloud;
let demo: Session;
const ids: Record<string, string> = {};
const RECORDED_SERVER = '2e4a3c92-f2dd-4d98-82c6-ce78aa19e787';
const RECORDED_VOLUME_SERVER = 'e0f9bb32-2d22-4ad1-8105-5b7b935d56d9';

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

/** Every capture of this file is demo's. */
async function replay(n: number) {
  const capture = loadCapture(n);
  const version = capture.request.headers['OpenStack-API-Version'];
  const body = capture.request.body;
  const res = await http(tc, capture.request.method, mapCapturePath(replace(capture.request.url)), {
    token: demo.token,
    ...(version ? { version } : {}),
    ...(body === null || body === '' ? {} : { rawBody: replace(JSON.stringify(body)) }),
  });
  return { capture, res };
}

type Replayed = Awaited<ReturnType<typeof replay>>;

/**
 * The recorded cloud had no network service, so its servers have no addresses or port groups;
 * ours gets the project's network at 2.1, where a create names none.
 */
const NO_NETWORK = ['$.server.addresses', '$.server.security_groups'];

function expectLike(got: Replayed, ignore: string[] = []) {
  const { capture, res } = got;
  const diffs = compareCapture(capture, res.status, res.text === '' ? '' : (res.body as Json), {
    formats: true,
    ignore: [...NO_NETWORK, ...ignore],
  });
  expect(diffs, capture.file).toEqual([]);
}

function expectSameFault(got: Replayed) {
  expectLike(got);
  const recorded = got.capture.response.body as Record<string, { message: string }>;
  const [name, value] = Object.entries(recorded)[0]!;
  expect(got.res.body[name].message).toBe(replace(value.message));
}

const recordedServer = (c: Capture) => (c.response.body as { server: Record<string, Json> }).server;

/** The recorded values of these keys, in our answer. */
function expectSameValues(got: Replayed, keys: string[]) {
  const recorded = recordedServer(got.capture);
  for (const key of keys) expect(got.res.body.server[key], key).toEqual(recorded[key]);
}

async function action(body: unknown, version = 'compute 2.73') {
  const res = await http(tc, 'POST', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}/action`, {
    token: demo.token,
    version,
    body,
  });
  expect(res.status).toBe(202);
  await tc.settle();
}

// The recorded server's volume (attached by another client while it was recorded) is not ours.
const VOLUMES = '$.server.os-extended-volumes:volumes_attached';

describe('rebuild of an image server (850-871)', () => {
  it('850: demo boots a server from the image', async () => {
    const got = await replay(850);
    expectLike(got);
    ids[RECORDED_SERVER] = got.res.body.server.id;
    await tc.settle();
  });

  it('852, 854: 2.1 answers the reduced view with REBUILD and the given password; the server ends ACTIVE', async () => {
    const got = await replay(852);
    expectLike(got);
    expectSameValues(got, ['name', 'status', 'metadata', 'adminPass', 'OS-DCF:diskConfig', 'progress']);
    expect(got.res.headers.get('location')).toMatch(
      new RegExp(`/compute/v2.1/servers/${ids[RECORDED_SERVER]}$`),
    );
    await tc.settle();
    const shown = await replay(854);
    expectLike(shown, [VOLUMES]);
    expectSameValues(shown, ['name', 'status', 'metadata', 'OS-EXT-STS:task_state', 'OS-EXT-STS:vm_state']);
    expect(shown.res.body.server['OS-SRV-USG:launched_at']).not.toBeNull();
  });

  it('856: the rebuild action has the conductor and compute events, both done', async () => {
    const list = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}/os-instance-actions`, {
      token: demo.token,
      version: 'compute 2.58',
    });
    const rebuild = list.body.instanceActions.find((a: { action: string }) => a.action === 'rebuild');
    const capture = loadCapture(856);
    const recorded = (capture.response.body as { instanceAction: { request_id: string } }).instanceAction;
    ids[recorded.request_id] = rebuild.request_id;
    const got = await replay(856);
    expectLike(got);
    const events = got.res.body.instanceAction.events as { event: string; result: string }[];
    expect(events.map((e) => `${e.event}:${e.result}`).sort()).toEqual([
      'compute_rebuild_instance:Success',
      'rebuild_server:Success',
    ]);
  });

  it('857: 2.75 answers the full view, with description, access address and AUTO disk', async () => {
    const got = await replay(857);
    expectLike(got, [VOLUMES]);
    expectSameValues(got, [
      'status',
      'description',
      'accessIPv4',
      'OS-DCF:diskConfig',
      'OS-EXT-STS:task_state',
      'OS-EXT-STS:vm_state',
      'server_groups',
      'trusted_image_certificates',
      'user_data',
    ]);
    await tc.settle();
  });

  it('858, 859: 2.57 answers user_data; the disk config falls back to MANUAL; personality is refused', async () => {
    const got = await replay(858);
    expectLike(got);
    expectSameValues(got, ['user_data', 'OS-DCF:diskConfig', 'accessIPv4']);
    await tc.settle();
    expectSameFault(await replay(859));
  });

  it('860: an unknown key pair (2.54) is refused', async () => {
    expectSameFault(await replay(860));
  });

  it('861, 862: trusted certificates (2.63) are kept and shown', async () => {
    expectLike(await replay(861), [VOLUMES]);
    await tc.settle();
    const shown = await replay(862);
    expectLike(shown, [VOLUMES]);
    expectSameValues(shown, ['trusted_image_certificates', 'status']);
  });

  it('863, 865: no imageRef is a schema error; a missing server is 404', async () => {
    expectSameFault(await replay(863));
    expectSameFault(await replay(865));
  });

  it('866: 2.90 sets the hostname; certificates not given are kept', async () => {
    const got = await replay(866);
    expectLike(got, [VOLUMES]);
    expectSameValues(got, [
      'OS-EXT-SRV-ATTR:hostname',
      'trusted_image_certificates',
      'user_data',
      'key_name',
    ]);
    await tc.settle();
  });

  it('867, 868: a locked or a paused server is refused', async () => {
    await action({ lock: { locked_reason: 'rb' } });
    expectSameFault(await replay(867));
    await action({ unlock: null });
    await action({ pause: null });
    expectSameFault(await replay(868));
    await action({ unpause: null });
  });

  it('869, 871: a stopped server is rebuilt and ends SHUTOFF, launched again', async () => {
    await action({ 'os-stop': null });
    const got = await replay(869);
    expectLike(got);
    expectSameValues(got, ['status']);
    await tc.settle();
    const shown = await replay(871);
    expectLike(shown, [VOLUMES]);
    expectSameValues(shown, [
      'status',
      'OS-EXT-STS:vm_state',
      'OS-EXT-STS:power_state',
      'OS-EXT-STS:task_state',
      'OS-EXT-SRV-ATTR:hostname',
    ]);
  });
});

describe('metadata and personality limits (872-875)', () => {
  it('872, 874: create over the metadata items or injected files limit is 403', async () => {
    expectSameFault(await replay(872));
    expectSameFault(await replay(874));
  });

  it('873, 875: so is rebuild, and the server stays as it was', async () => {
    expectSameFault(await replay(873));
    expectSameFault(await replay(875));
    const shown = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}`, {
      token: demo.token,
    });
    expect(shown.body.server.status).toBe('SHUTOFF');
    expect(shown.body.server.metadata).toEqual({ rebuild: 'server' });
  });
});

describe('a volume-backed server (876, 877)', () => {
  it('boots demo a server from a bootable volume', async () => {
    const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.60',
      body: {
        server: {
          name: 'rb-bfv',
          flavorRef: '1',
          networks: 'none',
          block_device_mapping_v2: [
            { boot_index: 0, uuid: volume, source_type: 'volume', destination_type: 'volume' },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    ids[RECORDED_VOLUME_SERVER] = res.body.server.id;
    await tc.settle();
  });

  it('876: another image than its volume’s is unacceptable before 2.93', async () => {
    expectSameFault(await replay(876));
  });

  it('877: trusted certificates are refused for it', async () => {
    expectSameFault(await replay(877));
  });

  it('2.93 reimages it: accepted, and it stays volume-backed', async () => {
    const res = await http(tc, 'POST', `/compute/v2.1/servers/${ids[RECORDED_VOLUME_SERVER]}/action`, {
      token: demo.token,
      version: 'compute 2.93',
      rawBody: replace(JSON.stringify(loadCapture(876).request.body)),
    });
    expect(res.status).toBe(202);
    expect(res.body.server.image).toBe('');
    expect(res.body.server.status).toBe('REBUILD');
    await tc.settle();
    const shown = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED_VOLUME_SERVER]}`, {
      token: demo.token,
    });
    expect(shown.body.server.status).toBe('ACTIVE');
    expect(shown.body.server['os-extended-volumes:volumes_attached']).toHaveLength(1);
  });
});
