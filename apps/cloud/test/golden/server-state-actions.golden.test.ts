import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { captureReplayer } from './replay.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import { loadCapture } from './capture.js';

/**
 * Admin state resets and the deferred-delete actions (issue 14, cloudc2) against the recorded Nova.
 * `os-resetState` (700-710): admin only, the lookup's 404 before the policy's 403, Nova's schema
 * messages for bad states, ACTIVE to ERROR and back at once, a `resetState` action without events.
 * `forceDelete` / `restore` (711-719) on the same server afterwards: deletes are immediate (no
 * reclaim interval), so restore always refuses; a lock refuses both, each with its own message.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
const RECORDED_SERVER = 'ea2be82d-ac93-487d-b730-b18c9aa956f5';

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const { ids, replay, expectLike, expectSameFault } = captureReplayer(() => ({ tc, demo, admin }));

async function showStatus(): Promise<{ status: string; vm: string; task: string | null }> {
  const res = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}`, { token: admin.token });
  const s = res.body.server;
  return { status: s.status, vm: s['OS-EXT-STS:vm_state'], task: s['OS-EXT-STS:task_state'] };
}

describe('os-resetState (700-710)', () => {
  it('boots a demo server to reset', async () => {
    const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.37',
      body: {
        server: {
          name: 'cc2-srv',
          flavorRef: '1',
          networks: 'none',
          block_device_mapping_v2: [
            { boot_index: 0, uuid: volume, source_type: 'volume', destination_type: 'volume' },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    ids[RECORDED_SERVER] = res.body.server.id;
    await tc.settle();
    expect((await showStatus()).status).toBe('ACTIVE');
  });

  it('700, 708: a member is refused by policy, but a missing server is 404 first', async () => {
    expectSameFault(await replay(700, 'demo'));
    expectSameFault(await replay(708, 'demo'));
    expect((await showStatus()).status).toBe('ACTIVE');
  });

  it('703-707: bad bodies answer Nova schema messages; a missing server 404', async () => {
    for (const n of [703, 704, 705, 706]) expectSameFault(await replay(n, 'admin'));
    expectSameFault(await replay(707, 'admin'));
    expect((await showStatus()).status).toBe('ACTIVE');
  });

  it('701, 702, 709: error then active, at once, with no task left', async () => {
    expectLike(await replay(701, 'admin'));
    const shown = await replay(702, 'admin');
    expectLike(shown);
    const recorded = (shown.capture.response.body as { server: Record<string, unknown> }).server;
    expect(shown.res.body.server.status).toBe(recorded['status']);
    expect(shown.res.body.server['OS-EXT-STS:vm_state']).toBe(recorded['OS-EXT-STS:vm_state']);
    expect(shown.res.body.server['OS-EXT-STS:task_state']).toBe(recorded['OS-EXT-STS:task_state']);
    expect('fault' in shown.res.body.server).toBe('fault' in recorded);
    expectLike(await replay(709, 'admin'));
    await tc.settle();
    expect(await showStatus()).toEqual({ status: 'ACTIVE', vm: 'active', task: null });
  });

  it('710: each reset is a finished resetState action with no events', async () => {
    const list = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}/os-instance-actions`, {
      token: admin.token,
      version: 'compute 2.58',
    });
    const resets = list.body.instanceActions.filter((a: { action: string }) => a.action === 'resetState');
    expect(resets).toHaveLength(2);
    const capture = loadCapture(710);
    const recordedReq = (capture.response.body as { instanceAction: { request_id: string } }).instanceAction
      .request_id;
    ids[recordedReq] = resets[0].request_id;
    const got = await replay(710, 'admin');
    expectLike(got);
    expect(got.res.body.instanceAction.events).toEqual([]);
  });
});

describe('forceDelete and restore (711-719)', () => {
  it('711, 712: a missing server is 404 for both', async () => {
    expectSameFault(await replay(711, 'demo'));
    expectSameFault(await replay(712, 'demo'));
  });

  it('713: restore of an ACTIVE server is a vm_state conflict', async () => {
    expectSameFault(await replay(713, 'demo'));
  });

  it('714-717: locked by its owner, forceDelete is "locked" and restore the generic invalid state', async () => {
    expectLike(await replay(714, 'demo'));
    expectSameFault(await replay(715, 'demo'));
    expectSameFault(await replay(716, 'demo'));
    expectLike(await replay(717, 'demo'));
    expect((await showStatus()).status).toBe('ACTIVE');
  });

  it('718, 719: forceDelete of an ACTIVE server answers 202 and the server is gone', async () => {
    expectLike(await replay(718, 'demo'));
    await tc.settle();
    expectSameFault(await replay(719, 'demo'));
  });
});
