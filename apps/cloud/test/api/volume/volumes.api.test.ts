import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { BACKEND } from '../../../src/volume/service/backend.js';
import { DELETE_REFUSED } from '../../../src/volume/service/volumes.service.js';
import { http, login, type Session, startCloud, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

let tc: TestCloud;
let demo: Session;
let admin: Session;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, admin);
});

/** Keys of a 3.0 detail view as a member sees it on show (capture 32). */
const BASE_KEYS = [
  'id',
  'status',
  'size',
  'availability_zone',
  'created_at',
  'updated_at',
  'name',
  'description',
  'volume_type',
  'snapshot_id',
  'source_volid',
  'metadata',
  'links',
  'user_id',
  'bootable',
  'encrypted',
  'replication_status',
  'consistencygroup_id',
  'multiattach',
  'attachments',
];
const CINDER_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;

describe('POST /volumes', () => {
  it('answers 202 with the volume creating, then the backend makes it available (captures 04, 05, 10)', async () => {
    const res = await d.call('POST', '/volumes', {
      version: '3.50',
      body: { volume: { size: 1, name: 'ma-root', volume_type: 'multiattach' } },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('openstack-api-version')).toBe('volume 3.50');
    const v = res.body.volume;
    expect(Object.keys(v)).toEqual([...BASE_KEYS, 'group_id', 'shared_targets', 'service_uuid']);
    expect(v).toMatchObject({
      status: 'creating',
      size: 1,
      availability_zone: 'nova',
      updated_at: null,
      name: 'ma-root',
      description: null,
      volume_type: 'multiattach',
      metadata: {},
      user_id: demo.userId,
      bootable: 'false',
      encrypted: false,
      multiattach: true,
      attachments: [],
      group_id: null,
      shared_targets: true,
      service_uuid: null,
    });
    expect(v.created_at).toMatch(CINDER_TIME);
    expect(v.links).toEqual([
      { rel: 'self', href: `${tc.url}/volume/v3/${demo.projectId}/volumes/${v.id}` },
      { rel: 'bookmark', href: `${tc.url}/volume/${demo.projectId}/volumes/${v.id}` },
    ]);
    await tc.settle();
    const shown = await d.show(v.id, '3.50');
    expect(shown).toMatchObject({
      status: 'available',
      shared_targets: false,
      service_uuid: BACKEND.serviceUuid,
      'os-vol-tenant-attr:tenant_id': demo.projectId,
    });
    expect(shown.updated_at).toMatch(CINDER_TIME);
  });

  it('uses __DEFAULT__ without a type, and finds a type by id', async () => {
    const plain = await d.createVolume();
    expect(await d.show(plain)).toMatchObject({ volume_type: '__DEFAULT__', multiattach: false });
    const types = (await d.call('GET', '/types')).body.volume_types as { id: string; name: string }[];
    const ma = types.find((t) => t.name === 'multiattach');
    const byId = await d.createVolume({ volume_type: ma?.id });
    expect(await d.show(byId)).toMatchObject({ volume_type: 'multiattach', multiattach: true });
  });

  it('accepts a size given as a string and strips the name', async () => {
    const id = await d.createVolume({ size: '3', name: '  spaced  ', description: ' d ' });
    expect(await d.show(id)).toMatchObject({ size: 3, name: 'spaced', description: 'd' });
  });

  it('keeps user metadata', async () => {
    const id = await d.createVolume({ metadata: { purpose: 'db', tier: 'gold' } });
    expect((await d.show(id)).metadata).toEqual({ purpose: 'db', tier: 'gold' });
  });

  it.each([
    [{ size: 0 }, 'Invalid input for field/attribute size. Value: 0. 0 is less than the minimum of 1'],
    [{ size: -1 }, 'Invalid input for field/attribute size. Value: -1. -1 is less than the minimum of 1'],
    [{ size: 'abc' }, "Invalid input for field/attribute size. Value: abc. 'abc' does not match '^[0-9]+$'"],
    [{ size: '0' }, 'Invalid input for field/attribute size. Value: 0. 0 is less than the minimum of 1'],
    [
      { size: 1.5 },
      "Invalid input for field/attribute size. Value: 1.5. 1.5 is not of type 'integer', 'string'",
    ],
    [
      { size: true },
      "Invalid input for field/attribute size. Value: True. True is not of type 'integer', 'string'",
    ],
    [{}, "Invalid input received: Volume size 'None' must be an integer and greater than 0"],
    [
      { size: 1, metadata: { 'bad/key': 'x' } },
      "Invalid input for field/attribute metadata. Value: {'bad/key': 'x'}. 'bad/key' does not match any of the regexes: '^[a-zA-Z0-9-_:. ]{1,255}$'",
    ],
    [
      { size: 1, metadata: { k: 1 } },
      "Invalid input for field/attribute k. Value: 1. 1 is not of type 'string'",
    ],
    [{ size: 1, name: 'n'.repeat(256) }, 'Invalid input received: name has 256 characters, more than 255.'],
    [{ size: 1, availability_zone: '' }, "The 'availability_zone' can not be None."],
    [{ size: 1, availability_zone: 'az9' }, "Availability zone 'az9' is invalid."],
    [
      { size: 1, snapshot_id: 'not-a-uuid' },
      "Invalid input for field/attribute snapshot_id. Value: not-a-uuid. 'not-a-uuid' is not a 'uuid'",
    ],
    [
      { size: 1, multiattach: true },
      'multiattach parameter has been removed. The default behavior is to use multiattach enabled volume types. Contact your administrator to create a multiattach enabled volume type and use it to create multiattach volumes.',
    ],
    [
      { size: 1, multiattach: 'maybe' },
      "Invalid input for field/attribute multiattach. Value: maybe. 'maybe' is not one of [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes', 'yes', 'y', 't', False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off', 'NO', 'No', 'no', 'n', 'f', None]",
    ],
  ])('refuses %j with 400 (captures 228-230, 233)', async (volume, message) => {
    const res = await d.call('POST', '/volumes', { version: '3.50', body: { volume } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, message));
  });

  it('accepts multiattach: false', async () => {
    const res = await d.call('POST', '/volumes', { body: { volume: { size: 1, multiattach: false } } });
    expect(res.status).toBe(202);
    await tc.settle();
  });

  it('answers an unknown type with 404 (capture 231)', async () => {
    const res = await d.call('POST', '/volumes', {
      version: '3.50',
      body: { volume: { size: 1, volume_type: 'cap2-nosuchtype' } },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, 'Volume type with name cap2-nosuchtype could not be found.'));
    const byId = randomUUID();
    const res2 = await d.call('POST', '/volumes', { body: { volume: { size: 1, volume_type: byId } } });
    expect(res2.body).toEqual(fault(404, `Volume type ${byId} could not be found.`));
  });

  it('ignores unknown keys below 3.53 (capture 232) and refuses them from 3.53', async () => {
    const ok = await d.call('POST', '/volumes', {
      version: '3.50',
      body: { volume: { size: 1, cap2_unknown: 1 } },
    });
    expect(ok.status).toBe(202);
    const refused = await d.call('POST', '/volumes', {
      version: '3.53',
      body: { volume: { size: 1, cap2_unknown: 1 } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute volume. Value: {'size': 1, 'cap2_unknown': 1}. Additional properties are not allowed ('cap2_unknown' was unexpected)",
      ),
    );
    await tc.settle();
  });

  it('refuses a body without `volume` or with extra top-level keys', async () => {
    const missing = await d.call('POST', '/volumes', { body: { size: 1 } });
    expect(missing.body).toEqual(fault(400, "'volume' is a required property"));
    const extra = await d.call('POST', '/volumes', { body: { volume: { size: 1 }, x: 1 } });
    expect(extra.body).toEqual(fault(400, "Additional properties are not allowed ('x' was unexpected)"));
    const malformed = await d.call('POST', '/volumes', { rawBody: '{"volume": ' });
    expect(malformed.body).toEqual(fault(400, 'Malformed request body'));
  });

  it('answers unknown snapshot and source volume with 404', async () => {
    const sid = randomUUID();
    const snap = await d.call('POST', '/volumes', { body: { volume: { size: 1, snapshot_id: sid } } });
    expect(snap.body).toEqual(fault(404, `Snapshot ${sid} could not be found.`));
    const vid = randomUUID();
    const src = await d.call('POST', '/volumes', { body: { volume: { source_volid: vid } } });
    expect(src.body).toEqual(fault(404, `Volume ${vid} could not be found.`));
  });

  it('clones a volume: size and type from the source, never smaller', async () => {
    const source = await d.createVolume({ size: 2, volume_type: 'multiattach' });
    await d.action(source, { 'os-set_bootable': { bootable: true } });
    const clone = await d.createVolume({ source_volid: source, size: undefined });
    expect(await d.show(clone)).toMatchObject({
      size: 2,
      volume_type: 'multiattach',
      source_volid: source,
      bootable: 'true',
      status: 'available',
    });
    const small = await d.call('POST', '/volumes', { body: { volume: { source_volid: source, size: 1 } } });
    expect(small.body).toEqual(
      fault(
        400,
        "Invalid input received: Volume size '1'GB cannot be smaller than original volume size  2GB. They must be >= original volume size.",
      ),
    );
  });

  it('puts a volume whose type the pool cannot satisfy in error (CapabilitiesFilter)', async () => {
    const t = await a.call('POST', '/types', {
      body: {
        volume_type: {
          name: `far-${randomUUID().slice(0, 6)}`,
          extra_specs: { volume_backend_name: 'other' },
        },
      },
    });
    const id = await d.createVolume({ volume_type: t.body.volume_type.name });
    expect((await d.show(id)).status).toBe('error');
  });
});

describe('GET /volumes/{id}', () => {
  let vol: string;
  beforeAll(async () => {
    vol = await d.createVolume({ name: 'gated', volume_type: 'multiattach' });
  });

  it.each([
    ['3.0', []],
    ['3.12', []],
    ['3.13', ['group_id']],
    ['3.27', ['group_id']],
    ['3.47', ['group_id']],
    ['3.48', ['group_id', 'shared_targets', 'service_uuid']],
    ['3.62', ['group_id', 'shared_targets', 'service_uuid']],
    ['3.63', ['group_id', 'shared_targets', 'service_uuid', 'volume_type_id']],
    ['3.64', ['group_id', 'shared_targets', 'service_uuid', 'volume_type_id']],
    ['3.65', ['group_id', 'shared_targets', 'service_uuid', 'volume_type_id', 'consumes_quota']],
    ['3.70', ['group_id', 'shared_targets', 'service_uuid', 'volume_type_id', 'consumes_quota']],
  ])('shows a member the fields of %s (captures 32-36)', async (version, added) => {
    const v = await d.show(vol, version);
    expect(Object.keys(v)).toEqual([...BASE_KEYS, ...added, 'os-vol-tenant-attr:tenant_id']);
  });

  it.each([
    ['3.0', ['migration_status']],
    ['3.20', ['migration_status', 'group_id']],
    ['3.21', ['migration_status', 'group_id', 'provider_id']],
    ['3.60', ['migration_status', 'group_id', 'provider_id', 'shared_targets', 'service_uuid']],
    [
      '3.61',
      ['migration_status', 'group_id', 'provider_id', 'shared_targets', 'service_uuid', 'cluster_name'],
    ],
    [
      '3.70',
      [
        'migration_status',
        'group_id',
        'provider_id',
        'shared_targets',
        'service_uuid',
        'cluster_name',
        'volume_type_id',
        'consumes_quota',
      ],
    ],
  ])(
    'shows an admin the fields of %s and the host/migration attributes (capture 37)',
    async (version, added) => {
      const v = await a.show(vol, version);
      expect(Object.keys(v)).toEqual([
        ...BASE_KEYS,
        ...added,
        'os-vol-tenant-attr:tenant_id',
        'os-vol-mig-status-attr:migstat',
        'os-vol-mig-status-attr:name_id',
        'os-vol-host-attr:host',
      ]);
      expect(v['os-vol-host-attr:host']).toBe(BACKEND.host);
      expect(v['os-vol-tenant-attr:tenant_id']).toBe(demo.projectId);
      // Links are built from the caller's project, as Cinder does.
      expect(v.links[0].href).toBe(`${tc.url}/volume/v3/${admin.projectId}/volumes/${vol}`);
    },
  );

  it('lists only attached attachments, host_name for admins only (captures 32-37, 250)', async () => {
    const id = await d.createVolume({ volume_type: 'multiattach' });
    const server1 = randomUUID();
    const att1 = await d.attach(id, server1, 'compute-1');
    const att2 = await d.attach(id, randomUUID(), 'compute-2');
    const v = await d.show(id);
    expect(v.status).toBe('in-use');
    expect(v.attachments).toHaveLength(2);
    expect(v.attachments[0]).toEqual({
      id,
      attachment_id: att1,
      volume_id: id,
      server_id: server1,
      host_name: null,
      device: '/dev/vdb',
      attached_at: expect.stringMatching(CINDER_TIME),
    });
    expect(v.attachments[1].attachment_id).toBe(att2);
    const asAdmin = await a.show(id);
    expect(asAdmin.attachments.map((x: { host_name: string }) => x.host_name)).toEqual([
      'compute-1',
      'compute-2',
    ]);

    const reservedVol = await d.createVolume();
    await d.reserve(reservedVol);
    expect(await d.show(reservedVol)).toMatchObject({ status: 'reserved', attachments: [] });
  });

  it("hides another project's volume behind a 404; admins see any (captures 238, 245)", async () => {
    const adminVol = await a.createVolume({ name: 'admin-only' });
    const res = await d.call('GET', `/volumes/${adminVol}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Volume ${adminVol} could not be found.`));
    expect((await a.call('GET', `/volumes/${vol}`)).status).toBe(200);
  });

  it('answers an unknown id with 404', async () => {
    const id = randomUUID();
    const res = await d.call('GET', `/volumes/${id}`);
    expect(res.body).toEqual(fault(404, `Volume ${id} could not be found.`));
  });

  it("refuses a URL with another project's id (capture 38)", async () => {
    const res = await http(tc, 'GET', `/volume/v3/${demo.projectId}/volumes/${vol}`, {
      token: admin.token,
      version: 'volume 3.70',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'Malformed request url'));
  });
});

describe('GET /volumes and /volumes/detail', () => {
  let tc2: TestCloud;
  let demo2: Session;
  let d2: ReturnType<typeof volumeClient>;
  let a2: ReturnType<typeof volumeClient>;
  let ids: Record<string, string>;
  let adminVol: string;

  beforeAll(async () => {
    tc2 = await startCloud();
    demo2 = await login(tc2, 'demo');
    d2 = volumeClient(tc2, demo2);
    a2 = volumeClient(tc2, await login(tc2, 'admin'));
    ids = {};
    for (const [name, extra] of [
      ['vol-c', { size: 3, metadata: { tier: 'gold' } }],
      ['vol-a', { size: 1 }],
      ['Vol-b', { size: 2, volume_type: 'multiattach' }],
      ['vol-d', { size: 1, metadata: { tier: 'silver' } }],
      ['vol-e', { size: 5 }],
    ] as const) {
      ids[name] = await d2.createVolume({ name, ...extra });
      // Distinct creation times, so the default order (newest first) is deterministic.
      await new Promise((r) => setTimeout(r, 5));
    }
    await d2.action(ids['vol-a'] as string, { 'os-set_bootable': { bootable: true } });
    await a2.action(ids['vol-e'] as string, { 'os-reset_status': { status: 'error' } });
    adminVol = await a2.createVolume({ name: 'admin-vol' });
  });
  afterAll(async () => {
    await tc2.close();
  });

  const names = (res: { body: { volumes: { name: string }[] } }) => res.body.volumes.map((v) => v.name);

  it('lists id, name and links, newest first (capture 234)', async () => {
    const res = await d2.call('GET', '/volumes', { version: '3.50' });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['vol-e', 'vol-d', 'Vol-b', 'vol-a', 'vol-c']);
    expect(Object.keys(res.body)).toEqual(['volumes']);
    expect(Object.keys(res.body.volumes[0])).toEqual(['id', 'name', 'links']);
  });

  it('details include the extension attributes (capture 235)', async () => {
    const res = await d2.call('GET', '/volumes/detail', { version: '3.50' });
    expect(Object.keys(res.body.volumes[0])).toEqual([
      ...BASE_KEYS,
      'group_id',
      'shared_targets',
      'service_uuid',
      'os-vol-tenant-attr:tenant_id',
    ]);
  });

  it('shows a member only their project, even with all_tenants (capture 238)', async () => {
    expect(names(await d2.call('GET', '/volumes?all_tenants=1', { version: '3.50' }))).not.toContain(
      'admin-vol',
    );
    expect(names(await a2.call('GET', '/volumes'))).toEqual(['admin-vol']);
    const all = names(await a2.call('GET', '/volumes?all_tenants=1', { version: '3.50' }));
    expect(all).toEqual(['admin-vol', 'vol-e', 'vol-d', 'Vol-b', 'vol-a', 'vol-c']);
    expect(adminVol).toBeTruthy();
  });

  it.each([
    ['status=available', ['vol-d', 'Vol-b', 'vol-a', 'vol-c']],
    ['status=error', ['vol-e']],
    ['name=vol-a', ['vol-a']],
    ['name=vol', []],
    ['size=1', ['vol-d', 'vol-a']],
    ['bootable=true', ['vol-a']],
    ['bootable=0', ['vol-e', 'vol-d', 'Vol-b', 'vol-c']],
    ["metadata={'tier': 'gold'}", ['vol-c']],
    ['metadata=%7B%22tier%22%3A%22silver%22%7D', ['vol-d']],
    ['availability_zone=nova&size=2', ['Vol-b']],
    ['migration_status=None', ['vol-e', 'vol-d', 'Vol-b', 'vol-a', 'vol-c']],
    ['group_id=x', []],
  ])('filters detail by %s (captures 235, 236)', async (query, expected) => {
    const res = await d2.call('GET', `/volumes/detail?${query}`, { version: '3.50' });
    expect(res.status, res.text).toBe(200);
    expect(names(res)).toEqual(expected);
  });

  it('refuses an unknown filter from 3.33 (capture 239) and drops it below', async () => {
    const res = await d2.call('GET', '/volumes/detail?cap2_bogus=1', { version: '3.50' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, 'Invalid filters cap2_bogus are found in query options.'));
    const two = await d2.call('GET', '/volumes?foo=1&bar=2', { version: '3.33' });
    expect(two.body).toEqual(fault(400, 'Invalid filters foo,bar are found in query options.'));
    const legacy = await d2.call('GET', '/volumes?cap2_bogus=1&size=1', { version: '3.32' });
    expect(names(legacy)).toEqual(['vol-e', 'vol-d', 'Vol-b', 'vol-a', 'vol-c']);
  });

  it('lets admins filter on any column; an unknown one matches nothing', async () => {
    expect(names(await a2.call('GET', '/volumes?all_tenants=1&cap2_bogus=1'))).toEqual([]);
    expect(
      names(await a2.call('GET', `/volumes?all_tenants=1&host=${encodeURIComponent(BACKEND.host)}&size=2`)),
    ).toEqual(['Vol-b']);
  });

  it.each([
    ['bootable=maybe', '3.50', "Invalid input received: 'bootable = maybe'"],
    ['all_tenants=maybe', '3.50', "Value 'maybe' for 'all_tenants' is not a boolean."],
    ['limit=abc', '3.50', 'limit param must be an integer'],
    ['limit=-1', '3.50', 'limit param must be positive'],
    ['offset=x', '3.50', 'offset must be an integer.'],
    ['offset=-2', '3.50', 'offset must be >= 0'],
    [
      'sort=name&sort_key=size',
      '3.50',
      "The 'sort_key' and 'sort_dir' parameters are deprecated and cannot be used with the 'sort' parameter.",
    ],
    ['sort=name:up', '3.50', "Invalid input received: Unknown sort direction, must be 'desc' or 'asc'."],
    ['sort_key=bogus', '3.50', 'Invalid input received: Invalid sort key'],
    ['with_count=maybe', '3.45', "Value 'maybe' for 'with_count' is not a boolean."],
    ['with_count=true', '3.44', 'Invalid filters with_count are found in query options.'],
  ])('refuses %s at %s with 400', async (query, version, message) => {
    const res = await d2.call('GET', `/volumes?${query}`, { version });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fault(400, message));
  });

  it('pages with limit and marker, with a next link until the end (captures 240-243)', async () => {
    const seen: string[] = [];
    let url = '/volumes?limit=2';
    for (let page = 0; page < 5 && url; page++) {
      const res = await d2.call('GET', url, { version: '3.50' });
      expect(res.status).toBe(200);
      seen.push(...names(res));
      const next = res.body.volumes_links?.[0];
      if (!next) break;
      expect(next.rel).toBe('next');
      const last = res.body.volumes.at(-1).id;
      expect(next.href).toBe(`${tc2.url}/volume/v3/${demo2.projectId}/volumes?limit=2&marker=${last}`);
      url = next.href.slice(`${tc2.url}/volume/v3/${demo2.projectId}`.length);
    }
    expect(seen).toEqual(['vol-e', 'vol-d', 'Vol-b', 'vol-a', 'vol-c']);
  });

  it('sorts with sort=name:asc case-insensitively and keeps the query in the next link (capture 244)', async () => {
    const res = await d2.call('GET', '/volumes/detail?limit=2&sort=name:asc', { version: '3.50' });
    expect(names(res)).toEqual(['vol-a', 'Vol-b']);
    expect(res.body.volumes_links[0].href).toBe(
      `${tc2.url}/volume/v3/${demo2.projectId}/volumes/detail?limit=2&sort=name%3Aasc&marker=${ids['Vol-b']}`,
    );
    const page2 = await d2.call('GET', `/volumes/detail?limit=2&sort=name:asc&marker=${ids['Vol-b']}`);
    expect(names(page2)).toEqual(['vol-c', 'vol-d']);
  });

  it('sorts with sort_key/sort_dir and several keys', async () => {
    expect(names(await d2.call('GET', '/volumes?sort_key=size&sort_dir=asc'))).toEqual([
      'vol-a',
      'vol-d',
      'Vol-b',
      'vol-c',
      'vol-e',
    ]);
    expect(names(await d2.call('GET', '/volumes?sort=size:desc,name:asc'))).toEqual([
      'vol-e',
      'vol-c',
      'Vol-b',
      'vol-a',
      'vol-d',
    ]);
  });

  it('skips with offset and counts with with_count from 3.45', async () => {
    expect(names(await d2.call('GET', '/volumes?offset=3'))).toEqual(['vol-a', 'vol-c']);
    const counted = await d2.call('GET', '/volumes?limit=1&with_count=true', { version: '3.45' });
    expect(counted.body.count).toBe(5);
    expect(counted.body.volumes).toHaveLength(1);
    expect(Object.keys(counted.body)).toEqual(['volumes', 'volumes_links', 'count']);
  });

  it('answers an unknown marker with 404 (capture 245)', async () => {
    const marker = randomUUID();
    const res = await d2.call('GET', `/volumes?marker=${marker}`, { version: '3.50' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fault(404, `Volume ${marker} could not be found.`));
  });

  it('summarises from 3.12, with metadata values from 3.36', async () => {
    const below = await d2.call('GET', '/volumes/summary', { version: '3.11' });
    expect(below.body).toEqual(fault(404, 'Volume summary could not be found.'));
    expect((await d2.call('GET', '/volumes/summary', { version: '3.12' })).body).toEqual({
      'volume-summary': { total_count: 5, total_size: 12 },
    });
    expect((await d2.call('GET', '/volumes/summary', { version: '3.36' })).body).toEqual({
      'volume-summary': { total_count: 5, total_size: 12, metadata: { tier: ['gold', 'silver'] } },
    });
    const all = await a2.call('GET', '/volumes/summary?all_tenants=1', { version: '3.12' });
    expect(all.body['volume-summary'].total_count).toBe(6);
  });

  it('applies "latest" as 3.71 and echoes it (capture 225)', async () => {
    const res = await d2.call('GET', '/volumes', { version: 'latest' });
    expect(res.headers.get('openstack-api-version')).toBe('volume 3.71');
  });
});

describe('PUT /volumes/{id}', () => {
  it('updates name, description and replaces the metadata; the readonly flag stays visible', async () => {
    const id = await d.createVolume({ name: 'before', metadata: { a: '1', b: '2' } });
    await d.action(id, { 'os-update_readonly_flag': { readonly: true } });
    const res = await d.call('PUT', `/volumes/${id}`, {
      body: { volume: { name: ' after ', description: 'desc', metadata: { c: '3' } } },
    });
    expect(res.status).toBe(200);
    const v = res.body.volume;
    expect(v).toMatchObject({ name: 'after', description: 'desc', metadata: { c: '3', readonly: 'True' } });
    // The update answer is the bare detail view: no extension attributes.
    expect(v['os-vol-tenant-attr:tenant_id']).toBeUndefined();
    expect(await d.show(id)).toMatchObject({ name: 'after', metadata: { c: '3', readonly: 'True' } });
  });

  it('accepts display_name, and an empty update below 3.53 only', async () => {
    const id = await d.createVolume();
    const legacy = await d.call('PUT', `/volumes/${id}`, { body: { volume: { display_name: 'legacy' } } });
    expect(legacy.body.volume.name).toBe('legacy');
    expect((await d.call('PUT', `/volumes/${id}`, { version: '3.52', body: { volume: {} } })).status).toBe(
      200,
    );
    const refused = await d.call('PUT', `/volumes/${id}`, { version: '3.53', body: { volume: {} } });
    expect(refused.body).toEqual(
      fault(
        400,
        'Invalid input for field/attribute volume. Value: {}. {} is not valid under any of the given schemas',
      ),
    );
    const extra = await d.call('PUT', `/volumes/${id}`, { body: { volume: { size: 2 } } });
    expect(extra.body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute volume. Value: {'size': 2}. Additional properties are not allowed ('size' was unexpected)",
      ),
    );
  });

  it("cannot update another project's volume", async () => {
    const id = await a.createVolume();
    const res = await d.call('PUT', `/volumes/${id}`, { body: { volume: { name: 'x' } } });
    expect(res.body).toEqual(fault(404, `Volume ${id} could not be found.`));
  });
});

describe('DELETE /volumes/{id}', () => {
  it('answers 202 with an empty body, the volume goes deleting and the backend removes it', async () => {
    const id = await d.createVolume();
    const res = await d.call('DELETE', `/volumes/${id}`);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    await tc.settle();
    expect((await d.call('GET', `/volumes/${id}`)).status).toBe(404);
  });

  it('removes a volume the scheduler never placed at once', async () => {
    // A slow backend, so the volume is still unscheduled (no host) when it is deleted.
    const slow = await startCloud({ backendDelayMs: 60_000 });
    try {
      const s = volumeClient(slow, await login(slow, 'demo'));
      const res = await s.call('POST', '/volumes', { body: { volume: { size: 1 } } });
      const id = res.body.volume.id;
      expect((await s.show(id)).status).toBe('creating');
      expect((await s.call('DELETE', `/volumes/${id}`)).status).toBe(202);
      expect((await s.call('GET', `/volumes/${id}`)).status).toBe(404);
    } finally {
      await slow.close();
    }
  });

  it('refuses an in-use volume, with or without cascade (captures 53, 290, 291)', async () => {
    const id = await d.createVolume();
    await d.attach(id);
    for (const path of [`/volumes/${id}`, `/volumes/${id}?cascade=True`]) {
      const res = await d.call('DELETE', path, { version: '3.50' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(fault(400, `Invalid volume: ${DELETE_REFUSED}`));
    }
  });

  it('refuses a volume with a reserved attachment (capture 251)', async () => {
    const id = await d.createVolume();
    await d.reserve(id);
    const res = await d.call('DELETE', `/volumes/${id}`);
    expect(res.body).toEqual(fault(400, `Invalid volume: ${DELETE_REFUSED}`));
  });

  it('refuses even a forced delete while an attachment row exists', async () => {
    const id = await d.createVolume();
    await d.reserve(id);
    await a.action(id, { 'os-reset_status': { status: 'available' } });
    const res = await a.call('DELETE', `/volumes/${id}?force=true`);
    expect(res.body).toEqual(fault(400, `Invalid volume: ${DELETE_REFUSED}`));
  });

  it('deletes error volumes; force is admin-only from 3.23', async () => {
    const id = await d.createVolume();
    await a.action(id, { 'os-reset_status': { status: 'maintenance' } });
    expect((await d.call('DELETE', `/volumes/${id}`)).status).toBe(400);
    const denied = await d.call('DELETE', `/volumes/${id}?force=true`, { version: '3.23' });
    expect(denied.body).toEqual(fault(403, "Policy doesn't allow volume:force_delete to be performed."));
    const both = await a.call('DELETE', `/volumes/${id}?force=true&cascade=true`, { version: '3.23' });
    expect(both.body).toEqual(fault(400, 'Cascade and force parameters are mutually exclusive.'));
    expect((await a.call('DELETE', `/volumes/${id}?force=true`, { version: '3.23' })).status).toBe(202);
    const errored = await d.createVolume();
    await a.action(errored, { 'os-reset_status': { status: 'error' } });
    expect((await d.call('DELETE', `/volumes/${errored}`)).status).toBe(202);
    await tc.settle();
  });

  it('answers unknown and foreign volumes with 404 (capture 292), bad cascade with 400', async () => {
    const id = randomUUID();
    expect((await d.call('DELETE', `/volumes/${id}`, { version: '3.50' })).body).toEqual(
      fault(404, `Volume ${id} could not be found.`),
    );
    const other = await a.createVolume();
    expect((await d.call('DELETE', `/volumes/${other}`)).status).toBe(404);
    const bad = await d.call('DELETE', `/volumes/${other}?cascade=maybe`);
    expect(bad.body).toEqual(fault(400, "Value 'maybe' for 'cascade' is not a boolean."));
  });
});
