import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

/**
 * V1: volume metadata, image metadata, snapshots (status machine, metadata, volumes from
 * snapshots, the rules tying them to volumes), strict routing and the admins' force actions.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

const call = (
  method: string,
  path: string,
  body?: unknown,
  opts: { session?: Session; version?: string } = {},
) => {
  const s = opts.session ?? demo;
  return http(tc, method, `${s.volumeBase}${path}`, {
    token: s.token,
    version: `volume ${opts.version ?? '3.60'}`,
    ...(body !== undefined ? { body } : {}),
  });
};

async function newVolume(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/volumes', { volume: { size: 1, ...extra } });
  expect(res.status, res.text).toBe(202);
  await tc.settle();
  return res.body.volume.id;
}

async function newSnapshot(volumeId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/snapshots', { snapshot: { volume_id: volumeId, ...extra } });
  expect(res.status, res.text).toBe(202);
  await tc.settle();
  return res.body.snapshot.id;
}

describe('strict routing', () => {
  it('answers 404 for a trailing slash, as Cinder', async () => {
    const res = await call('GET', '/volumes/');
    expect(res.status).toBe(404);
    expect((await call('GET', '/volumes')).status).toBe(200);
    expect((await call('GET', '/snapshots/')).status).toBe(404);
  });
});

describe('volume metadata', () => {
  it('creates, lists, updates, shows and deletes items', async () => {
    const vol = await newVolume();
    const created = await call('POST', `/volumes/${vol}/metadata`, { metadata: { a: '1', b: '<x&y>' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ metadata: { a: '1', b: '<x&y>' } });
    const merged = await call('POST', `/volumes/${vol}/metadata`, { metadata: { c: '3' } });
    expect(merged.body.metadata).toEqual({ a: '1', b: '<x&y>', c: '3' });
    const replaced = await call('PUT', `/volumes/${vol}/metadata`, { metadata: { a: '2', d: '4' } });
    expect(replaced.body).toEqual({ metadata: { a: '2', d: '4' } });
    expect((await call('GET', `/volumes/${vol}/metadata`, undefined, { version: '3.0' })).body).toEqual({
      metadata: { a: '2', d: '4' },
    });
    const item = await call('PUT', `/volumes/${vol}/metadata/a`, { meta: { a: '9' } });
    expect(item.body).toEqual({ meta: { a: '9' } });
    expect((await call('GET', `/volumes/${vol}/metadata/a`)).body).toEqual({ meta: { a: '9' } });
    const del = await call('DELETE', `/volumes/${vol}/metadata/a`);
    expect(del.status).toBe(200);
    const missing = await call('GET', `/volumes/${vol}/metadata/a`);
    expect(missing.status).toBe(404);
    expect(missing.body.itemNotFound.message).toBe(`Volume ${vol} has no metadata with key a.`);
    expect((await call('GET', `/volumes/${vol}`)).body.volume.metadata).toEqual({ d: '4' });
  });

  it('refuses a mismatched or oversized item body, and a bad key', async () => {
    const vol = await newVolume();
    const mismatch = await call('PUT', `/volumes/${vol}/metadata/a`, { meta: { b: '1' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.badRequest.message).toBe('Request body and URI mismatch');
    const many = await call('PUT', `/volumes/${vol}/metadata/a`, { meta: { a: '1', b: '2' } });
    expect(many.body.badRequest.message).toBe('Request body contains too many items');
    const missing = await call('POST', `/volumes/${vol}/metadata`, { meta: { a: '1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.badRequest.message).toBe("'metadata' is a required property");
  });

  it('gives an ETag from 3.15 and honours If-Match', async () => {
    const vol = await newVolume();
    await call('POST', `/volumes/${vol}/metadata`, { metadata: { k: 'v' } });
    const res = await call('GET', `/volumes/${vol}/metadata`, undefined, { version: '3.15' });
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^[0-9a-f]{32}$/);
    const stale = await http(tc, 'PUT', `${demo.volumeBase}/volumes/${vol}/metadata`, {
      token: demo.token,
      version: 'volume 3.15',
      headers: { 'If-Match': '"0123"' },
      body: { metadata: { k: 'w' } },
    });
    expect(stale.status).toBe(412);
    const fresh = await http(tc, 'PUT', `${demo.volumeBase}/volumes/${vol}/metadata`, {
      token: demo.token,
      version: 'volume 3.15',
      headers: { 'If-Match': `"${etag}"` },
      body: { metadata: { k: 'w' } },
    });
    expect(fresh.status).toBe(200);
  });
});

describe('image metadata', () => {
  it('a volume from an image carries volume_image_metadata; set, show and unset work', async () => {
    const images = await http(tc, 'GET', '/image/v2/images', { token: demo.token });
    const image = images.body.images[0];
    const vol = await newVolume({ imageRef: image.id });
    const shown = await call('GET', `/volumes/${vol}`);
    expect(shown.body.volume.volume_image_metadata).toMatchObject({
      image_id: image.id,
      image_name: image.name,
    });
    const set = await call('POST', `/volumes/${vol}/action`, {
      'os-set_image_metadata': { metadata: { k: 'v' } },
    });
    expect(set.status).toBe(200);
    expect(set.body.metadata).toMatchObject({ k: 'v', image_id: image.id });
    const show = await call('POST', `/volumes/${vol}/action`, { 'os-show_image_metadata': null });
    expect(show.body.metadata.k).toBe('v');
    const unset = await call('POST', `/volumes/${vol}/action`, { 'os-unset_image_metadata': { key: 'k' } });
    expect(unset.status).toBe(200);
    const again = await call('POST', `/volumes/${vol}/action`, { 'os-unset_image_metadata': { key: 'k' } });
    expect(again.status).toBe(404);
    expect(again.body.itemNotFound.message).toBe(
      `Glance metadata for volume/snapshot ${vol} cannot be found.`,
    );
  });

  it('a plain volume has none', async () => {
    const vol = await newVolume();
    expect((await call('GET', `/volumes/${vol}`)).body.volume).not.toHaveProperty('volume_image_metadata');
    const show = await call('POST', `/volumes/${vol}/action`, { 'os-show_image_metadata': null });
    expect(show.status).toBe(404);
  });
});

describe('snapshots', () => {
  it('creates one (creating, then available), lists, shows, updates and deletes it', async () => {
    const vol = await newVolume();
    const res = await call('POST', '/snapshots', {
      snapshot: { volume_id: vol, name: ' snap-1 ', metadata: { a: 'b' } },
    });
    expect(res.status).toBe(202);
    expect(res.body.snapshot).toMatchObject({ status: 'creating', name: 'snap-1', size: 1, volume_id: vol });
    expect(res.body.snapshot).toHaveProperty('group_snapshot_id', null);
    expect(res.body.snapshot).toHaveProperty('user_id', demo.userId);
    expect(res.body.snapshot).not.toHaveProperty('os-extended-snapshot-attributes:progress');
    const id = res.body.snapshot.id;
    await tc.settle();
    const show = await call('GET', `/snapshots/${id}`, undefined, { version: '3.65' });
    expect(show.body.snapshot).toMatchObject({
      status: 'available',
      'os-extended-snapshot-attributes:progress': '100%',
      'os-extended-snapshot-attributes:project_id': demo.projectId,
      user_id: demo.userId,
      consumes_quota: true,
      metadata: { a: 'b' },
    });
    const list = await call('GET', '/snapshots');
    expect(list.body.snapshots.map((s: { id: string }) => s.id)).toContain(id);
    expect(Object.keys(list.body.snapshots[0]).sort()).toEqual([
      'created_at',
      'description',
      'id',
      'metadata',
      'name',
      'size',
      'status',
      'updated_at',
      'volume_id',
    ]);
    const upd = await call('PUT', `/snapshots/${id}`, { snapshot: { name: 'renamed', description: 'd' } });
    expect(upd.body.snapshot).toMatchObject({ name: 'renamed', description: 'd' });
    expect((await call('DELETE', `/snapshots/${id}`)).status).toBe(202);
    await tc.settle();
    expect((await call('GET', `/snapshots/${id}`)).status).toBe(404);
  });

  it('needs force for an in-use volume below 3.66 and refuses force=false from 3.66', async () => {
    const vol = await newVolume();
    await call(
      'POST',
      `/volumes/${vol}/action`,
      { 'os-reset_status': { status: 'in-use' } },
      { session: admin },
    );
    const refused = await call('POST', '/snapshots', { snapshot: { volume_id: vol } });
    expect(refused.status).toBe(400);
    expect(refused.body.badRequest.message).toBe(
      `Invalid volume: Volume ${vol} status must be available, but current status is: in-use.`,
    );
    const forced = await call('POST', '/snapshots', { snapshot: { volume_id: vol, force: true } });
    expect(forced.status).toBe(202);
    const noForce = await call(
      'POST',
      '/snapshots',
      { snapshot: { volume_id: vol, force: false } },
      { version: '3.66' },
    );
    expect(noForce.status).toBe(400);
    const inUse = await call('POST', '/snapshots', { snapshot: { volume_id: vol } }, { version: '3.66' });
    expect(inUse.status).toBe(202);
  });

  it('lists with limit, marker, sort and filters; refuses bad ones', async () => {
    const vol = await newVolume();
    const a = await newSnapshot(vol, { name: 'list-a' });
    const b = await newSnapshot(vol, { name: 'list-b' });
    const page = await call('GET', `/snapshots?volume_id=${vol}&sort=name:asc&limit=1`);
    expect(page.body.snapshots.map((s: { id: string }) => s.id)).toEqual([a]);
    expect(page.body.snapshots_links[0].href).toContain(`marker=${a}`);
    const next = await call('GET', `/snapshots?volume_id=${vol}&sort=name:asc&limit=1&marker=${a}`);
    expect(next.body.snapshots.map((s: { id: string }) => s.id)).toEqual([b]);
    const byName = await call('GET', '/snapshots/detail?name=list-b');
    expect(byName.body.snapshots.map((s: { id: string }) => s.id)).toEqual([b]);
    expect((await call('GET', '/snapshots?limit=invalid')).body.badRequest.message).toBe(
      'limit param must be an integer',
    );
    expect((await call('GET', '/snapshots?sort_key=invalid')).body.badRequest.message).toBe(
      'Invalid input received: Invalid sort key',
    );
  });

  it('keeps a volume with snapshots unless cascade; cascade takes them along', async () => {
    const vol = await newVolume();
    const snap = await newSnapshot(vol);
    const refused = await call('DELETE', `/volumes/${vol}`);
    expect(refused.status).toBe(400);
    expect((await call('DELETE', `/volumes/${vol}?cascade=true`)).status).toBe(202);
    await tc.settle();
    expect((await call('GET', `/snapshots/${snap}`)).status).toBe(404);
    expect((await call('GET', `/volumes/${vol}`)).status).toBe(404);
  });

  it('makes a volume from a snapshot, never smaller than it', async () => {
    const vol = await newVolume({ size: 2 });
    const snap = await newSnapshot(vol);
    const small = await call('POST', '/volumes', { volume: { size: 1, snapshot_id: snap } });
    expect(small.status).toBe(400);
    expect(small.body.badRequest.message).toBe(
      "Invalid input received: Volume size '1'GB cannot be smaller than the snapshot size 2GB. They must be >= original snapshot size.",
    );
    const res = await call('POST', '/volumes', { volume: { snapshot_id: snap } });
    expect(res.status).toBe(202);
    expect(res.body.volume).toMatchObject({ size: 2, snapshot_id: snap });
    await tc.settle();
    expect((await call('GET', `/volumes/${res.body.volume.id}`)).body.volume.status).toBe('available');
  });

  it('admin actions: reset status, force delete, update snapshot status', async () => {
    const vol = await newVolume();
    const snap = await newSnapshot(vol);
    const byMember = await call('POST', `/snapshots/${snap}/action`, {
      'os-reset_status': { status: 'error' },
    });
    expect(byMember.status).toBe(403);
    const bad = await call(
      'POST',
      `/snapshots/${snap}/action`,
      { 'os-reset_status': { status: 'nope' } },
      { session: admin },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toMatch(
      /^Snapshot status: nope is invalid, valid statuses are: \('error', /,
    );
    const reset = await call(
      'POST',
      `/snapshots/${snap}/action`,
      { 'os-reset_status': { status: 'creating' } },
      { session: admin },
    );
    expect(reset.status).toBe(202);
    const upd = await call('POST', `/snapshots/${snap}/action`, {
      'os-update_snapshot_status': { status: 'error', progress: '80%' },
    });
    expect(upd.status).toBe(202);
    const shown = await call('GET', `/snapshots/${snap}`);
    expect(shown.body.snapshot).toMatchObject({
      status: 'error',
      'os-extended-snapshot-attributes:progress': '80%',
    });
    const notAllowed = await call('POST', `/snapshots/${snap}/action`, {
      'os-update_snapshot_status': { status: 'available' },
    });
    expect(notAllowed.body.badRequest.message).toBe(
      'Snapshot status error not allowed for update_snapshot_status',
    );
    await call(
      'POST',
      `/snapshots/${snap}/action`,
      { 'os-reset_status': { status: 'creating' } },
      { session: admin },
    );
    expect((await call('DELETE', `/snapshots/${snap}`)).body.badRequest.message).toBe(
      'Invalid snapshot: Snapshot status must be available or error and must not be part of a group.',
    );
    const forced = await call(
      'POST',
      `/snapshots/${snap}/action`,
      { 'os-force_delete': {} },
      { session: admin },
    );
    expect(forced.status).toBe(202);
    await tc.settle();
    expect((await call('GET', `/snapshots/${snap}`)).status).toBe(404);
  });

  it('snapshot metadata', async () => {
    const vol = await newVolume();
    const snap = await newSnapshot(vol);
    expect(
      (await call('POST', `/snapshots/${snap}/metadata`, { metadata: { a: '1', b: '2' } })).body,
    ).toEqual({
      metadata: { a: '1', b: '2' },
    });
    expect((await call('PUT', `/snapshots/${snap}/metadata`, { metadata: { c: '3' } })).body).toEqual({
      metadata: { c: '3' },
    });
    expect((await call('PUT', `/snapshots/${snap}/metadata/c`, { meta: { c: '4' } })).body).toEqual({
      meta: { c: '4' },
    });
    expect((await call('GET', `/snapshots/${snap}/metadata/c`)).body).toEqual({ meta: { c: '4' } });
    expect((await call('DELETE', `/snapshots/${snap}/metadata/c`)).status).toBe(200);
    const gone = await call('GET', `/snapshots/${snap}/metadata/c`);
    expect(gone.body.itemNotFound.message).toBe(`Snapshot ${snap} has no metadata with key c.`);
    const noBody = await call('POST', `/snapshots/${snap}/metadata`, { meta: {} });
    expect(noBody.body.badRequest.message).toBe("Missing required element 'metadata' in request body.");
  });
});

describe('volume force actions', () => {
  it('os-force_delete deletes a volume in any status, admins only', async () => {
    const vol = await newVolume();
    await call(
      'POST',
      `/volumes/${vol}/action`,
      { 'os-reset_status': { status: 'maintenance' } },
      { session: admin },
    );
    expect((await call('POST', `/volumes/${vol}/action`, { 'os-force_delete': {} })).status).toBe(403);
    expect(
      (await call('POST', `/volumes/${vol}/action`, { 'os-force_delete': {} }, { session: admin })).status,
    ).toBe(202);
    await tc.settle();
    expect((await call('GET', `/volumes/${vol}`)).status).toBe(404);
  });
});
