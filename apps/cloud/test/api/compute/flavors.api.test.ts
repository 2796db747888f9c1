import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const F = '/compute/v2.1/flavors';
const get = (path: string, s: Session, v = '2.1') =>
  http(tc, 'GET', path, { token: s.token, version: `compute ${v}` });

const DETAIL_21_KEYS = [
  'id',
  'name',
  'ram',
  'disk',
  'swap',
  'OS-FLV-EXT-DATA:ephemeral',
  'OS-FLV-DISABLED:disabled',
  'vcpus',
  'os-flavor-access:is_public',
  'rxtx_factor',
  'links',
];

describe('flavor list and show per microversion', () => {
  it('lists id, name, links at 2.1 and adds description from 2.55', async () => {
    const r21 = await get(F, demo, '2.1');
    expect(r21.status).toBe(200);
    expect(r21.body.flavors.map((f: { id: string }) => f.id)).toEqual(['1', '2', '3', '4', '42', '5', '84']);
    expect(r21.body.flavors[0]).toEqual({
      id: '1',
      name: 'm1.tiny',
      links: [
        { rel: 'self', href: `${tc.url}/compute/v2.1/flavors/1` },
        { rel: 'bookmark', href: `${tc.url}/compute/flavors/1` },
      ],
    });
    const r254 = await get(F, demo, '2.54');
    expect(Object.keys(r254.body.flavors[0])).toEqual(['id', 'name', 'links']);
    const r255 = await get(F, demo, '2.55');
    expect(Object.keys(r255.body.flavors[0])).toEqual(['id', 'name', 'links', 'description']);
    expect(r255.body.flavors[0].description).toBeNull();
  });

  it('shows swap "" and a Python float rxtx_factor at 2.1, no description or extra_specs', async () => {
    const r = await get(`${F}/1`, demo, '2.1');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.flavor)).toEqual(DETAIL_21_KEYS);
    expect(r.body.flavor).toMatchObject({
      ram: 512,
      disk: 1,
      swap: '',
      'OS-FLV-EXT-DATA:ephemeral': 0,
      'OS-FLV-DISABLED:disabled': false,
      vcpus: 1,
      'os-flavor-access:is_public': true,
    });
    expect(r.text).toContain('"rxtx_factor":1.0');
    expect(r.headers.get('openstack-api-version')).toBe('compute 2.1');
  });

  it('gates description (2.55), extra_specs (2.61) and swap 0 (2.75)', async () => {
    const r260 = await get(`${F}/1`, demo, '2.60');
    expect(Object.keys(r260.body.flavor)).toEqual([...DETAIL_21_KEYS, 'description']);
    expect(r260.body.flavor.swap).toBe('');
    const r261 = await get(`${F}/1`, demo, '2.61');
    expect(Object.keys(r261.body.flavor)).toEqual([...DETAIL_21_KEYS, 'description', 'extra_specs']);
    expect(r261.body.flavor.extra_specs).toEqual({});
    expect(r261.body.flavor.swap).toBe('');
    const r275 = await get(`${F}/1`, demo, '2.75');
    expect(r275.body.flavor.swap).toBe(0);
    const detail = await get(`${F}/detail`, demo, '2.75');
    expect(detail.body.flavors).toHaveLength(7);
    for (const f of detail.body.flavors) expect(f.swap).toBe(0);
    const detail21 = await get(`${F}/detail`, demo, '2.1');
    expect(Object.keys(detail21.body.flavors[0])).toEqual(DETAIL_21_KEYS);
  });

  it("answers an unknown flavor with Nova's 404", async () => {
    const r = await get(`${F}/cap2-nosuchflavor`, demo, '2.60');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      itemNotFound: { code: 404, message: 'Flavor cap2-nosuchflavor could not be found.' },
    });
    expect(r.headers.get('openstack-api-version')).toBe('compute 2.60');
  });
});

describe('flavor query filters', () => {
  it('filters by minDisk and minRam, sorts, and pages with limit/marker and a next link', async () => {
    const big = await get(`${F}?minDisk=40&minRam=4096`, demo);
    expect(big.body.flavors.map((f: { id: string }) => f.id)).toEqual(['3', '4', '5']);
    const byRam = await get(`${F}/detail?sort_key=memory_mb&sort_dir=desc`, demo);
    expect(byRam.body.flavors.map((f: { ram: number }) => f.ram)).toEqual([
      16384, 8192, 4096, 2048, 512, 192, 128,
    ]);
    const page1 = await get(`${F}?limit=2`, demo);
    expect(page1.body.flavors.map((f: { id: string }) => f.id)).toEqual(['1', '2']);
    expect(page1.body.flavors_links).toEqual([
      { rel: 'next', href: `${tc.url}/compute/v2.1/flavors?limit=2&marker=2` },
    ]);
    const page2 = await get(`${F}?limit=2&marker=2`, demo);
    expect(page2.body.flavors.map((f: { id: string }) => f.id)).toEqual(['3', '4']);
    const last = await get(`${F}/detail?limit=5&marker=4`, demo);
    expect(last.body.flavors.map((f: { id: string }) => f.id)).toEqual(['42', '5', '84']);
    expect(last.body.flavors_links).toBeUndefined();
    const sortedPage = await get(`${F}?sort_key=name&limit=1&marker=3`, demo);
    expect(sortedPage.body.flavors.map((f: { name: string }) => f.name)).toEqual(['m1.micro']);
  });

  it("rejects bad filters with Nova's messages", async () => {
    const badMarker = await get(`${F}?marker=nope`, demo);
    expect(badMarker.status).toBe(400);
    expect(badMarker.body.badRequest.message).toBe('marker [nope] not found');
    const badLimit = await get(`${F}?limit=abc`, demo);
    expect(badLimit.body.badRequest.message).toBe(
      "Invalid input for query parameters limit. Value: abc. 'abc' does not match '^[0-9]*$'",
    );
    const badRam = await get(`${F}?minRam=big`, demo);
    expect(badRam.body.badRequest.message).toBe('Invalid minRam filter [big]');
    const badKey = await get(`${F}?sort_key=colour`, demo);
    expect(badKey.status).toBe(400);
    expect(badKey.body.badRequest.message).toMatch(
      /^Invalid input for query parameters sort_key\. Value: colour\. 'colour' is not one of \['created_at', /,
    );
    // Unknown parameters are ignored until 2.74 and refused from 2.75.
    expect((await get(`${F}?colour=red`, demo, '2.74')).status).toBe(200);
    const strict = await get(`${F}?colour=red`, demo, '2.75');
    expect(strict.status).toBe(400);
    expect(strict.body.badRequest.message).toBe(
      "Additional properties are not allowed ('colour' was unexpected)",
    );
  });
});

describe('flavor manage', () => {
  it('lets an admin create a flavor (200, capture 179 shape) and a member gets 403 (capture 180)', async () => {
    const created = await http(tc, 'POST', F, {
      token: admin.token,
      version: 'compute 2.60',
      body: { flavor: { name: 'small-x', ram: 1024, vcpus: 2, disk: 1 } },
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body.flavor)).toEqual([...DETAIL_21_KEYS, 'description']);
    expect(created.body.flavor.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.flavor).toMatchObject({ name: 'small-x', ram: 1024, vcpus: 2, disk: 1, swap: '' });
    expect(created.text).toContain('"rxtx_factor":1.0');

    const denied = await http(tc, 'POST', F, {
      token: demo.token,
      version: 'compute 2.60',
      body: { flavor: { name: 'denied', ram: 1, vcpus: 1, disk: 1 } },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      forbidden: {
        code: 403,
        message: "Policy doesn't allow os_compute_api:os-flavor-manage:create to be performed.",
      },
    });
  });

  it('validates the body before policy, and refuses taken ids and names', async () => {
    const bad = await http(tc, 'POST', F, {
      token: demo.token,
      body: { flavor: { name: 'x', ram: 0, vcpus: 1, disk: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toBe(
      'Invalid input for field/attribute ram. Value: 0. 0 is less than the minimum of 1',
    );
    const missing = await http(tc, 'POST', F, {
      token: admin.token,
      body: { flavor: { name: 'x', ram: 1, vcpus: 1 } },
    });
    expect(missing.body.badRequest.message).toBe(
      "Invalid input for field/attribute flavor. Value: {'name': 'x', 'ram': 1, 'vcpus': 1}. 'disk' is a required property",
    );
    const descTooEarly = await http(tc, 'POST', F, {
      token: admin.token,
      version: 'compute 2.54',
      body: { flavor: { name: 'x', ram: 1, vcpus: 1, disk: 0, description: 'd' } },
    });
    expect(descTooEarly.status).toBe(400);
    expect(descTooEarly.body.badRequest.message).toMatch(
      /Additional properties are not allowed \('description' was unexpected\)$/,
    );
    const dupId = await http(tc, 'POST', F, {
      token: admin.token,
      body: { flavor: { name: 'another', id: 1, ram: 1, vcpus: 1, disk: 0 } },
    });
    expect(dupId.status).toBe(409);
    expect(dupId.body).toEqual({
      conflictingRequest: { code: 409, message: 'Flavor with ID 1 already exists.' },
    });
    const dupName = await http(tc, 'POST', F, {
      token: admin.token,
      body: { flavor: { name: 'm1.tiny', ram: 1, vcpus: 1, disk: 0 } },
    });
    expect(dupName.body.conflictingRequest.message).toBe('Flavor with name m1.tiny already exists.');
  });

  it('creates private flavors with description and extra specs (2.61+), hidden from members', async () => {
    const created = await http(tc, 'POST', F, {
      token: admin.token,
      version: 'compute 2.75',
      body: {
        flavor: {
          name: 'private-1',
          id: 'priv-1',
          ram: 256,
          vcpus: 1,
          disk: 0,
          swap: 512,
          rxtx_factor: 2.5,
          'os-flavor-access:is_public': false,
          description: 'for admins',
        },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.flavor).toMatchObject({
      id: 'priv-1',
      swap: 512,
      rxtx_factor: 2.5,
      description: 'for admins',
      extra_specs: {},
      'os-flavor-access:is_public': false,
    });
    expect((await get(`${F}/priv-1`, demo)).status).toBe(404);
    expect((await get(`${F}/priv-1`, admin)).status).toBe(200);
    const adminDefault = await get(F, admin);
    expect(adminDefault.body.flavors.some((f: { id: string }) => f.id === 'priv-1')).toBe(false);
    const adminPrivate = await get(`${F}?is_public=false`, admin);
    expect(adminPrivate.body.flavors.map((f: { id: string }) => f.id)).toEqual(['priv-1']);
    const adminAll = await get(`${F}?is_public=none`, admin);
    expect(adminAll.body.flavors.some((f: { id: string }) => f.id === 'priv-1')).toBe(true);
    // A member's is_public is ignored: public flavors only.
    const memberTry = await get(`${F}?is_public=false`, demo);
    expect(memberTry.body.flavors.some((f: { id: string }) => f.id === 'priv-1')).toBe(false);
    const badPublic = await get(`${F}?is_public=maybe`, admin);
    expect(badPublic.body.badRequest.message).toBe('Invalid is_public filter [maybe]');
  });

  it('updates the description from 2.55 only', async () => {
    const early = await http(tc, 'PUT', `${F}/2`, {
      token: admin.token,
      version: 'compute 2.54',
      body: { flavor: { description: 'x' } },
    });
    expect(early.status).toBe(404);
    const member = await http(tc, 'PUT', `${F}/2`, {
      token: demo.token,
      version: 'compute 2.55',
      body: { flavor: { description: 'x' } },
    });
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-flavor-manage:update to be performed.",
    );
    const ok = await http(tc, 'PUT', `${F}/2`, {
      token: admin.token,
      version: 'compute 2.55',
      body: { flavor: { description: 'small one' } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.flavor.description).toBe('small one');
    expect((await get(`${F}/2`, demo, '2.55')).body.flavor.description).toBe('small one');
  });

  it('deletes with 202 for admins only; then the flavor is gone', async () => {
    await http(tc, 'POST', F, {
      token: admin.token,
      body: { flavor: { name: 'doomed', id: 'doomed', ram: 1, vcpus: 1, disk: 0 } },
    });
    const member = await http(tc, 'DELETE', `${F}/doomed`, { token: demo.token });
    expect(member.status).toBe(403);
    expect(member.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-flavor-manage:delete to be performed.",
    );
    const del = await http(tc, 'DELETE', `${F}/doomed`, { token: admin.token });
    expect(del.status).toBe(202);
    expect(del.text).toBe('');
    expect((await get(`${F}/doomed`, admin)).status).toBe(404);
    const again = await http(tc, 'DELETE', `${F}/doomed`, { token: admin.token });
    expect(again.status).toBe(404);
    expect(again.body.itemNotFound.message).toBe('Flavor doomed could not be found.');
  });
});

describe('flavor extra specs (read-only)', () => {
  it('lists the extra specs and shows one key, 404 for a missing key', async () => {
    const demo = await login(tc, 'demo');
    const list = await http(tc, 'GET', '/compute/v2.1/flavors/1/os-extra_specs', { token: demo.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ extra_specs: {} });
    const missing = await http(tc, 'GET', '/compute/v2.1/flavors/1/os-extra_specs/hw:cpu_policy', {
      token: demo.token,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.itemNotFound.message).toBe('Flavor 1 has no extra specs with key hw:cpu_policy.');
  });
});

// --- cloud14v: flavor extra specs (write) ---
describe('flavor extra specs (write, admins)', () => {
  const specs = (id: string) => `/compute/v2.1/flavors/${id}/os-extra_specs`;
  const send = (method: string, path: string, s: Session, body?: unknown) =>
    http(tc, method, path, {
      token: s.token,
      version: 'compute 2.1',
      ...(body !== undefined ? { body } : {}),
    });

  it('sets (numbers kept in the answer, stored as strings), updates one key, and unsets it', async () => {
    const made = await send('POST', '/compute/v2.1/flavors', admin, {
      flavor: { name: 'specs-flavor', ram: 64, vcpus: 1, disk: 1, id: 'specs-flavor' },
    });
    expect(made.status).toBe(200);
    const set = await send('POST', specs('specs-flavor'), admin, {
      extra_specs: { 'hw:numa_nodes': 1, key2: 'v2' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ extra_specs: { 'hw:numa_nodes': 1, key2: 'v2' } });
    const listed = await get(specs('specs-flavor'), demo);
    expect(listed.body).toEqual({ extra_specs: { 'hw:numa_nodes': '1', key2: 'v2' } });
    const put = await send('PUT', `${specs('specs-flavor')}/key2`, admin, { key2: 'v3' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key2: 'v3' });
    expect((await get(`${specs('specs-flavor')}/key2`, demo)).body).toEqual({ key2: 'v3' });
    const mismatch = await send('PUT', `${specs('specs-flavor')}/key2`, admin, { other: 'v' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.badRequest.message).toBe('Request body and URI mismatch');
    const more = await send('PUT', `${specs('specs-flavor')}/key2`, admin, { key2: 'a', key3: 'b' });
    expect(more.status).toBe(400);
    const del = await send('DELETE', `${specs('specs-flavor')}/key2`, admin);
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    const gone = await send('DELETE', `${specs('specs-flavor')}/key2`, admin);
    expect(gone.status).toBe(404);
    expect(gone.body.itemNotFound.message).toBe('Flavor specs-flavor has no extra specs with key key2.');
    expect((await get(specs('specs-flavor'), demo)).body).toEqual({ extra_specs: { 'hw:numa_nodes': '1' } });
    const missing = await send('POST', specs('nosuch'), admin, { extra_specs: { a: 'b' } });
    expect(missing.status).toBe(404);
    expect(missing.body.itemNotFound.message).toBe('Flavor nosuch could not be found.');
    await send('DELETE', '/compute/v2.1/flavors/specs-flavor', admin);
  });

  it('refuses members after checking the body, with Nova’s policy messages', async () => {
    const bad = await send('POST', specs('1'), demo, { extra_specs: { 'bad/key': 'v' } });
    expect(bad.status).toBe(400);
    for (const [method, path, body, rule] of [
      ['POST', specs('1'), { extra_specs: { a: 'b' } }, 'create'],
      ['PUT', `${specs('1')}/a`, { a: 'b' }, 'update'],
      ['DELETE', `${specs('1')}/a`, undefined, 'delete'],
    ] as const) {
      const res = await send(method, path, demo, body);
      expect(res.status).toBe(403);
      expect(res.body.forbidden.message).toBe(
        `Policy doesn't allow os_compute_api:os-flavor-extra-specs:${rule} to be performed.`,
      );
    }
  });
});
