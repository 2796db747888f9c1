import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { captureReplayer } from './replay.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import type { CompareCaptureOptions } from './capture.js';

/**
 * Server groups, simple tenant usage, server tags, console output and the server password
 * (issue 14's compute round, cloud15) against the recorded Nova 26 (captures 1000-1037): one demo
 * server booted from a volume without a network, as recorded, then each exchange replayed in the
 * recorded order. Statuses, keys, value types and formats are compared; fault messages exactly.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
const RECORDED = {
  server: '79e55fdc-3bfa-41db-8f55-01501ab9483e',
  antiGroup: '8ccedeb1-50d8-4df9-b9f2-4bd841abbdcf',
  affinityGroup: 'db16f961-a527-4199-9011-5c6bdbef35cc',
  demoProject: '0c8300d1fb2a4865989938de37505cc2',
};
/** Recorded id → this cloud's id, filled as the scenario makes them. */

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  ids[RECORDED.demoProject] = demo.projectId;
});

const { ids, replay, expectLike, expectSameFault } = captureReplayer(() => ({ tc, demo, admin }));

describe('the recorded server (set-up)', () => {
  it('boots a demo server from a volume, without a network', async () => {
    const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    const res = await http(tc, 'POST', '/compute/v2.1/servers', {
      token: demo.token,
      version: 'compute 2.60',
      body: {
        server: {
          name: 'c15-srv',
          flavorRef: '1',
          networks: 'none',
          block_device_mapping_v2: [
            { boot_index: 0, uuid: volume, source_type: 'volume', destination_type: 'volume' },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    ids[RECORDED.server] = res.body.server.id;
    await tc.settle();
  });
});

describe('server groups (1000-1013)', () => {
  it('1000, 1001: create with one policy (2.64, with rules) and with a policies list (2.1)', async () => {
    const anti = await replay(1000, 'demo');
    expectLike(anti);
    expect(anti.res.body.server_group).toMatchObject({
      name: 'c15-anti',
      policy: 'anti-affinity',
      rules: { max_server_per_host: 3 },
      project_id: demo.projectId,
    });
    ids[RECORDED.antiGroup] = anti.res.body.server_group.id;
    const affinity = await replay(1001, 'demo');
    expectLike(affinity);
    expect(affinity.res.body.server_group.policies).toEqual(['affinity']);
    ids[RECORDED.affinityGroup] = affinity.res.body.server_group.id;
  });

  it('1002-1004: list and show; before 2.64 the group has policies and metadata instead', async () => {
    expectLike(await replay(1002, 'demo'));
    expectLike(await replay(1003, 'demo'));
    const old = await replay(1004, 'demo');
    expectLike(old);
    expect(old.res.body.server_group.policies).toEqual(['anti-affinity']);
  });

  it("1005-1009: Nova's messages for a bad policy, rules on affinity, two policies, 2.64 without policy, a missing group", async () => {
    for (const n of [1005, 1006, 1007, 1008, 1009]) expectSameFault(await replay(n, 'demo'));
  });

  it('1010, 1011: all_projects is ignored for a member and lists every project for an admin', async () => {
    const member = await replay(1010, 'demo');
    expectLike(member);
    for (const g of member.res.body.server_groups) expect(g.project_id).toBe(demo.projectId);
    const everyone = await replay(1011, 'admin');
    expectLike(everyone);
    expect(everyone.res.body.server_groups.map((g: { id: string }) => g.id)).toContain(
      ids[RECORDED.antiGroup],
    );
  });

  it('1012, 1013: delete, then the same group is 404', async () => {
    expectLike(await replay(1012, 'demo'));
    expectSameFault(await replay(1013, 'demo'));
  });
});

describe('simple tenant usage (1014-1019)', () => {
  // The reference's demo project had many servers of earlier runs; here only the recorded one runs.
  const usage: CompareCaptureOptions = {
    nullable: ['$..ended_at'],
    lenientArrays: ['$.tenant_usages'],
  };

  it('1014: listing every project is for admins', async () => {
    expectSameFault(await replay(1014, 'demo'));
  });

  it("1015: a member reads the project's own usage, with each server's", async () => {
    const own = await replay(1015, 'demo');
    expectLike(own, usage);
    const server = own.res.body.tenant_usage.server_usages.find(
      (s: { instance_id: string }) => s.instance_id === ids[RECORDED.server],
    );
    expect(server).toMatchObject({ name: 'c15-srv', flavor: 'm1.tiny', state: 'active' });
  });

  it('1016, 1017: an admin lists every project, detailed at 2.40 and totals only at 2.1', async () => {
    expectLike(await replay(1016, 'admin'), usage);
    const totals = await replay(1017, 'admin');
    expectLike(totals, usage);
    expect(totals.res.body.tenant_usages[0]).not.toHaveProperty('server_usages');
  });

  it("1018, 1019: Nova's messages for a bad time and an end before the start", async () => {
    expectSameFault(await replay(1018, 'admin'));
    expectSameFault(await replay(1019, 'admin'));
  });
});

describe('server tags (1020-1030)', () => {
  it('1020-1023: add one, replace all, list, check one', async () => {
    expectLike(await replay(1020, 'demo'));
    const replaced = await replay(1021, 'demo');
    expectLike(replaced);
    expect(replaced.res.body.tags).toEqual(['c15-a', 'c15-b']);
    const listed = await replay(1022, 'demo');
    expectLike(listed, { exact: ['$.tags'] });
    expectLike(await replay(1023, 'demo'));
  });

  it("1024, 1025: a tag the server lacks is 404, a tag with a comma 400, in Nova's words", async () => {
    expectSameFault(await replay(1024, 'demo'));
    expectSameFault(await replay(1025, 'demo'));
  });

  it('1026: the servers list filters by tag', async () => {
    const got = await replay(1026, 'demo');
    expectLike(got);
    expect(got.res.body.servers.map((s: { id: string }) => s.id)).toEqual([ids[RECORDED.server]]);
  });

  it('1027-1030: delete one, again 404 (Instance, not Server), 404 before 2.26, delete all', async () => {
    expectLike(await replay(1027, 'demo'));
    expectSameFault(await replay(1028, 'demo'));
    expectSameFault(await replay(1029, 'demo'));
    expectLike(await replay(1030, 'demo'));
    const left = await http(tc, 'GET', `/compute/v2.1/servers/${ids[RECORDED.server]}/tags`, {
      token: demo.token,
      version: 'compute 2.26',
    });
    expect(left.body.tags).toEqual([]);
  });
});

describe('console output and the server password (1031-1037)', () => {
  it('1031, 1032: the console log, with and without a length', async () => {
    for (const n of [1031, 1032]) {
      const got = await replay(n, 'demo');
      expectLike(got);
      expect(typeof got.res.body.output).toBe('string');
    }
  });

  it("1033, 1034: Nova's message for a bad length, and a missing server", async () => {
    expectSameFault(await replay(1033, 'demo'));
    expectSameFault(await replay(1034, 'demo'));
  });

  it('1035-1037: the password is empty until a guest posts one; clearing answers 204; a missing server 404', async () => {
    const got = await replay(1035, 'demo');
    expectLike(got, { exact: ['$.password'] });
    expectLike(await replay(1036, 'demo'));
    expectSameFault(await replay(1037, 'demo'));
  });
});
