import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { bdmRows, bootServersViaApi } from '../../helpers/compute-fixtures.js';
import { attachmentRows, createVolume, volumeRow } from '../../helpers/volume-fixtures.js';

/**
 * Attach requests sent all at once: the volume row lock (FOR UPDATE on PostgreSQL, the single
 * writer on SQLite) must keep Nova's and Cinder's rules whole under contention.
 */

let tc: TestCloud;
let demo: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession }) => {
  tc = cloud;
  demo = demoSession;
});

const attach = (serverId: string, volumeId: string, version = '2.60') =>
  http(tc, 'POST', `/compute/v2.1/servers/${serverId}/os-volume_attachments`, {
    token: demo.token,
    version: `compute ${version}`,
    body: { volumeAttachment: { volumeId } },
  });

/** Booted through the servers API, in the zone whose hosts can all share disks. */
async function servers(n: number): Promise<{ id: string }[]> {
  const ids = await timed(`boot ${n} servers`, () =>
    bootServersViaApi(tc, demo, n, { availabilityZone: 'nova' }),
  );
  return ids.map((id) => ({ id }));
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const out = await work();
  console.info(`[${tc.engine}] ${label}: ${Math.round(performance.now() - start)} ms`);
  return out;
}

describe('concurrent attaches', () => {
  it('50 attaches of one multiattach volume to 50 servers: 50 attachments, volume in-use', async () => {
    const fifty = await servers(50);
    const vol = await createVolume(tc, { projectId: demo.projectId, multiattach: true });
    const results = await timed('50 multiattach attaches (requests)', () =>
      Promise.all(fifty.map((s) => attach(s.id, vol))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    await timed('50 multiattach attaches (host work)', () => tc.settle());

    const atts = await attachmentRows(tc, vol);
    expect(atts).toHaveLength(50);
    expect(new Set(atts.map((a) => a.instance_uuid))).toEqual(new Set(fifty.map((s) => s.id)));
    expect(atts.every((a) => a.attach_status === 'attached' && a.attach_mode === 'rw')).toBe(true);
    expect(await volumeRow(tc, vol)).toMatchObject({ status: 'in-use', attach_status: 'attached' });
    for (const s of fifty) {
      const bdms = (await bdmRows(tc, s.id)).filter((b) => b.volume_id !== null);
      expect(bdms.map((b) => b.device_name)).toEqual(['/dev/vdb']);
      expect(bdms[0]?.connection_info).not.toBeNull();
    }
  });

  it('20 attaches of one plain volume to 20 servers: exactly one wins, 19 clear 400s', async () => {
    const twenty = await servers(20);
    const vol = await createVolume(tc, { projectId: demo.projectId });
    const results = await timed('20 plain attaches (requests)', () =>
      Promise.all(twenty.map((s) => attach(s.id, vol))),
    );
    await tc.settle();
    const winners = results.flatMap((r, i) => (r.status === 200 ? [twenty[i]!.id] : []));
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.status !== 200);
    expect(losers).toHaveLength(19);
    for (const r of losers) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        badRequest: {
          code: 400,
          message: `Invalid volume: volume ${vol} is already attached to instances: ${winners[0]}`,
        },
      });
    }
    const atts = await attachmentRows(tc, vol);
    expect(atts.map((a) => [a.instance_uuid, a.attach_status])).toEqual([[winners[0], 'attached']]);
    expect((await volumeRow(tc, vol)).status).toBe('in-use');
    const mappings = await tc.cloud.deps.store.db
      .selectFrom('block_device_mappings')
      .select('server_id')
      .where('volume_id', '=', vol)
      .execute();
    expect(mappings.map((m) => m.server_id)).toEqual(winners);
  });

  it('10 volumes attached to one server at once get 10 distinct device names', async () => {
    const [s] = await servers(1);
    const vols = await Promise.all(
      Array.from({ length: 10 }, () => createVolume(tc, { projectId: demo.projectId })),
    );
    const results = await timed('10 attaches to one server', () =>
      Promise.all(vols.map((v) => attach(s!.id, v))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const devices = results.map((r) => r.body.volumeAttachment.device as string);
    expect(new Set(devices).size).toBe(10);
    expect([...devices].sort()).toEqual(
      ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].map((l) => `/dev/vd${l}`),
    );
    await tc.settle();
    expect((await bdmRows(tc, s!.id)).every((b) => b.volume_id === null || b.connection_info !== null)).toBe(
      true,
    );
  });

  it('from 2.101 the host names the devices: still distinct under contention', async () => {
    const [s] = await servers(1);
    const vols = await Promise.all(
      Array.from({ length: 8 }, () => createVolume(tc, { projectId: demo.projectId })),
    );
    const results = await Promise.all(vols.map((v) => attach(s!.id, v, '2.101')));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(202));
    await tc.settle();
    const names = (await bdmRows(tc, s!.id)).filter((b) => b.volume_id !== null).map((b) => b.device_name);
    expect(new Set(names).size).toBe(8);
    expect(names.every((n) => n !== null && /^\/dev\/vd[b-i]$/.test(n))).toBe(true);
  });
});
