import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, novaClient } from './servers-fixtures.js';

/** Server tags (nova/api/openstack/compute/server_tags.py, 2.26). */

let tc: TestCloud;
let admin: Session;
let nova: ReturnType<typeof novaClient>;
let server: string;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  nova = novaClient(tc, () => demo);
  const res = await nova('POST', '/servers', {
    body: { server: { name: 'tagged', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
  });
  server = res.body.server.id;
  await tc.settle();
});

const tags = (method: string, path = '', body?: unknown, version = '2.26') =>
  nova(method, `/servers/${server}/tags${path}`, { version, ...(body === undefined ? {} : { body }) });

describe('server tags', () => {
  it('add (201 with Location, then 204), check, list, show on the server, delete one, delete all', async () => {
    const added = await tags('PUT', '/blue');
    expect(added.status).toBe(201);
    expect(added.headers.get('location')).toMatch(new RegExp(`/compute/v2\\.1/servers/${server}/tags/blue$`));
    expect(added.text).toBe('');
    expect((await tags('PUT', '/blue')).status).toBe(204);
    expect((await tags('PUT', '/amber')).status).toBe(201);
    expect((await tags('GET')).body).toEqual({ tags: ['amber', 'blue'] });
    expect((await tags('GET', '/amber')).status).toBe(204);
    const missing = await tags('GET', '/green');
    expect(missing.status).toBe(404);
    // Capture 1024: the check says Server, the delete below Instance (1028).
    expect(missing.body).toEqual(fault(404, `Server ${server} has no tag 'green'`));
    expect((await nova('GET', `/servers/${server}`, { version: '2.26' })).body.server.tags).toEqual([
      'amber',
      'blue',
    ]);
    expect((await tags('DELETE', '/amber')).status).toBe(204);
    expect((await tags('DELETE', '/amber')).body).toEqual(
      fault(404, `Instance ${server} has no tag 'amber'`),
    );
    expect((await tags('DELETE')).status).toBe(204);
    expect((await tags('GET')).body).toEqual({ tags: [] });
  });

  it('replace all: 200 with the new tags', async () => {
    const res = await tags('PUT', '', { tags: ['x', 'a', 'x'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tags: ['a', 'x'] });
    const bad = await tags('PUT', '', { tags: ['a/b'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      fault(400, "Invalid input for field/attribute 0. Value: a/b. 'a/b' does not match '^[^,/]*$'"),
    );
    const many = await tags('PUT', '', { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) });
    expect(many.status).toBe(400);
    await tags('DELETE');
  });

  it('a bad tag in the path, and the 50-tag limit', async () => {
    const comma = await tags('PUT', '/a,b');
    expect(comma.body).toEqual(
      fault(
        400,
        "Tag 'a,b' is invalid. It must be a non empty string without characters '/' and ','. Validation error message: 'a,b' does not match '^[^,/]*$'",
      ),
    );
    await tags('PUT', '', { tags: Array.from({ length: 50 }, (_, i) => `t${i}`) });
    const over = await tags('PUT', '/one-more');
    expect(over.body).toEqual(fault(400, 'The number of tags exceeded the per-server limit 50'));
    await tags('DELETE');
  });

  it('below 2.26 there are no tags routes; another project’s server is not found', async () => {
    const old = await tags('GET', '', undefined, '2.25');
    expect(old.status).toBe(404);
    expect(old.body).toEqual(fault(404, 'The resource could not be found.'));
    const theirs = await nova('POST', '/servers', {
      session: admin,
      body: { server: { name: 'admins', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
    });
    await tc.settle();
    const res = await nova('GET', `/servers/${theirs.body.server.id}/tags`, { version: '2.26' });
    expect(res.body).toEqual(fault(404, `Instance ${theirs.body.server.id} could not be found.`));
  });

  it('a change while the server builds: 409', async () => {
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ vm_state: 'building' })
      .where('id', '=', server)
      .execute();
    const res = await tags('PUT', '/late');
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      fault(409, `Cannot 'update tag' instance ${server} while it is in vm_state building`),
    );
    await tc.cloud.deps.store.db
      .updateTable('servers')
      .set({ vm_state: 'active' })
      .where('id', '=', server)
      .execute();
  });
});
