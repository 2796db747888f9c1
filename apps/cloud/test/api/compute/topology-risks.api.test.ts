import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { isoAgo, topologyFixtures } from '../../helpers/topology-fixtures.js';

const PATH = '/compute/v2.1/os-emulator-topology';

let tc: TestCloud;
let admin: Session;
let demo: Session;
let fx: ReturnType<typeof topologyFixtures>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
  fx = topologyFixtures(tc);
});

interface Risk {
  kind: string;
  volume_id: string;
  server_ids?: string[];
  attachment_id?: string | null;
  server_id?: string;
  attach_status?: string | null;
  since?: string;
  message: string;
}

async function risksOf(volumeId: string, s: Session = admin, extra = ''): Promise<Risk[]> {
  const res = await http(tc, 'GET', `${PATH}?volume_id=${volumeId}${extra}`, { token: s.token });
  expect(res.status).toBe(200);
  return res.body.topology.risks;
}

describe('topology risk: multiple writers', () => {
  it('flags a multiattach volume with two read-write attachments', async () => {
    const vol = await fx.volume({ project_id: demo.projectId, name: 'two-writers' });
    const s1 = await fx.server({ project_id: demo.projectId, host: 'compute-1' });
    const s2 = await fx.server({ project_id: demo.projectId, host: 'compute-3', availability_zone: 'az2' });
    await fx.attach(s1, vol, { mode: 'rw' });
    await fx.attach(s2, vol, { mode: 'rw' });

    const risks = await risksOf(vol.id);
    expect(risks).toEqual([
      {
        kind: 'multiple_writers',
        volume_id: vol.id,
        server_ids: [s1.id, s2.id].sort(),
        message: expect.stringContaining('two-writers is attached read-write to 2 servers'),
      },
    ]);
    const res = await http(tc, 'GET', `${PATH}?volume_id=${vol.id}`, { token: admin.token });
    expect(res.body.topology.summary).toMatchObject({ multiple_writer_volumes: 1, rw: 2, ro: 0 });
    expect(res.body.topology.volumes[0]).toMatchObject({ rw_count: 2, ro_count: 0, attachment_count: 2 });

    // Filtering to one of the writers must not hide the other one.
    const oneHost = await risksOf(vol.id, admin, '&host=compute-1');
    expect(oneHost).toHaveLength(1);
    expect(oneHost[0]!.server_ids).toEqual([s1.id, s2.id].sort());
    // The owner sees the risk too.
    expect(await risksOf(vol.id, demo)).toHaveLength(1);
  });

  it('does not flag one writer with two readers', async () => {
    const vol = await fx.volume({ project_id: demo.projectId, name: 'one-writer' });
    const [w, r1, r2] = await Promise.all([
      fx.server({ project_id: demo.projectId }),
      fx.server({ project_id: demo.projectId }),
      fx.server({ project_id: demo.projectId, host: 'compute-2' }),
    ]);
    await fx.attach(w!, vol, { mode: 'rw' });
    await fx.attach(r1!, vol, { mode: 'ro' });
    await fx.attach(r2!, vol, { mode: 'ro' });
    expect(await risksOf(vol.id)).toEqual([]);
    const res = await http(tc, 'GET', `${PATH}?volume_id=${vol.id}`, { token: admin.token });
    expect(res.body.topology.volumes[0]).toMatchObject({ rw_count: 1, ro_count: 2, attachment_count: 3 });
  });

  it("takes Cinder's mode when the mapping has none, and rw when neither knows", async () => {
    const vol = await fx.volume({ project_id: demo.projectId });
    const s1 = await fx.server({ project_id: demo.projectId });
    const s2 = await fx.server({ project_id: demo.projectId });
    const s3 = await fx.server({ project_id: demo.projectId });
    await fx.attach(s1, vol, { mode: null, cinder_mode: 'ro' });
    await fx.attach(s2, vol, { mode: null, cinder_mode: 'null' });
    await fx.attach(s3, vol, { mode: 'ro', cinder_mode: 'rw' });
    const res = await http(tc, 'GET', `${PATH}?volume_id=${vol.id}`, { token: admin.token });
    const modes = Object.fromEntries(
      res.body.topology.attachments.map((a: { server_id: string; attach_mode: string }) => [
        a.server_id,
        a.attach_mode,
      ]),
    );
    expect(modes).toEqual({ [s1.id]: 'ro', [s2.id]: 'rw', [s3.id]: 'ro' });
    expect(res.body.topology.risks).toEqual([]);
  });
});

describe('topology risk: stuck attachments', () => {
  it('flags an attachment left attaching longer than stuck_after, not a fresh one', async () => {
    const vol = await fx.volume({ project_id: demo.projectId, name: 'stuck' });
    const old = await fx.server({ project_id: demo.projectId });
    const fresh = await fx.server({ project_id: demo.projectId });
    const { attachmentId } = await fx.attach(old, vol, {
      mode: 'ro',
      status: 'attaching',
      updated_at: isoAgo(3600),
    });
    await fx.attach(fresh, vol, { mode: 'ro', status: 'attaching' });

    const risks = await risksOf(vol.id);
    expect(risks).toEqual([
      {
        kind: 'stuck_attachment',
        attachment_id: attachmentId,
        bdm_uuid: expect.any(String),
        volume_id: vol.id,
        server_id: old.id,
        attach_status: 'attaching',
        since: expect.stringMatching(/Z$/),
        message: expect.stringContaining("in state 'attaching' since"),
      },
    ]);
    expect(Date.now() - Date.parse(risks[0]!.since!)).toBeGreaterThan(3500_000);

    // A threshold above its age clears it; zero catches the fresh one as well.
    expect(await risksOf(vol.id, admin, '&stuck_after=7200')).toEqual([]);
    expect(await risksOf(vol.id, admin, '&stuck_after=0')).toHaveLength(2);
    // The member sees their own stuck attachment.
    expect(await risksOf(vol.id, demo)).toHaveLength(1);
  });

  it('flags reserved, detaching and a mapping without a Cinder attachment; not attached or error', async () => {
    const vol = await fx.volume({ project_id: demo.projectId });
    const servers = await Promise.all([1, 2, 3, 4, 5].map(() => fx.server({ project_id: demo.projectId })));
    const statuses = ['reserved', 'detaching', null, 'attached', 'error_attaching'] as const;
    for (const [i, status] of statuses.entries()) {
      await fx.attach(servers[i]!, vol, { mode: 'ro', status, updated_at: isoAgo(900) });
    }
    const risks = await risksOf(vol.id);
    expect(risks.map((r) => r.attach_status).sort()).toEqual(['detaching', 'reserved', null].sort());
    const none = risks.find((r) => r.attach_status === null)!;
    expect(none.attachment_id).toBeNull();
    expect(none.message).toContain('no Cinder attachment');
  });

  it('does not flag the reserved attachment a shelved-offloaded server keeps', async () => {
    const vol = await fx.volume({ project_id: demo.projectId });
    const shelved = await fx.server({
      project_id: demo.projectId,
      vm_state: 'shelved_offloaded',
      host: null,
      availability_zone: null,
    });
    await fx.attach(shelved, vol, { mode: 'ro', status: 'reserved', updated_at: isoAgo(86_400) });
    expect(await risksOf(vol.id)).toEqual([]);
    const res = await http(tc, 'GET', `${PATH}?server_id=${shelved.id}`, { token: admin.token });
    expect(res.body.topology.servers[0]).toMatchObject({ status: 'SHELVED_OFFLOADED', host: null });
    expect(res.body.topology.hosts).toEqual([]);
  });
});
