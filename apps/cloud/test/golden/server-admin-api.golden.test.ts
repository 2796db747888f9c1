import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { captureReplayer } from './replay.js';
import { createVolume } from '../helpers/volume-fixtures.js';

/**
 * Admin APIs about a server (issue 14, cloudc2) against the recorded Nova, on one server as recorded.
 * Diagnostics (720-725): admin only (the lookup's 404 first), the driver's flat figures before 2.48
 * and the standard object from 2.48, a 409 naming the power state once the server is stopped.
 * External events (730-736), on the stopped server: admin only, each event answered on its own,
 * 207 as soon as one is refused, names per microversion.
 * changePassword (740-744), by the owner: refused while stopped, then accepted once started.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
const RECORDED_SERVER = 'b0125d8a-38b2-43ec-a063-6ea82e210f24';

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const { ids, replace, replay, expectLike, expectSameFault } = captureReplayer(() => ({ tc, demo, admin }));

describe('server diagnostics (720-725)', () => {
  it('boots a demo server to look at', async () => {
    const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.37',
      body: {
        server: {
          name: 'cc2-diag',
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
  });

  it('720, 723: a member is refused by policy; a missing server is 404', async () => {
    expectSameFault(await replay(720, 'demo'));
    expectSameFault(await replay(723, 'admin'));
  });

  it('721, 722: the flat figures before 2.48, the standard object from 2.48, as the driver gave them', async () => {
    for (const n of [721, 722]) {
      const got = await replay(n, 'admin');
      expectLike(got);
      expect(got.res.body).toEqual(got.capture.response.body);
    }
  });

  it('724, 725: a stopped server is a conflict naming its power state, at both versions', async () => {
    const stop = await http(tc, 'POST', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}/action`, {
      token: demo.token,
      body: { 'os-stop': null },
    });
    expect(stop.status).toBe(202);
    await tc.settle();
    expectSameFault(await replay(724, 'admin'));
    expectSameFault(await replay(725, 'admin'));
  });
});

describe('server external events (730-736)', () => {
  it('730: a member is refused by policy', async () => {
    expectSameFault(await replay(730, 'demo'));
  });

  it('731-733: each event answered on its own, 207 once one is refused, even when all are', async () => {
    for (const n of [731, 732, 733]) {
      const got = await replay(n, 'admin');
      expectLike(got);
      expect(got.res.body).toEqual(JSON.parse(replace(JSON.stringify(got.capture.response.body))));
    }
  });

  it('734-736: an unknown name, volume-extended before 2.51 and no events are schema 400s', async () => {
    for (const n of [734, 735, 736]) expectSameFault(await replay(n, 'admin'));
  });
});

describe('changePassword (740-744)', () => {
  it('740: refused while the server is stopped', async () => {
    expectSameFault(await replay(740, 'demo'));
  });

  it('741-744: once started, accepted (even empty), a schema 400 without adminPass, still ACTIVE', async () => {
    const start = await http(tc, 'POST', `/compute/v2.1/servers/${ids[RECORDED_SERVER]}/action`, {
      token: demo.token,
      body: { 'os-start': null },
    });
    expect(start.status).toBe(202);
    await tc.settle();
    expect((await replay(741, 'demo')).res.status).toBe(202);
    expectSameFault(await replay(742, 'demo'));
    expect((await replay(743, 'demo')).res.status).toBe(202);
    await tc.settle();
    const shown = await replay(744, 'demo');
    expect(shown.res.status).toBe(200);
    expect(shown.res.body.server.status).toBe('ACTIVE');
    expect(shown.res.body.server['OS-EXT-STS:task_state']).toBeNull();
  });
});
