import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { type CompareCaptureOptions, compareCapture, loadCapture } from './capture.js';

/**
 * Golden tests for Cinder's QoS specs and volume transfers (captures 910-929, branch
 * cloud-qos-transfer): each recorded request is replayed on the bundled cloud, in the recorded
 * order, with our ids in its path and body; status, keys, value types and formats are compared,
 * and fault messages exactly.
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

const FAULTS = ['$.badRequest', '$.itemNotFound', '$.conflictingRequest', '$.forbidden'];

/** Replays capture `n` as `session` at `path`, with `body` (the recorded one by default). */
async function replay(
  n: number,
  session: Session,
  path: string,
  opts: CompareCaptureOptions & { body?: unknown } = {},
) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const body = 'body' in opts ? opts.body : cap.request.body;
  const res = await http(tc, cap.request.method, path, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(body !== null && body !== undefined ? { body } : {}),
  });
  const { body: _sent, ...compare } = opts;
  return {
    res,
    diffs: compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
      formats: true,
      exact: FAULTS,
      ...compare,
    }),
  };
}

describe('QoS specs (captures 910-919)', () => {
  it('creates, lists, shows, sets and unsets keys, associates and refuses to delete in use', async () => {
    const q = `${admin.volumeBase}/qos-specs`;
    const created = await replay(910, admin, q);
    expect(created.diffs).toEqual([]);
    const id = created.res.body.qos_specs.id as string;
    expect(created.res.body.qos_specs).toEqual({
      id,
      name: 'golden-qos',
      consumer: 'front-end',
      specs: { read_iops_sec: '2000' },
    });
    expect((await replay(911, admin, q)).diffs).toEqual([]);
    expect((await replay(912, admin, q)).diffs).toEqual([]);
    expect((await replay(913, admin, `${q}/${id}`)).diffs).toEqual([]);
    const set = await replay(914, admin, `${q}/${id}`, { exact: ['$'] });
    expect(set.diffs).toEqual([]);
    expect((await replay(915, admin, `${q}/${id}/delete_keys`)).diffs).toEqual([]);
    const shown = await http(tc, 'GET', `${q}/${id}`, { token: admin.token });
    expect(shown.body.qos_specs.specs).toEqual({ read_iops_sec: '2000' });

    const type = await http(tc, 'POST', `${admin.volumeBase}/types`, {
      token: admin.token,
      body: { volume_type: { name: 'golden-qos-type' } },
    });
    expect(type.body.volume_type).not.toHaveProperty('qos_specs_id');
    const typeId = type.body.volume_type.id as string;
    expect((await replay(916, admin, `${q}/${id}/associate?vol_type_id=${typeId}`)).diffs).toEqual([]);
    const assoc = await replay(917, admin, `${q}/${id}/associations`);
    expect(assoc.diffs).toEqual([]);
    expect(assoc.res.body.qos_associations).toEqual([
      { association_type: 'volume_type', name: 'golden-qos-type', id: typeId },
    ]);
    const typeShown = await http(tc, 'GET', `${admin.volumeBase}/types/${typeId}`, { token: admin.token });
    expect(typeShown.body.volume_type.qos_specs_id).toBe(id);
    const memberView = await http(tc, 'GET', `${demo.volumeBase}/types/${typeId}`, { token: demo.token });
    expect(memberView.body.volume_type).not.toHaveProperty('qos_specs_id');

    expect((await replay(918, admin, `${q}/${id}`)).diffs).toEqual([]);
    expect((await replay(919, demo, `${demo.volumeBase}/qos-specs`)).diffs).toEqual([]);

    // Forced, the delete disassociates the type first (asked of the reference cloud).
    const forced = await http(tc, 'DELETE', `${q}/${id}?force=True`, { token: admin.token });
    expect(forced.status).toBe(202);
    const after = await http(tc, 'GET', `${admin.volumeBase}/types/${typeId}`, { token: admin.token });
    expect(after.body.volume_type.qos_specs_id).toBeNull();
  });

  it('answers the other refusals with the reference cloud’s messages', async () => {
    const q = `${admin.volumeBase}/qos-specs`;
    const send = (method: string, path: string, body?: unknown) =>
      http(tc, method, path, { token: admin.token, ...(body !== undefined ? { body } : {}) });
    const a = (await send('POST', q, { qos_specs: { name: 'golden-qos-a' } })).body.qos_specs.id as string;
    const b = (await send('POST', q, { qos_specs: { name: 'golden-qos-b' } })).body.qos_specs.id as string;
    const type = await send('POST', `${admin.volumeBase}/types`, { volume_type: { name: 'golden-qos-t2' } });
    const typeId = type.body.volume_type.id as string;
    expect((await send('GET', `${q}/${a}/associate?vol_type_id=${typeId}`)).status).toBe(202);
    const cases: [string, string, unknown, number, string][] = [
      [
        'GET',
        `${q}/${b}/associate?vol_type_id=${typeId}`,
        undefined,
        400,
        `Invalid volume type: Type ${typeId} is already associated with another qos specs: ${a}`,
      ],
      ['GET', `${q}/${a}/associate`, undefined, 400, 'Volume Type id must not be None.'],
      [
        'GET',
        `${q}/${a}/associate?vol_type_id=00000000-0000-0000-0000-000000000000`,
        undefined,
        404,
        'Volume type 00000000-0000-0000-0000-000000000000 could not be found.',
      ],
      [
        'GET',
        `${q}/00000000-0000-0000-0000-000000000000`,
        undefined,
        404,
        'No such QoS spec 00000000-0000-0000-0000-000000000000.',
      ],
      [
        'PUT',
        `${q}/${a}/delete_keys`,
        { keys: ['nosuch'] },
        404,
        `QoS spec ${a} has no spec with key nosuch.`,
      ],
      [
        'POST',
        q,
        { qos_specs: { name: 'golden-qos-c', consumer: 'middle' } },
        400,
        "Invalid qos specs: Valid consumer of QoS specs are: QoSConsumerValues(default=<class 'oslo_versionedobjects.fields.UnspecifiedDefault'>,nullable=False,valid_values=('back-end', 'front-end', 'both'))",
      ],
      [
        'POST',
        q,
        { qos_specs: { consumer: 'back-end' } },
        400,
        "Invalid input for field/attribute qos_specs. Value: {'consumer': 'back-end'}. 'name' is a required property",
      ],
      [
        'POST',
        q,
        { qos_specs: { name: 'golden-qos-d', x: 5 } },
        400,
        'Invalid input received: Value for key "x" is not a string or unicode',
      ],
      [
        'PUT',
        `${q}/${a}`,
        { qos_specs: { a: 1 } },
        400,
        "Invalid input for field/attribute a. Value: 1. 1 is not of type 'string', 'null'",
      ],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res = await send(method, path, body);
      expect(
        { status: res.status, message: Object.values(res.body ?? {})[0] },
        `${method} ${path}`,
      ).toMatchObject({ status, message: { message } });
    }
    // Disassociating from a set the type is not with changes nothing.
    expect((await send('GET', `${q}/${b}/disassociate?vol_type_id=${typeId}`)).status).toBe(202);
    expect((await send('GET', `${admin.volumeBase}/types/${typeId}`)).body.volume_type.qos_specs_id).toBe(a);
    expect((await send('GET', `${q}/${a}/disassociate_all`)).status).toBe(202);
    expect((await send('GET', `${q}/${a}/associations`)).body).toEqual({ qos_associations: [] });
  });
});

describe('volume transfers (captures 920-929)', () => {
  async function freshVolume(): Promise<string> {
    const res = await http(tc, 'POST', `${demo.volumeBase}/volumes`, {
      token: demo.token,
      body: { volume: { size: 1, name: 'golden-transfer' } },
    });
    await tc.settle();
    return res.body.volume.id as string;
  }

  it('offers a volume, shows the offer by microversion, and moves the volume to the accepting project', async () => {
    const volumeId = await freshVolume();
    const t = `${demo.volumeBase}/volume-transfers`;
    const created = await replay(920, demo, t, {
      body: { transfer: { volume_id: volumeId, name: 'golden-transfer' } },
    });
    expect(created.diffs).toEqual([]);
    const { id, auth_key: key } = created.res.body.transfer as { id: string; auth_key: string };
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    const shown = await replay(921, demo, `${demo.volumeBase}/volumes/${volumeId}`, {
      ignore: [
        '$.volume.volume_type_id',
        '$.volume.provider_id',
        '$.volume.service_uuid',
        '$.volume.shared_targets',
        '$.volume.cluster_name',
        '$.volume.consumes_quota',
      ],
      lenientArrays: ['$.volume.attachments'],
    });
    expect(shown.res.body.volume.status).toBe('awaiting-transfer');
    expect((await replay(922, demo, t)).diffs).toEqual([]);
    expect((await replay(923, demo, `${t}/detail`)).diffs).toEqual([]);
    const detail = await replay(924, demo, `${t}/${id}`);
    expect(detail.diffs).toEqual([]);
    expect(detail.res.body.transfer).toMatchObject({
      no_snapshots: false,
      destination_project_id: null,
      source_project_id: demo.projectId,
      accepted: false,
    });
    expect((await replay(925, demo, t, { body: { transfer: { volume_id: volumeId } } })).diffs).toEqual([]);

    const accept = `${admin.volumeBase}/volume-transfers/${id}/accept`;
    const wrong = await replay(926, admin, accept, {
      exact: ['$.badRequest.code'],
      body: { accept: { auth_key: 'wrongkey' } },
    });
    expect(wrong.diffs).toEqual([]);
    expect(wrong.res.body.badRequest.message).toBe(
      `Invalid auth key: Attempt to transfer ${id} with invalid auth key.`,
    );
    const accepted = await replay(927, admin, accept, { body: { accept: { auth_key: key } } });
    expect(accepted.diffs).toEqual([]);
    const moved = await http(tc, 'GET', `${admin.volumeBase}/volumes/${volumeId}`, { token: admin.token });
    expect(moved.body.volume).toMatchObject({
      status: 'available',
      user_id: admin.userId,
      'os-vol-tenant-attr:tenant_id': admin.projectId,
    });
    const gone = await http(tc, 'GET', `${demo.volumeBase}/volumes/${volumeId}`, { token: demo.token });
    expect(gone.status).toBe(404);
  });

  it('serves the older os-volume-transfer API without no_snapshots, and a deleted offer frees the volume', async () => {
    const volumeId = await freshVolume();
    const t = `${demo.volumeBase}/os-volume-transfer`;
    const created = await replay(928, demo, t, { body: { transfer: { volume_id: volumeId } } });
    expect(created.diffs).toEqual([]);
    expect(created.res.body.transfer).not.toHaveProperty('no_snapshots');
    const id = created.res.body.transfer.id as string;
    expect((await replay(929, demo, `${t}/${id}`)).diffs).toEqual([]);
    const freed = await http(tc, 'GET', `${demo.volumeBase}/volumes/${volumeId}`, { token: demo.token });
    expect(freed.body.volume.status).toBe('available');
    const missing = await http(tc, 'GET', `${t}/${id}`, { token: demo.token });
    expect(missing.status).toBe(404);
    expect(missing.body.itemNotFound.message).toBe(`Transfer ${id} could not be found.`);
  });
});

describe('Keystone services, endpoints and regions for admins (captures 930-939)', () => {
  it('creates, changes and deletes what admins add, and tokens list the added endpoints', async () => {
    const created = await replay(930, admin, '/identity/v3/services', { exact: ['$.error'] });
    expect(created.diffs).toEqual([]);
    const serviceId = created.res.body.service.id as string;
    expect(created.res.body.service).toMatchObject({
      name: 'golden-svc',
      description: 'golden service',
      type: 'golden-type',
      enabled: true,
    });
    expect((await replay(931, demo, '/identity/v3/services', { exact: ['$.error'] })).diffs).toEqual([]);

    const endpoint = await replay(933, admin, '/identity/v3/endpoints', {
      body: {
        endpoint: {
          service_id: serviceId,
          interface: 'public',
          url: 'http://example.com/golden',
          region_id: 'RegionOne',
        },
      },
    });
    expect(endpoint.diffs).toEqual([]);
    const endpointId = endpoint.res.body.endpoint.id as string;

    // A new token's catalog lists the service with its endpoint.
    const token = await http(tc, 'POST', '/identity/v3/auth/tokens', {
      body: {
        auth: {
          identity: {
            methods: ['password'],
            password: { user: { name: 'demo', domain: { id: 'default' }, password: 'demo' } },
          },
          scope: { project: { name: 'demo', domain: { id: 'default' } } },
        },
      },
    });
    const entry = (token.body.token.catalog as { id: string; endpoints: { url: string }[] }[]).find(
      (s) => s.id === serviceId,
    );
    expect(entry?.endpoints.map((e) => e.url)).toEqual(['http://example.com/golden']);

    const bad = await replay(934, admin, '/identity/v3/endpoints', {
      exact: ['$.error'],
      body: { endpoint: { service_id: serviceId, interface: 'outer', url: 'http://example.com/golden' } },
    });
    expect(bad.diffs).toEqual([]);
    expect(
      (await replay(935, admin, `/identity/v3/endpoints/${endpointId}`)).res.body.endpoint,
    ).toMatchObject({ url: 'http://example.com/golden2', enabled: false });

    const disabled = await replay(932, admin, `/identity/v3/services/${serviceId}`);
    expect(disabled.diffs).toEqual([]);
    expect(disabled.res.body.service.enabled).toBe(false);

    const region = await replay(936, admin, '/identity/v3/regions', {
      exact: ['$.region.description', '$.region.parent_region_id'],
    });
    expect(region.diffs).toEqual([]);
    expect((await replay(937, admin, '/identity/v3/regions', { exact: ['$.error'] })).diffs).toEqual([]);
    expect((await replay(938, admin, `/identity/v3/endpoints/${endpointId}`)).diffs).toEqual([]);
    expect((await replay(939, admin, '/identity/v3/services', { exact: ['$.error'] })).diffs).toEqual([]);
  });

  it('answers refusals with Keystone’s messages, cascades deletes, and keeps the cloud’s own entries', async () => {
    const send = (method: string, path: string, body?: unknown) =>
      http(tc, method, path, { token: admin.token, ...(body !== undefined ? { body } : {}) });
    const service = (await send('POST', '/identity/v3/services', { service: { type: 'golden-t2' } })).body
      .service;
    expect(service).not.toHaveProperty('name');
    const bodyOf = (extra: Record<string, unknown>) => ({
      endpoint: { service_id: service.id, interface: 'internal', url: 'http://example.com/g', ...extra },
    });
    const NOT_COMPLY =
      'The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.';
    const missingService = await send('POST', '/identity/v3/endpoints', bodyOf({ service_id: 'nosuch' }));
    expect(missingService.body.error.message).toBe(
      `Expecting to find endpoint service_id in service table. ${NOT_COMPLY}`,
    );
    const missingRegion = await send('POST', '/identity/v3/endpoints', bodyOf({ region_id: 'nosuch' }));
    expect(missingRegion.body.error.message).toBe(
      `Expecting to find endpoint region_id in region table. ${NOT_COMPLY}`,
    );
    const noRegion = await send('POST', '/identity/v3/endpoints', bodyOf({}));
    expect(noRegion.status).toBe(201);
    expect(noRegion.body.endpoint).toMatchObject({ region_id: null, region: null });
    expect(
      (await send('PATCH', '/identity/v3/services/nosuch', { service: { id: 'x' } })).body.error.message,
    ).toBe('Cannot change ID');
    // A service's endpoints go with it.
    expect((await send('DELETE', `/identity/v3/services/${service.id}`)).status).toBe(204);
    expect((await send('GET', `/identity/v3/endpoints/${noRegion.body.endpoint.id}`)).status).toBe(404);

    // A region's children go with it; a missing parent is a 404.
    expect((await send('POST', '/identity/v3/regions', { region: { id: 'golden-parent' } })).status).toBe(
      201,
    );
    const child = await send('POST', '/identity/v3/regions', {
      region: { id: 'golden-child', parent_region_id: 'golden-parent' },
    });
    expect(child.body.region).toMatchObject({
      id: 'golden-child',
      description: '',
      parent_region_id: 'golden-parent',
    });
    const orphan = await send('POST', '/identity/v3/regions', {
      region: { id: 'golden-orphan', parent_region_id: 'nosuch' },
    });
    expect({ status: orphan.status, message: orphan.body.error.message }).toEqual({
      status: 404,
      message: 'Could not find region: nosuch.',
    });
    // A region whose tree holds an endpoint stays (RegionOne holds the cloud's own).
    const used = await send('POST', '/identity/v3/endpoints', {
      endpoint: {
        service_id: (await send('GET', '/identity/v3/services?type=compute')).body.services[0].id,
        interface: 'public',
        url: 'http://example.com/c',
        region_id: 'golden-child',
      },
    });
    expect(used.status).toBe(201);
    const held = await send('DELETE', '/identity/v3/regions/golden-parent');
    expect({ status: held.status, message: held.body.error.message }).toEqual({
      status: 403,
      message:
        'Unable to delete region golden-parent because it or its child regions have associated endpoints.',
    });
    expect((await send('DELETE', '/identity/v3/regions/RegionOne')).status).toBe(403);
    expect((await send('DELETE', `/identity/v3/endpoints/${used.body.endpoint.id}`)).status).toBe(204);
    expect((await send('DELETE', '/identity/v3/regions/golden-parent')).status).toBe(204);
    expect((await send('GET', '/identity/v3/regions/golden-child')).status).toBe(404);
    const put = await send('PUT', '/identity/v3/regions/golden-put', { region: { description: 'put' } });
    expect(put.status).toBe(201);
    expect(
      (await send('PATCH', '/identity/v3/regions/golden-put', { region: { description: 'changed' } })).body
        .region.description,
    ).toBe('changed');

    // The cloud's own services stay: refused as immutable, still listed and in the catalog.
    const own = (await send('GET', '/identity/v3/services?type=compute')).body.services[0];
    const refused = await send('DELETE', `/identity/v3/services/${own.id}`);
    expect(refused.status).toBe(403);
    expect((await send('GET', `/identity/v3/services/${own.id}`)).status).toBe(200);
  });
});
