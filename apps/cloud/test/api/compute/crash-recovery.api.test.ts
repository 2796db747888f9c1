import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statusFromAttachments } from '../../../src/volume/service/volume-status.js';
import { http, login, type Session, startCloud, type TestCloud, usePostgres } from '../../helpers/cloud.js';
import { createVolume } from '../../helpers/volume-fixtures.js';
import { bfvBody } from './servers-fixtures.js';

/**
 * A process that dies mid-way leaves nothing orphaned: the next start finishes half-built
 * servers, half-done attaches and accepted detaches, and every volume's status agrees with its
 * attachments. The first cloud "crashes" (its scheduled host work never runs) and a
 * second one opens the same database.
 */
let dir: string | null = null;
const clouds: TestCloud[] = [];

afterEach(async () => {
  for (const c of clouds.splice(0)) await c.close().catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function firstCloud(): Promise<TestCloud> {
  if (usePostgres()) return startCloud(); // its own schema, reopened by the second cloud
  dir = mkdtempSync(join(tmpdir(), 'crash-'));
  return startCloud({ databaseUrl: `file:${join(dir, 'cloud.db')}` });
}

const nova = (tc: TestCloud, s: Session, method: string, path: string, body?: unknown, version = '2.105') =>
  http(tc, method, `/compute/v2.1${path}`, { token: s.token, version: `compute ${version}`, body });

async function assertConsistent(tc: TestCloud) {
  const db = tc.cloud.deps.store.db;
  const volumes = await db.selectFrom('volumes').select(['id', 'status', 'multiattach']).execute();
  for (const v of volumes) {
    const atts = await db
      .selectFrom('volume_attachments')
      .select('attach_status')
      .where('volume_id', '=', v.id)
      .execute();
    expect({ id: v.id, status: v.status }).toEqual({
      id: v.id,
      status: statusFromAttachments(atts.map((a) => a.attach_status)).status,
    });
    if (!v.multiattach) expect(atts.length).toBeLessThanOrEqual(1);
    for (const a of atts) expect(['attached']).toContain(a.attach_status);
  }
  const servers = await db
    .selectFrom('servers')
    .select(['id', 'vm_state', 'task_state'])
    .where('deleted', '=', 0)
    .execute();
  for (const s of servers) {
    expect(['active', 'error']).toContain(s.vm_state);
    expect(s.task_state).toBeNull();
  }
  // Every Nova mapping of a live server holds a Cinder attachment that exists, and vice versa.
  const bdms = await db
    .selectFrom('block_device_mappings')
    .innerJoin('servers', 'servers.id', 'block_device_mappings.server_id')
    .select(['block_device_mappings.attachment_id', 'servers.vm_state'])
    .where('block_device_mappings.volume_id', 'is not', null)
    .where('servers.vm_state', '=', 'active')
    .execute();
  const attachmentIds = new Set(
    (await db.selectFrom('volume_attachments').select('id').execute()).map((a) => a.id),
  );
  for (const b of bdms) expect(attachmentIds.has(b.attachment_id ?? '')).toBe(true);
}

describe('restart after a crash', () => {
  it('finishes a multi-create of 5 servers on one shared volume that the crash interrupted', async () => {
    const a = await firstCloud();
    clouds.push(a);
    const demo = await login(a, 'demo');
    const vol = await createVolume(a, { projectId: demo.projectId, multiattach: true, bootable: true });
    a.cloud.deps.tasks.stop(); // from here on, no host work runs in the first process
    const res = await nova(
      a,
      demo,
      'POST',
      '/servers',
      bfvBody(vol, { min_count: 5, max_count: 5, return_reservation_id: true }),
    );
    expect(res.status).toBe(202);
    await a.crash();

    const b = await startCloud({}, { reopen: a });
    clouds.splice(0, clouds.length, b);
    await b.settle();
    const demo2 = await login(b, 'demo');
    const list = await nova(b, demo2, 'GET', `/servers/detail?reservation_id=${res.body.reservation_id}`);
    expect(list.body.servers.map((s: { status: string }) => s.status)).toEqual(Array(5).fill('ACTIVE'));
    const volume = await http(b, 'GET', `${demo2.volumeBase}/volumes/${vol}`, { token: demo2.token });
    expect(volume.body.volume.status).toBe('in-use');
    expect(volume.body.volume.attachments).toHaveLength(5);
    await assertConsistent(b);
  });

  it('completes an attach that was reserved but never connected, and finishes an accepted detach', async () => {
    const a = await firstCloud();
    clouds.push(a);
    const demo = await login(a, 'demo');
    const root = await createVolume(a, { projectId: demo.projectId, bootable: true });
    const created = await nova(a, demo, 'POST', '/servers', bfvBody(root));
    expect(created.status).toBe(202);
    await a.settle();
    const serverId = created.body.server.id as string;
    const data = await createVolume(a, { projectId: demo.projectId, multiattach: true });
    const other = await createVolume(a, { projectId: demo.projectId });
    const attachOther = await nova(a, demo, 'POST', `/servers/${serverId}/os-volume_attachments`, {
      volumeAttachment: { volumeId: other },
    });
    expect(attachOther.status).toBe(202); // 2.101 and later: accepted, no body
    await a.settle();

    a.cloud.deps.tasks.stop();
    const attach = await nova(a, demo, 'POST', `/servers/${serverId}/os-volume_attachments`, {
      volumeAttachment: { volumeId: data, attach_mode: 'ro' },
    });
    expect(attach.status).toBe(202);
    const detach = await nova(a, demo, 'DELETE', `/servers/${serverId}/os-volume_attachments/${other}`);
    expect(detach.status).toBe(202);
    await a.crash();

    const b = await startCloud({}, { reopen: a });
    clouds.splice(0, clouds.length, b);
    await b.settle();
    const demo2 = await login(b, 'demo');
    const list = await nova(b, demo2, 'GET', `/servers/${serverId}/os-volume_attachments`);
    const byVolume = new Map(
      list.body.volumeAttachments.map((x: { volumeId: string; attach_mode: string }) => [
        x.volumeId,
        x.attach_mode,
      ]),
    );
    expect(byVolume.get(data)).toBe('ro');
    // The client was told the detach was accepted: it is finished, not rolled back.
    expect(byVolume.has(other)).toBe(false);
    const otherVolume = await http(b, 'GET', `${demo2.volumeBase}/volumes/${other}`, { token: demo2.token });
    expect(otherVolume.body.volume).toMatchObject({ status: 'available', attachments: [] });
    await assertConsistent(b);
  });

  it("leaves a Cinder user's os-begin_detaching alone while running; a start rolls it back", async () => {
    const a = await firstCloud();
    clouds.push(a);
    const demo = await login(a, 'demo');
    const vol = await createVolume(a, { projectId: demo.projectId });
    const action = (body: unknown) =>
      http(a, 'POST', `${demo.volumeBase}/volumes/${vol}/action`, {
        token: demo.token,
        version: 'volume 3.50',
        body,
      });
    const instance = '6a4fd4b3-5a39-4a8c-8a4f-5c1b8e0f2b11';
    expect((await action({ 'os-attach': { instance_uuid: instance, mountpoint: '/dev/vdb' } })).status).toBe(
      202,
    );
    expect((await action({ 'os-begin_detaching': null })).status).toBe(202);
    const status = async () =>
      (await http(a, 'GET', `${demo.volumeBase}/volumes/${vol}`, { token: demo.token })).body.volume.status;

    // No process owns it: a takeover while running must not undo what the user began.
    await a.cloud.compute.reconcile({ atStart: false, claims: () => true });
    expect(await status()).toBe('detaching');
    await a.cloud.compute.reconcile();
    expect(await status()).toBe('in-use');
  });

  it('completes an attach to a resized server waiting for its confirm', async () => {
    const a = await firstCloud();
    clouds.push(a);
    const demo = await login(a, 'demo');
    const root = await createVolume(a, { projectId: demo.projectId, bootable: true });
    const created = await nova(a, demo, 'POST', '/servers', bfvBody(root));
    const serverId = created.body.server.id as string;
    await a.settle();
    const resize = await nova(a, demo, 'POST', `/servers/${serverId}/action`, { resize: { flavorRef: '2' } });
    expect(resize.status).toBe(202);
    await a.settle();
    const data = await createVolume(a, { projectId: demo.projectId });
    a.cloud.deps.tasks.stop();
    const attach = await nova(a, demo, 'POST', `/servers/${serverId}/os-volume_attachments`, {
      volumeAttachment: { volumeId: data },
    });
    expect(attach.status).toBe(202);
    await a.crash();

    const b = await startCloud({}, { reopen: a });
    clouds.splice(0, clouds.length, b);
    await b.settle();
    const demo2 = await login(b, 'demo');
    expect((await nova(b, demo2, 'GET', `/servers/${serverId}`)).body.server.status).toBe('VERIFY_RESIZE');
    const volume = await http(b, 'GET', `${demo2.volumeBase}/volumes/${data}`, { token: demo2.token });
    expect(volume.body.volume).toMatchObject({ status: 'in-use', attachments: [{ server_id: serverId }] });
  });
});
