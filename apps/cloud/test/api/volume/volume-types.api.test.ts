import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

let tc: TestCloud;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  d = volumeClient(tc, demoSession);
  a = volumeClient(tc, adminSession);
});

const uniq = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;
const TYPE_KEYS = [
  'id',
  'name',
  'is_public',
  'description',
  'extra_specs',
  'os-volume-type-access:is_public',
];

async function typeId(name: string): Promise<string> {
  const list = (await a.call('GET', '/types?is_public=none')).body.volume_types as {
    id: string;
    name: string;
  }[];
  const t = list.find((x) => x.name === name);
  if (!t) throw new Error(`no type ${name}`);
  return t.id;
}

describe('GET /types', () => {
  it('lists the seeded types, newest first, as a member sees them (captures 03, 280)', async () => {
    const res = await d.call('GET', '/types', { version: '3.50' });
    expect(res.status).toBe(200);
    const types = res.body.volume_types;
    expect(types.map((t: { name: string }) => t.name).slice(-2)).toEqual(['multiattach', '__DEFAULT__']);
    const ma = types.find((t: { name: string }) => t.name === 'multiattach');
    expect(Object.keys(ma)).toEqual(TYPE_KEYS);
    expect(ma).toMatchObject({
      is_public: true,
      description: null,
      extra_specs: { multiattach: '<is> True' },
      'os-volume-type-access:is_public': true,
    });
    const def = types.find((t: { name: string }) => t.name === '__DEFAULT__');
    expect(def).toMatchObject({ description: 'Default Volume Type', extra_specs: {} });
  });

  it('hides private types from members; admins see them with is_public=false or none', async () => {
    const name = uniq('private');
    const created = await a.call('POST', '/types', {
      body: { volume_type: { name, 'os-volume-type-access:is_public': false } },
    });
    expect(created.body.volume_type).toMatchObject({
      is_public: false,
      'os-volume-type-access:is_public': false,
    });
    const id = created.body.volume_type.id;
    const names = async (client: typeof d, q = '') =>
      ((await client.call('GET', `/types${q}`)).body.volume_types as { name: string }[]).map((t) => t.name);
    expect(await names(d)).not.toContain(name);
    expect(await names(d, '?is_public=false')).not.toContain(name);
    expect(await names(a)).not.toContain(name);
    expect(await names(a, '?is_public=false')).toEqual([name]);
    expect(await names(a, '?is_public=None')).toContain(name);
    expect((await d.call('GET', `/types/${id}`)).body).toEqual(
      fault(404, `Volume type ${id} could not be found.`),
    );
    expect((await a.call('GET', `/types/${id}`)).status).toBe(200);
    const bad = await a.call('GET', '/types?is_public=maybe');
    expect(bad.body).toEqual(fault(400, 'Invalid is_public filter [maybe]'));
  });

  it('filters on extra_specs, pages with a next link and refuses unknown member filters from 3.52', async () => {
    const only = await d.call(
      'GET',
      `/types?extra_specs=${encodeURIComponent("{'multiattach': '<is> True'}")}`,
      {
        version: '3.52',
      },
    );
    expect(only.body.volume_types.map((t: { name: string }) => t.name)).toContain('multiattach');
    expect(only.body.volume_types.map((t: { name: string }) => t.name)).not.toContain('__DEFAULT__');
    const page = await d.call('GET', '/types?limit=1');
    expect(page.body.volume_types).toHaveLength(1);
    expect(page.body.volume_type_links[0].rel).toBe('next');
    expect((await d.call('GET', '/types?foo=1', { version: '3.52' })).body).toEqual(
      fault(400, 'Invalid filters foo are found in query options.'),
    );
    expect((await d.call('GET', '/types?foo=1', { version: '3.51' })).status).toBe(200);
  });
});

describe('GET /types/{id}', () => {
  it('shows a type by id; names are not ids (capture 281)', async () => {
    const id = await typeId('multiattach');
    const res = await d.call('GET', `/types/${id}`, { version: '3.50' });
    expect(res.body).toEqual({
      volume_type: {
        id,
        name: 'multiattach',
        is_public: true,
        description: null,
        extra_specs: { multiattach: '<is> True' },
        'os-volume-type-access:is_public': true,
      },
    });
    expect((await d.call('GET', '/types/multiattach')).body).toEqual(
      fault(404, 'Volume type multiattach could not be found.'),
    );
  });

  it('shows the default type without the access attribute (capture 285)', async () => {
    const res = await d.call('GET', '/types/default', { version: '3.62' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      volume_type: {
        id: await typeId('__DEFAULT__'),
        name: '__DEFAULT__',
        is_public: true,
        description: 'Default Volume Type',
        extra_specs: {},
      },
    });
  });

  it('shows only user-visible extra specs to members', async () => {
    const name = uniq('backend');
    const created = await a.call('POST', '/types', {
      body: {
        volume_type: { name, extra_specs: { volume_backend_name: 'lvmdriver-1', multiattach: '<is> True' } },
      },
    });
    const id = created.body.volume_type.id;
    expect(created.body.volume_type.extra_specs).toEqual({
      volume_backend_name: 'lvmdriver-1',
      multiattach: '<is> True',
    });
    expect((await d.call('GET', `/types/${id}`)).body.volume_type.extra_specs).toEqual({
      multiattach: '<is> True',
    });
    expect((await d.call('GET', `/types/${id}/extra_specs`)).body).toEqual({
      extra_specs: { multiattach: '<is> True' },
    });
    expect((await a.call('GET', `/types/${id}/extra_specs`)).body.extra_specs).toEqual({
      volume_backend_name: 'lvmdriver-1',
      multiattach: '<is> True',
    });
    expect((await d.call('GET', `/types/${id}/extra_specs/volume_backend_name`)).body).toEqual(
      fault(404, `Volume Type ${id} has no extra specs with key volume_backend_name.`),
    );
    expect((await a.call('GET', `/types/${id}/extra_specs/volume_backend_name`)).body).toEqual({
      volume_backend_name: 'lvmdriver-1',
    });
  });

  it('lists extra specs (captures 282-284)', async () => {
    const ma = await typeId('multiattach');
    expect((await d.call('GET', `/types/${ma}/extra_specs`, { version: '3.50' })).body).toEqual({
      extra_specs: { multiattach: '<is> True' },
    });
    expect((await a.call('GET', `/types/${ma}/extra_specs`, { version: '3.50' })).body).toEqual({
      extra_specs: { multiattach: '<is> True' },
    });
    const def = await typeId('__DEFAULT__');
    expect((await d.call('GET', `/types/${def}/extra_specs`, { version: '3.50' })).body).toEqual({
      extra_specs: {},
    });
    const missing = randomUUID();
    expect((await d.call('GET', `/types/${missing}/extra_specs`)).body).toEqual(
      fault(404, `Volume type ${missing} could not be found.`),
    );
  });
});

describe('POST /types', () => {
  it('is refused to members (capture 286)', async () => {
    const res = await d.call('POST', '/types', {
      version: '3.50',
      body: { volume_type: { name: uniq('denied') } },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      fault(403, "Policy doesn't allow volume_extension:type_create to be performed."),
    );
  });

  it('creates a multiattach type for admins: 200 (capture 287), whose volumes are multiattach', async () => {
    const name = uniq('ma-type');
    const res = await a.call('POST', '/types', {
      version: '3.50',
      body: { volume_type: { name, extra_specs: { multiattach: '<is> True' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.volume_type).toMatchObject({
      name,
      is_public: true,
      description: null,
      extra_specs: { multiattach: '<is> True' },
      'os-volume-type-access:is_public': true,
    });
    const vol = await d.createVolume({ volume_type: name });
    expect((await d.show(vol)).multiattach).toBe(true);
    const notMa = uniq('almost');
    await a.call('POST', '/types', {
      body: { volume_type: { name: notMa, extra_specs: { multiattach: 'True' } } },
    });
    expect((await d.show(await d.createVolume({ volume_type: notMa }))).multiattach).toBe(false);
  });

  it('refuses a duplicate name with 409 and bad bodies with 400', async () => {
    const name = uniq('dup');
    await a.call('POST', '/types', { body: { volume_type: { name } } });
    expect((await a.call('POST', '/types', { body: { volume_type: { name } } })).body).toEqual(
      fault(409, `Volume Type ${name} already exists.`),
    );
    const cases: [unknown, string][] = [
      [{}, "'volume_type' is a required property"],
      [
        { volume_type: {} },
        "Invalid input for field/attribute volume_type. Value: {}. 'name' is a required property",
      ],
      [{ volume_type: { name: '' } }, "Invalid input for field/attribute name. Value: . '' is too short"],
      [
        { volume_type: { name: '   ' } },
        "An invalid 'name' value was provided. The 'name' can not be empty.",
      ],
      [
        { volume_type: { name: 'x', 'os-volume-type-access:is_public': 'sometimes' } },
        "Invalid input for field/attribute os-volume-type-access:is_public. Value: sometimes. 'sometimes' is not one of [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes', 'yes', 'y', 't', False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off', 'NO', 'No', 'no', 'n', 'f']",
      ],
      [
        { volume_type: { name: 'x', extra_specs: { 'bad/key': 'v' } } },
        "Invalid input for field/attribute extra_specs. Value: {'bad/key': 'v'}. 'bad/key' does not match any of the regexes: '^[a-zA-Z0-9-_:. ]{1,255}$'",
      ],
    ];
    for (const [body, message] of cases) {
      expect((await a.call('POST', '/types', { body })).body).toEqual(fault(400, message));
    }
  });
});

describe('PUT /types/{id}', () => {
  it('updates name, description and visibility for admins only', async () => {
    const created = await a.call('POST', '/types', { body: { volume_type: { name: uniq('upd') } } });
    const id = created.body.volume_type.id;
    const name = uniq('renamed');
    const res = await a.call('PUT', `/types/${id}`, {
      body: { volume_type: { name, description: 'now described' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      volume_type: { id, name, is_public: true, description: 'now described', extra_specs: {} },
    });
    expect((await d.call('PUT', `/types/${id}`, { body: { volume_type: { name: 'x' } } })).body).toEqual(
      fault(403, "Policy doesn't allow volume_extension:type_update to be performed."),
    );
    expect((await a.call('PUT', `/types/${id}`, { body: { volume_type: {} } })).body).toEqual(
      fault(400, 'Specify volume type name, description, is_public or a combination thereof.'),
    );
    expect((await a.call('PUT', `/types/${id}`, { body: { volume_type: { name: '  ' } } })).body).toEqual(
      fault(400, 'Volume type name can not be empty.'),
    );
    expect(
      (await a.call('PUT', `/types/${id}`, { body: { volume_type: { name: 'multiattach' } } })).body,
    ).toEqual(fault(409, 'Volume Type multiattach already exists.'));
    const missing = randomUUID();
    expect(
      (await a.call('PUT', `/types/${missing}`, { body: { volume_type: { description: 'x' } } })).body,
    ).toEqual(fault(404, `Volume type ${missing} could not be found.`));
  });
});

describe('DELETE /types/{id}', () => {
  it('deletes for admins: 202, then 404 (captures 288, 289)', async () => {
    const created = await a.call('POST', '/types', { body: { volume_type: { name: uniq('gone') } } });
    const id = created.body.volume_type.id;
    expect((await d.call('DELETE', `/types/${id}`)).body).toEqual(
      fault(403, "Policy doesn't allow volume_extension:type_delete to be performed."),
    );
    const res = await a.call('DELETE', `/types/${id}`, { version: '3.50' });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect((await a.call('GET', `/types/${id}`, { version: '3.50' })).body).toEqual(
      fault(404, `Volume type ${id} could not be found.`),
    );
  });

  it('refuses the default type and a type in use', async () => {
    const def = await typeId('__DEFAULT__');
    expect((await a.call('DELETE', `/types/${def}`)).body).toEqual(
      fault(400, `The volume type ${def} is a default volume type and cannot be deleted.`),
    );
    const name = uniq('used');
    const created = await a.call('POST', '/types', { body: { volume_type: { name } } });
    await d.createVolume({ volume_type: name });
    const id = created.body.volume_type.id;
    expect((await a.call('DELETE', `/types/${id}`)).body).toEqual(
      fault(400, `Volume Type ${id} deletion is not allowed with volumes present with the type.`),
    );
  });
});

describe('extra specs', () => {
  it('creates, updates and deletes specs for admins', async () => {
    const created = await a.call('POST', '/types', { body: { volume_type: { name: uniq('specs') } } });
    const id = created.body.volume_type.id;
    const add = await a.call('POST', `/types/${id}/extra_specs`, {
      body: { extra_specs: { multiattach: '<is> True' } },
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ extra_specs: { multiattach: '<is> True' } });
    const upd = await a.call('PUT', `/types/${id}/extra_specs/multiattach`, {
      body: { multiattach: '<is> False' },
    });
    expect(upd.body).toEqual({ multiattach: '<is> False' });
    expect((await a.call('GET', `/types/${id}/extra_specs/multiattach`)).body).toEqual({
      multiattach: '<is> False',
    });
    const del = await a.call('DELETE', `/types/${id}/extra_specs/multiattach`);
    expect(del.status).toBe(202);
    expect((await a.call('GET', `/types/${id}/extra_specs`)).body).toEqual({ extra_specs: {} });
    expect((await a.call('DELETE', `/types/${id}/extra_specs/multiattach`)).body).toEqual(
      fault(404, `Volume Type ${id} has no extra specs with key multiattach.`),
    );
  });

  it('refuses cacheable with multiattach, a URI mismatch and members', async () => {
    const created = await a.call('POST', '/types', {
      body: { volume_type: { name: uniq('cache'), extra_specs: { multiattach: '<is> True' } } },
    });
    const id = created.body.volume_type.id;
    expect(
      (
        await a.call('POST', `/types/${id}/extra_specs`, {
          body: { extra_specs: { cacheable: '<is> True' } },
        })
      ).body,
    ).toEqual(fault(400, 'cacheable cannot be set with multiattach.'));
    expect((await a.call('PUT', `/types/${id}/extra_specs/foo`, { body: { bar: '1' } })).body).toEqual(
      fault(400, 'Request body and URI mismatch'),
    );
    expect(
      (await a.call('PUT', `/types/${id}/extra_specs/foo`, { body: { foo: '1', bar: '2' } })).body,
    ).toEqual(fault(400, "{'foo': '1', 'bar': '2'} has too many properties"));
    expect(
      (await d.call('POST', `/types/${id}/extra_specs`, { body: { extra_specs: { a: '1' } } })).body,
    ).toEqual(fault(403, "Policy doesn't allow volume_extension:types_extra_specs:create to be performed."));
    expect((await d.call('DELETE', `/types/${id}/extra_specs/multiattach`)).body).toEqual(
      fault(403, "Policy doesn't allow volume_extension:types_extra_specs:delete to be performed."),
    );
  });

  it('refuses changes to a type in use', async () => {
    const name = uniq('inuse');
    const created = await a.call('POST', '/types', { body: { volume_type: { name } } });
    await d.createVolume({ volume_type: name });
    const id = created.body.volume_type.id;
    expect(
      (await a.call('POST', `/types/${id}/extra_specs`, { body: { extra_specs: { a: '1' } } })).body,
    ).toEqual(fault(400, 'Volume Type is currently in use.'));
  });
});

// --- cloud14v: volume type access ---
describe('volume type access (private types shared with projects)', () => {
  let demoProject: string;
  it.beforeAll(({ demo }) => {
    demoProject = demo.projectId;
  });

  it('shares a private type with a project, which then sees it and makes volumes of it', async () => {
    const made = await a.call('POST', '/types', {
      body: { volume_type: { name: uniq('private'), 'os-volume-type-access:is_public': false } },
    });
    expect(made.status).toBe(200);
    const id = made.body.volume_type.id as string;
    const hidden = await d.call('POST', '/volumes', { body: { volume: { size: 1, volume_type: id } } });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(fault(404, `Volume type ${id} could not be found.`));

    const add = await a.call('POST', `/types/${id}/action`, {
      body: { addProjectAccess: { project: demoProject } },
    });
    expect(add.status).toBe(202);
    expect(add.text).toBe('');
    const again = await a.call('POST', `/types/${id}/action`, {
      body: { addProjectAccess: { project: demoProject } },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      fault(409, `Volume type access for ${id} / ${demoProject} combination already exists.`),
    );
    const list = await a.call('GET', `/types/${id}/os-volume-type-access`);
    expect(list.body).toEqual({ volume_type_access: [{ volume_type_id: id, project_id: demoProject }] });

    expect((await d.call('GET', `/types/${id}`)).status).toBe(200);
    const listed = (await d.call('GET', '/types')).body.volume_types as { id: string }[];
    expect(listed.map((t) => t.id)).toContain(id);
    const volumeId = await d.createVolume({ volume_type: id });
    expect((await d.show(volumeId)).volume_type).toBe(made.body.volume_type.name);

    const remove = await a.call('POST', `/types/${id}/action`, {
      body: { removeProjectAccess: { project: demoProject } },
    });
    expect(remove.status).toBe(202);
    const gone = await a.call('POST', `/types/${id}/action`, {
      body: { removeProjectAccess: { project: demoProject } },
    });
    expect(gone.body).toEqual(
      fault(404, `Volume type access not found for ${id} / ${demoProject} combination.`),
    );
    expect((await d.call('GET', `/types/${id}`)).status).toBe(404);
  });

  it('refuses access lists of public types, non-uuid projects, members and unknown actions', async () => {
    const pub = await a.call('POST', '/types', { body: { volume_type: { name: uniq('public') } } });
    const id = pub.body.volume_type.id as string;
    const list = await a.call('GET', `/types/${id}/os-volume-type-access`);
    expect(list.body).toEqual(fault(404, 'Access list not available for public volume types.'));
    const add = await a.call('POST', `/types/${id}/action`, {
      body: { addProjectAccess: { project: randomUUID() } },
    });
    expect(add.body).toEqual(
      fault(400, 'Invalid volume type: Type access modification is not applicable to public volume type.'),
    );
    const bad = await a.call('POST', `/types/${id}/action`, { body: { addProjectAccess: { project: 'x' } } });
    expect(bad.status).toBe(400);
    const unknown = await a.call('POST', `/types/${id}/action`, { body: { shareIt: {} } });
    expect(unknown.body).toEqual(fault(400, 'There is no such action: shareIt'));
    const member = await d.call('POST', `/types/${id}/action`, {
      body: { addProjectAccess: { project: randomUUID() } },
    });
    expect(member.body).toEqual(
      fault(
        403,
        "Policy doesn't allow volume_extension:volume_type_access:addProjectAccess to be performed.",
      ),
    );
    const memberList = await d.call('GET', `/types/${id}/os-volume-type-access`);
    expect(memberList.body).toEqual(
      fault(
        403,
        "Policy doesn't allow volume_extension:volume_type_access:get_all_for_type to be performed.",
      ),
    );
  });
});
