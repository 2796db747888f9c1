import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
const GLANCE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function insertImage(
  id: string,
  name: string,
  visibility: string,
  owner: string | null,
  createdAt: string,
) {
  await tc.cloud.deps.store.db
    .insertInto('images')
    .values({
      id,
      name,
      status: 'active',
      visibility,
      owner,
      size: 1024,
      disk_format: 'raw',
      container_format: 'bare',
      min_disk: 1,
      min_ram: 64,
      checksum: null,
      properties: JSON.stringify({ os_distro: 'debian' }),
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
}

const PRIVATE_DEMO = '00000000-0000-4000-8000-0000000000d1';
const PRIVATE_ADMIN = '00000000-0000-4000-8000-0000000000a1';
const COMMUNITY = '00000000-0000-4000-8000-0000000000c1';

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  await insertImage(PRIVATE_DEMO, 'demo-private', 'private', demo.projectId, '2030-01-01T00:00:01.000Z');
  await insertImage(PRIVATE_ADMIN, 'admin-private', 'private', admin.projectId, '2030-01-01T00:00:02.000Z');
  await insertImage(COMMUNITY, 'community-1', 'community', admin.projectId, '2030-01-01T00:00:03.000Z');
});

const ids = (body: { images: { id: string }[] }) => body.images.map((i) => i.id);

describe('Glance version discovery', () => {
  it('answers 300 at the root and 200 at /versions, without a token', async () => {
    const root = await http(tc, 'GET', '/image/');
    expect(root.status).toBe(300);
    expect(root.body.versions[0]).toEqual({
      id: 'v2.15',
      status: 'CURRENT',
      links: [{ rel: 'self', href: `${tc.url}/image/v2/` }],
    });
    expect(root.body.versions.map((v: { id: string }) => v.id)).toContain('v2.0');
    const bare = await http(tc, 'GET', '/image');
    expect(bare.status).toBe(300);
    const explicit = await http(tc, 'GET', '/image/versions');
    expect(explicit.status).toBe(200);
    expect(explicit.body).toEqual(root.body);
    expect((await http(tc, 'GET', '/image/v1/images')).status).toBe(300);
  });
});

describe('GET /image/v2/images', () => {
  it('needs a token (keystonemiddleware 401)', async () => {
    const r = await http(tc, 'GET', '/image/v2/images');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      error: {
        code: 401,
        message: 'The request you have made requires authentication.',
        title: 'Unauthorized',
      },
    });
    expect(r.headers.get('www-authenticate')).toBe(`Keystone uri="${tc.url}/identity/v3"`);
  });

  it("lists what the caller may see, newest first, in Glance's shape", async () => {
    const r = await http(tc, 'GET', '/image/v2/images', { token: demo.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['images', 'first', 'schema']);
    expect(r.body.first).toBe('/v2/images');
    expect(r.body.schema).toBe('/v2/schemas/images');
    expect(ids(r.body)).toEqual([PRIVATE_DEMO, SEED_IMAGE_ID]);
    const cirros = r.body.images[1];
    expect(cirros).toEqual({
      hw_rng_model: 'virtio',
      name: 'cirros-0.6.2-x86_64-disk',
      disk_format: 'qcow2',
      container_format: 'bare',
      visibility: 'public',
      size: 21_430_272,
      virtual_size: null,
      status: 'active',
      checksum: 'c8fc807773e5354afe61636071771906',
      protected: false,
      min_ram: 0,
      min_disk: 0,
      owner: null,
      os_hidden: false,
      os_hash_algo: 'sha512',
      os_hash_value: expect.stringMatching(/^[0-9a-f]{128}$/),
      id: SEED_IMAGE_ID,
      created_at: expect.stringMatching(GLANCE_TIME),
      updated_at: expect.stringMatching(GLANCE_TIME),
      tags: [],
      self: `/v2/images/${SEED_IMAGE_ID}`,
      file: `/v2/images/${SEED_IMAGE_ID}/file`,
      schema: '/v2/schemas/image',
    });
    const forAdmin = await http(tc, 'GET', '/image/v2/images', { token: admin.token });
    // Admins see every project's images; community images are listed to their owner only.
    expect(ids(forAdmin.body)).toEqual([COMMUNITY, PRIVATE_ADMIN, PRIVATE_DEMO, SEED_IMAGE_ID]);
  });

  it('filters by name, status, visibility and properties', async () => {
    const q = (query: string, s = demo) => http(tc, 'GET', `/image/v2/images?${query}`, { token: s.token });
    expect(ids((await q('name=cirros-0.6.2-x86_64-disk')).body)).toEqual([SEED_IMAGE_ID]);
    expect(ids((await q('status=queued')).body)).toEqual([]);
    expect(ids((await q('visibility=private')).body)).toEqual([PRIVATE_DEMO]);
    expect(ids((await q('visibility=community')).body)).toEqual([COMMUNITY]);
    expect(ids((await q('visibility=all')).body)).toEqual([COMMUNITY, PRIVATE_DEMO, SEED_IMAGE_ID]);
    expect(ids((await q('os_distro=debian')).body)).toEqual([PRIVATE_DEMO]);
    const named = await q('name=demo-private');
    expect(named.body.first).toBe('/v2/images?name=demo-private');
    const bad = await q('visibility=secret');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      message: 'Invalid visibility value: secret<br /><br />\n\n\n',
      code: '400 Bad Request',
      title: 'Bad Request',
    });
  });

  it('pages with limit and marker and a next link', async () => {
    const p1 = await http(tc, 'GET', '/image/v2/images?limit=2', { token: admin.token });
    expect(ids(p1.body)).toEqual([COMMUNITY, PRIVATE_ADMIN]);
    expect(p1.body.first).toBe('/v2/images?limit=2');
    expect(p1.body.next).toBe(`/v2/images?limit=2&marker=${PRIVATE_ADMIN}`);
    const p2 = await http(tc, 'GET', `/image/v2/images?limit=2&marker=${PRIVATE_ADMIN}`, {
      token: admin.token,
    });
    expect(ids(p2.body)).toEqual([PRIVATE_DEMO, SEED_IMAGE_ID]);
    expect(p2.body.first).toBe('/v2/images?limit=2');
    const p3 = await http(tc, 'GET', `/image/v2/images?limit=2&marker=${SEED_IMAGE_ID}`, {
      token: admin.token,
    });
    expect(ids(p3.body)).toEqual([]);
    expect(p3.body.next).toBeUndefined();
    const sorted = await http(tc, 'GET', '/image/v2/images?sort_key=name&sort_dir=asc', {
      token: admin.token,
    });
    expect(sorted.body.images.map((i: { name: string }) => i.name)).toEqual([
      'admin-private',
      'cirros-0.6.2-x86_64-disk',
      'community-1',
      'demo-private',
    ]);
    const badLimit = await http(tc, 'GET', '/image/v2/images?limit=-1', { token: demo.token });
    expect(badLimit.body.message).toBe('limit param must be positive<br /><br />\n\n\n');
    const nan = await http(tc, 'GET', '/image/v2/images?limit=x', { token: demo.token });
    expect(nan.body.message).toBe('limit param must be an integer<br /><br />\n\n\n');
    const badMarker = await http(tc, 'GET', `/image/v2/images?marker=${PRIVATE_ADMIN}`, {
      token: demo.token,
    });
    expect(badMarker.status).toBe(400);
    expect(badMarker.body.message).toBe(`No image found with ID ${PRIVATE_ADMIN}<br /><br />\n\n\n`);
    const badSort = await http(tc, 'GET', '/image/v2/images?sort_key=colour', { token: demo.token });
    expect(badSort.body.message).toBe(
      'Invalid sort key: colour. It must be one of the following: name, status, container_format, disk_format, size, id, created_at, updated_at.<br /><br />\n\n\n',
    );
  });
});

describe('GET /image/v2/images/{id}', () => {
  it('shows a visible image', async () => {
    const r = await http(tc, 'GET', `/image/v2/images/${SEED_IMAGE_ID}`, { token: demo.token });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(SEED_IMAGE_ID);
    expect(r.body.hw_rng_model).toBe('virtio');
    const own = await http(tc, 'GET', `/image/v2/images/${PRIVATE_DEMO}`, { token: demo.token });
    expect(own.body).toMatchObject({ owner: demo.projectId, visibility: 'private', os_hash_value: null });
  });

  it("answers Glance's 404 for unknown images and images of other projects", async () => {
    for (const id of ['00000000-0000-4000-8000-00000000ffff', PRIVATE_ADMIN]) {
      const r = await http(tc, 'GET', `/image/v2/images/${id}`, { token: demo.token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        message: `No image found with ID ${id}<br /><br />\n\n\n`,
        code: '404 Not Found',
        title: 'Not Found',
      });
    }
    const plain = await http(tc, 'GET', `/image/v2/images/${PRIVATE_ADMIN}`, {
      token: demo.token,
      headers: { Accept: 'text/plain' },
    });
    expect(plain.status).toBe(404);
    expect(plain.text).toContain(`404 Not Found\n\nNo image found with ID ${PRIVATE_ADMIN}`);
    expect((await http(tc, 'GET', `/image/v2/images/${PRIVATE_ADMIN}`, { token: admin.token })).status).toBe(
      200,
    );
  });

  it("answers webob's 404 for unknown paths under /v2", async () => {
    const r = await http(tc, 'GET', '/image/v2/nothing', { token: demo.token });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('404 Not Found');
  });
});
