import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { createVolume } from '../../helpers/volume-fixtures.js';
import { allHostsEnabled, bfvBody, fault, novaClient, onlyHosts } from './servers-fixtures.js';

/**
 * Cold migrate, the migration records resizes and migrations leave, and GET /os-migrations
 * (cloud-rescue): what the golden test of captures 899-909 cannot show with one recorded host.
 */

let tc: TestCloud;
let demo: Session;
let admin: Session;
let nova: ReturnType<typeof novaClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
});
beforeEach(async () => {
  await tc.settle();
  await allHostsEnabled(tc);
});

async function bfvServer(): Promise<string> {
  const volume = await createVolume(tc, { projectId: demo.projectId, bootable: true });
  const res = await nova('POST', '/servers', { body: bfvBody(volume) });
  await tc.settle();
  return res.body.server.id;
}

const act = (id: string, body: unknown, session: Session = demo, version = '2.60') =>
  nova('POST', `/servers/${id}/action`, { body, session, version });

const migrations = (query = '', version = '2.80') =>
  nova('GET', `/os-migrations${query}`, { session: admin, version });

async function show(id: string) {
  const s = (await nova('GET', `/servers/${id}`, { session: admin })).body.server;
  return { status: s.status, host: s['OS-EXT-SRV-ATTR:host'] as string };
}

describe('cold migrate', () => {
  it('moves a stopped server to another host; revert brings it back, and the record says so', async () => {
    const id = await bfvServer();
    const from = (await show(id)).host;
    expect((await act(id, { 'os-stop': null })).status).toBe(202);
    await tc.settle();
    expect((await act(id, { migrate: null }, admin)).status).toBe(202);
    await tc.settle();
    const moved = await show(id);
    expect(moved.status).toBe('VERIFY_RESIZE');
    expect(moved.host).not.toBe(from);
    expect((await act(id, { revertResize: null })).status).toBe(202);
    await tc.settle();
    expect(await show(id)).toEqual({ status: 'SHUTOFF', host: from });

    const list = await migrations(`?instance_uuid=${id}`);
    expect(list.body.migrations).toHaveLength(1);
    expect(list.body.migrations[0]).toMatchObject({
      status: 'reverted',
      migration_type: 'migration',
      source_compute: from,
      dest_compute: moved.host,
      instance_uuid: id,
    });
  });

  it('refuses a server in the wrong state, and a body with a host before 2.56 is ignored', async () => {
    const id = await bfvServer();
    expect((await act(id, { pause: null })).status).toBe(202);
    await tc.settle();
    expect((await act(id, { migrate: null }, admin)).body).toEqual(
      fault(409, `Cannot 'migrate' instance ${id} while it is in vm_state paused`),
    );
    expect((await act(id, { unpause: null })).status).toBe(202);
    await tc.settle();
    const res = await act(id, { migrate: { host: 'no-such-host' } }, admin, '2.55');
    expect(res.status).toBe(202);
    await tc.settle();
    expect((await show(id)).status).toBe('VERIFY_RESIZE');
    expect((await act(id, { confirmResize: null })).status).toBe(204);
    await tc.settle();
  });

  it('a named host (2.56) is where the server goes', async () => {
    const id = await bfvServer();
    const from = (await show(id)).host;
    const to = ['compute-1', 'compute-2'].find((h) => h !== from)!;
    expect((await act(id, { migrate: { host: to } }, admin, '2.56')).status).toBe(202);
    await tc.settle();
    expect(await show(id)).toEqual({ status: 'VERIFY_RESIZE', host: to });
    expect((await act(id, { confirmResize: null })).status).toBe(204);
    await tc.settle();
    expect(await show(id)).toEqual({ status: 'ACTIVE', host: to });
  });
});

describe('GET /os-migrations', () => {
  it('records a resize as a resize, with the internal ids of both flavors', async () => {
    const id = await bfvServer();
    expect((await act(id, { resize: { flavorRef: '2' } })).status).toBe(202);
    await tc.settle();
    const [m] = (await migrations(`?instance_uuid=${id}`)).body.migrations;
    expect(m.migration_type).toBe('resize');
    expect(m.status).toBe('finished');
    expect(m.old_instance_type_id).not.toBe(m.new_instance_type_id);
    expect(m.user_id).toBe(demo.userId);
    expect(m.project_id).toBe(demo.projectId);
    expect((await act(id, { confirmResize: null })).status).toBe(204);
    await tc.settle();
    const [confirmed] = (await migrations(`?instance_uuid=${id}&migration_type=resize`)).body.migrations;
    expect(confirmed.status).toBe('confirmed');
  });

  it('a failed migrate (no other host) is an error record and the server stays put', async () => {
    const id = await bfvServer();
    const from = (await show(id)).host;
    await onlyHosts(tc, [from]);
    expect((await act(id, { migrate: null }, admin)).status).toBe(202);
    await tc.settle();
    expect(await show(id)).toEqual({ status: 'ACTIVE', host: from });
    const [m] = (await migrations(`?instance_uuid=${id}&status=error`)).body.migrations;
    expect(m).toMatchObject({ status: 'error', dest_compute: null, dest_node: null, dest_host: null });
  });

  it('keys by microversion: none of 2.23/2.59/2.80 at 2.1', async () => {
    const m = (await migrations('', '2.1')).body.migrations[0];
    for (const key of ['uuid', 'migration_type', 'user_id', 'project_id']) expect(m).not.toHaveProperty(key);
    const at223 = (await migrations('', '2.23')).body.migrations[0];
    expect(at223).toHaveProperty('migration_type');
    expect(at223).not.toHaveProperty('uuid');
    const at259 = (await migrations('', '2.59')).body.migrations[0];
    expect(at259).toHaveProperty('uuid');
    expect(at259).not.toHaveProperty('user_id');
  });

  it('2.59 pages newest first with a next link; an unknown marker or parameter is a 400', async () => {
    const all = (await migrations()).body.migrations as { uuid: string; id: number }[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await migrations('?limit=2');
    expect(first.body.migrations.map((m: { uuid: string }) => m.uuid)).toEqual(
      all.slice(0, 2).map((m) => m.uuid),
    );
    expect(first.body.migrations_links[0].href).toContain(`marker=${all[1]!.uuid}`);
    const next = await migrations(`?limit=2&marker=${all[1]!.uuid}`);
    expect(next.body.migrations[0].uuid).toBe(all[2]!.uuid);
    expect((await migrations('?marker=00000000-0000-4000-8000-000000000000')).body).toEqual(
      fault(400, 'Marker 00000000-0000-4000-8000-000000000000 could not be found.'),
    );
    expect((await migrations('?bogus=1')).status).toBe(400);
    // Before 2.59 Nova's schema lets unknown parameters through.
    expect((await migrations('?bogus=1', '2.58')).status).toBe(200);
    expect((await migrations(`?user_id=${demo.userId}`)).body.migrations.length).toBeGreaterThan(0);
    expect((await migrations('?changes-since=2999-01-01T00:00:00Z')).body.migrations).toEqual([]);
  });

  it('is for admins only', async () => {
    expect((await nova('GET', '/os-migrations')).body).toEqual(
      fault(403, "Policy doesn't allow os_compute_api:os-migrations:index to be performed."),
    );
  });
});

describe('rescue', () => {
  it('rescues a stopped server too; unrescue brings it back ACTIVE', async () => {
    const created = await nova('POST', '/servers', {
      body: { server: { name: 'r', imageRef: SEED_IMAGE_ID, flavorRef: '1', networks: 'none' } },
    });
    await tc.settle();
    const id = created.body.server.id as string;
    expect((await act(id, { 'os-stop': null })).status).toBe(202);
    await tc.settle();
    const rescued = await act(id, { rescue: null });
    expect(rescued.status).toBe(200);
    await tc.settle();
    expect((await show(id)).status).toBe('RESCUE');
    expect((await act(id, { unrescue: 'anything' })).status).toBe(202);
    await tc.settle();
    expect((await show(id)).status).toBe('ACTIVE');
  });
});
