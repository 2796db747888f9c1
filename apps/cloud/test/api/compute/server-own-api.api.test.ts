import { beforeEach, describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { setServer } from '../../helpers/compute-fixtures.js';
import { allHostsEnabled, fault, novaClient } from './servers-fixtures.js';

/** The server's own API (issue 14, C1): fields kept at create, update, metadata, tags, actions. */

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

/** An image-backed server, ACTIVE. */
async function imageServer(server: Record<string, unknown> = {}, version = '2.60'): Promise<string> {
  const res = await nova('POST', '/servers', {
    version,
    body: { server: { name: 'own', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', ...server } },
  });
  expect(res.status).toBe(202);
  await tc.settle();
  return res.body.server.id;
}

const show = async (id: string, version = '2.60', session: Session = demo) =>
  (await nova('GET', `/servers/${id}`, { version, session })).body.server;

describe('create keeps what it was given', () => {
  it('stores accessIPv4/accessIPv6 and OS-DCF:diskConfig and shows them', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: {
          name: 'ips',
          flavorRef: '1',
          imageRef: SEED_IMAGE_ID,
          networks: 'none',
          accessIPv4: '1.1.1.1',
          accessIPv6: '2001:2001::3',
          'OS-DCF:diskConfig': 'AUTO',
        },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.server['OS-DCF:diskConfig']).toBe('AUTO');
    await tc.settle();
    const s = await show(res.body.server.id);
    expect([s.accessIPv4, s.accessIPv6, s['OS-DCF:diskConfig']]).toEqual(['1.1.1.1', '2001:2001::3', 'AUTO']);
    const plain = await show(await imageServer());
    expect([plain.accessIPv4, plain.accessIPv6, plain['OS-DCF:diskConfig']]).toEqual(['', '', 'MANUAL']);
  });

  it('refuses an access address that is not one', async () => {
    const res = await nova('POST', '/servers', {
      body: {
        server: { name: 'x', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', accessIPv4: '1.1.1' },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toMatch(/^Invalid input for field\/attribute accessIPv4/);
  });
});

describe('PUT /servers/{id}', () => {
  it('renames, describes (2.19) and readdresses a server; keys per microversion', async () => {
    const id = await imageServer();
    const old = await nova('PUT', `/servers/${id}`, {
      version: '2.1',
      body: { server: { name: 'renamed', accessIPv4: '192.0.2.4', accessIPv6: '::babe:202:202' } },
    });
    expect(old.status).toBe(200);
    const s = old.body.server;
    expect([s.name, s.accessIPv4, s.accessIPv6]).toEqual(['renamed', '192.0.2.4', '::babe:202:202']);
    // Below 2.75 the answer leaves out the extended attributes; no key of later versions.
    for (const k of [
      'OS-EXT-AZ:availability_zone',
      'OS-EXT-STS:vm_state',
      'key_name',
      'locked',
      'description',
    ]) {
      expect(s).not.toHaveProperty(k);
    }
    const v219 = await nova('PUT', `/servers/${id}`, {
      version: '2.19',
      body: { server: { description: 'd' } },
    });
    expect(v219.body.server.description).toBe('d');
    expect(v219.body.server.locked).toBe(false);
    // 2.75: the whole show view.
    const v275 = await nova('PUT', `/servers/${id}`, {
      version: '2.75',
      body: { server: { 'OS-DCF:diskConfig': 'AUTO' } },
    });
    expect(v275.body.server['OS-EXT-STS:vm_state']).toBe('active');
    expect(v275.body.server['OS-DCF:diskConfig']).toBe('AUTO');
    const shown = await show(id, '2.19');
    expect([shown.name, shown.description, shown.accessIPv4]).toEqual(['renamed', 'd', '192.0.2.4']);
  });

  it("refuses bad bodies with Nova's messages, and strangers with a 404", async () => {
    const id = await imageServer();
    const long = await nova('PUT', `/servers/${id}`, { body: { server: { name: 'a'.repeat(256) } } });
    expect(long.status).toBe(400);
    expect(long.body.badRequest.message).toMatch(/^Invalid input for field\/attribute name\./);
    const empty = await nova('PUT', `/servers/${id}`, { body: { server: { name: '' } } });
    expect(empty.status).toBe(400);
    const desc = await nova('PUT', `/servers/${id}`, {
      version: '2.18',
      body: { server: { description: 'x' } },
    });
    expect(desc.status).toBe(400);
    const none = await nova('PUT', `/servers/${id}`, { body: {} });
    expect(none.status).toBe(400);
    const missing = '00000000-0000-4000-8000-000000000001';
    const lost = await nova('PUT', `/servers/${missing}`, { body: { server: { name: 'x' } } });
    expect(lost.status).toBe(404);
    expect(lost.body).toEqual(fault(404, `Instance ${missing} could not be found.`));
    const byAdmin = await nova('PUT', `/servers/${id}`, {
      session: admin,
      body: { server: { name: 'adm' } },
    });
    expect(byAdmin.status).toBe(200);
  });
});

describe('server metadata', () => {
  it('lists, merges (POST), replaces (PUT), shows, sets and deletes one key', async () => {
    const id = await imageServer({ metadata: { born: 'yes' } });
    const base = `/servers/${id}/metadata`;
    expect((await nova('GET', base)).body).toEqual({ metadata: { born: 'yes' } });
    const merged = await nova('POST', base, { body: { metadata: { a: '1', b: '2' } } });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ metadata: { born: 'yes', a: '1', b: '2' } });
    const empty = await nova('POST', base, { body: { metadata: {} } });
    expect(empty.body).toEqual({ metadata: { born: 'yes', a: '1', b: '2' } });
    const replaced = await nova('PUT', base, { body: { metadata: { c: '3' } } });
    expect(replaced.body).toEqual({ metadata: { c: '3' } });
    const one = await nova('PUT', `${base}/d`, { body: { meta: { d: '4' } } });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ meta: { d: '4' } });
    expect((await nova('GET', `${base}/d`)).body).toEqual({ meta: { d: '4' } });
    const gone = await nova('DELETE', `${base}/c`);
    expect(gone.status).toBe(204);
    expect((await show(id)).metadata).toEqual({ d: '4' });
    for (const [method, path] of [
      ['GET', `${base}/c`],
      ['DELETE', `${base}/c`],
    ] as const) {
      const res = await nova(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(fault(404, 'Metadata item was not found'));
    }
  });

  it('refuses bad bodies as Nova does', async () => {
    const id = await imageServer();
    const base = `/servers/${id}/metadata`;
    const mismatch = await nova('PUT', `${base}/a`, { body: { meta: { b: '1' } } });
    expect(mismatch.body).toEqual(fault(400, 'Request body and URI mismatch'));
    for (const body of [
      { metadata: { 'key~': 'v' } },
      { metadata: { '': 'v' } },
      { meta: { a: '1' } },
      { metadata: { a: 'x'.repeat(256) } },
    ]) {
      for (const method of ['POST', 'PUT']) {
        const res = await nova(method, base, { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.badRequest.message).toMatch(
          /^(Invalid input for field\/attribute |'metadata' is a required property$)/,
        );
      }
    }
    const two = await nova('PUT', `${base}/a`, { body: { meta: { a: '1', b: '2' } } });
    expect(two.status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`k${i}`, 'v']));
    const over = await nova('PUT', base, { body: { metadata: many } });
    expect(over.body).toEqual(fault(403, 'Maximum number of metadata items exceeds 128'));
  });

  it('changes only a settled server, and not a locked one for its owner', async () => {
    const id = await imageServer();
    await setServer(tc, id, { task_state: 'rebooting' });
    const busy = await nova('POST', `/servers/${id}/metadata`, { body: { metadata: { a: '1' } } });
    expect(busy.body).toEqual(
      fault(409, `Cannot 'update metadata' instance ${id} while it is in task_state rebooting`),
    );
    await setServer(tc, id, { task_state: null, locked: 1, locked_by: 'admin' });
    const locked = await nova('PUT', `/servers/${id}/metadata/a`, { body: { meta: { a: '1' } } });
    expect(locked.body).toEqual(fault(409, `Instance ${id} is locked`));
    const byAdmin = await nova('PUT', `/servers/${id}/metadata/a`, {
      session: admin,
      body: { meta: { a: '1' } },
    });
    expect(byAdmin.status).toBe(200);
  });
});
