import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { type CompareCaptureOptions, compareCapture, type Json, loadCapture } from './capture.js';

/**
 * Golden tests for Cinder's generic volume groups (captures 940-969, recorded on the reference
 * cloud): group types and their specs, groups, the volumes and snapshots in them, group snapshots
 * and the faults a user meets. Each recorded request is sent to the bundled cloud and the status,
 * keys, value types and formats compared; fault messages exactly, with the captured ids mapped to
 * ours.
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

interface CheckOptions extends CompareCaptureOptions {
  /** The request body; the captured one when absent. */
  body?: unknown;
}

async function check(n: number, session: Session, path: string, opts: CheckOptions = {}) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const { body, ...compare } = opts;
  const sent = body !== undefined ? body : cap.request.body;
  const res = await http(tc, cap.request.method, path, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(sent !== null && sent !== undefined ? { body: sent } : {}),
  });
  return {
    res,
    diffs: compareCapture(cap, res.status, res.text === '' ? '' : res.body, { formats: true, ...compare }),
  };
}

/** The id at `path` of a capture's response body (`$.group.id` as ['group', 'id']). */
function capturedId(n: number, ...path: string[]): string {
  let v = loadCapture(n).response.body as Json;
  for (const k of path) v = (v as Record<string, Json>)[k] as Json;
  return v as string;
}

async function must(session: Session, method: string, path: string, body?: unknown, version = 'volume 3.20') {
  const res = await http(tc, method, path, {
    token: session.token,
    version,
    ...(body !== undefined ? { body } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;

async function volumeType(): Promise<string> {
  const body = await must(admin, 'POST', `${admin.volumeBase}/types`, {
    volume_type: { name: unique('grp-vt') },
  });
  return body.volume_type.id;
}
async function groupType(isPublic = true): Promise<string> {
  const body = await must(admin, 'POST', `${admin.volumeBase}/group_types`, {
    group_type: { name: unique('grp-gt'), is_public: isPublic },
  });
  return body.group_type.id;
}
async function group(typeId: string, volumeTypeId: string): Promise<string> {
  const body = await must(demo, 'POST', `${demo.volumeBase}/groups`, {
    group: { name: unique('grp'), group_type: typeId, volume_types: [volumeTypeId] },
  });
  await tc.settle();
  return body.group.id;
}
async function volumeIn(groupId: string, volumeTypeId: string): Promise<string> {
  const body = await must(demo, 'POST', `${demo.volumeBase}/volumes`, {
    volume: { size: 1, volume_type: volumeTypeId, group_id: groupId },
  });
  await tc.settle();
  return body.volume.id;
}

describe('group types (captures 940-952)', () => {
  it('lists the migration group type and 404s a default group type, as the reference has none', async () => {
    const listed = await check(940, admin, `${admin.volumeBase}/group_types`, {
      exact: ['$.group_types[*].name', '$.group_types[*].description', '$.group_types[*].group_specs'],
    });
    expect(listed.diffs).toEqual([]);
    const missing = await check(941, admin, `${admin.volumeBase}/group_types/default`, { exact: ['$'] });
    expect(missing.diffs).toEqual([]);
  });

  it('creates, updates and lists group types; members see no specs and no private type', async () => {
    const created = await check(942, admin, `${admin.volumeBase}/group_types`, {
      body: {
        group_type: {
          name: 'golden-gt-a',
          description: 'desc a',
          group_specs: { consistent_group_snapshot_enabled: '<is> False' },
          is_public: true,
        },
      },
      exact: ['$.group_type.description', '$.group_type.is_public', '$.group_type.group_specs'],
    });
    expect(created.diffs).toEqual([]);
    const id = created.res.body.group_type.id as string;
    const updated = await check(943, admin, `${admin.volumeBase}/group_types/${id}`, {
      body: { group_type: { name: 'golden-gt-a2', description: 'upd' } },
      exact: ['$.group_type.description', '$.group_type.group_specs'],
    });
    expect(updated.diffs).toEqual([]);
    const privateId = await groupType(false);
    const listed = await check(944, demo, `${demo.volumeBase}/group_types`);
    expect(listed.diffs).toEqual([]);
    expect(listed.res.body.group_types.map((t: { id: string }) => t.id)).not.toContain(privateId);
    const hidden = await check(945, demo, `${demo.volumeBase}/group_types/${privateId}`, {
      exact: ['$'],
      replaceIds: { [capturedId(945, 'itemNotFound', 'message').split(' ')[2] as string]: privateId },
    });
    expect(hidden.diffs).toEqual([]);
    const refused = await check(946, demo, `${demo.volumeBase}/group_types`, { exact: ['$'] });
    expect(refused.diffs).toEqual([]);
    const duplicate = await check(950, admin, `${admin.volumeBase}/group_types`, {
      body: { group_type: { name: 'golden-gt-a2' } },
      exact: ['$'],
      normalize: (v) => (typeof v === 'string' ? v.replace('grp-gt-a2', 'golden-gt-a2') : v),
    });
    expect(duplicate.diffs).toEqual([]);
    const below = await check(952, admin, `${admin.volumeBase}/group_types`, { exact: ['$'] });
    expect(below.diffs).toEqual([]);
  });

  it('keeps group specs as Cinder does, for admins only', async () => {
    const id = await groupType();
    const replaceIds = { [capturedId(942, 'group_type', 'id')]: id };
    const created = await check(947, admin, `${admin.volumeBase}/group_types/${id}/group_specs`, {
      exact: ['$'],
    });
    expect(created.diffs).toEqual([]);
    const shown = await check(948, admin, `${admin.volumeBase}/group_types/${id}/group_specs/key1`, {
      exact: ['$'],
    });
    expect(shown.diffs).toEqual([]);
    await must(admin, 'DELETE', `${admin.volumeBase}/group_types/${id}/group_specs/key1`);
    const missing = await check(949, admin, `${admin.volumeBase}/group_types/${id}/group_specs/key1`, {
      exact: ['$'],
      replaceIds,
    });
    expect(missing.diffs).toEqual([]);
    const refused = await check(951, demo, `${demo.volumeBase}/group_types/${id}/group_specs`, {
      exact: ['$'],
    });
    expect(refused.diffs).toEqual([]);
  });
});

describe('groups and their volumes (captures 953-959, 965-968)', () => {
  it('creates a group that becomes available and shows it as Cinder does at 3.13 and 3.20', async () => {
    const typeId = await groupType();
    const volumeTypeId = await volumeType();
    const created = await check(953, demo, `${demo.volumeBase}/groups`, {
      body: { group: { name: 'g1', description: 'first', group_type: typeId, volume_types: [volumeTypeId] } },
    });
    expect(created.diffs).toEqual([]);
    const id = created.res.body.group.id as string;
    await tc.settle();
    const shown = await check(954, demo, `${demo.volumeBase}/groups/${id}`, {
      exact: ['$.group.status', '$.group.availability_zone', '$.group.name', '$.group.description'],
    });
    expect(shown.diffs).toEqual([]);
    expect(shown.res.body.group.volume_types).toEqual([volumeTypeId]);
    expect(shown.res.body.group.group_type).toBe(typeId);
    const listed = await check(955, demo, `${demo.volumeBase}/groups/detail`, {
      exact: ['$.groups[*].group_snapshot_id', '$.groups[*].source_group_id'],
    });
    expect(listed.diffs).toEqual([]);
  });

  it('puts a volume of a type the group takes in it, refuses another type, and keeps it from delete', async () => {
    const typeId = await groupType();
    const volumeTypeId = await volumeType();
    const groupId = await group(typeId, volumeTypeId);
    const created = await check(956, demo, `${demo.volumeBase}/volumes`, {
      body: { volume: { name: 'gv1', size: 1, volume_type: volumeTypeId, group_id: groupId } },
    });
    expect(created.diffs).toEqual([]);
    expect(created.res.body.volume.group_id).toBe(groupId);
    const volumeId = created.res.body.volume.id as string;
    await tc.settle();

    const otherType = await volumeType();
    const refused = await check(957, demo, `${demo.volumeBase}/volumes`, {
      body: { volume: { name: 'gv2', size: 1, volume_type: otherType, group_id: groupId } },
    });
    expect(refused.diffs).toEqual([]);
    // The message prints the VolumeType object: the same words around our type's fields.
    const message = refused.res.body.badRequest.message as string;
    expect(message).toMatch(
      new RegExp(
        `^Invalid input received: Invalid volume_type provided: VolumeType\\(created_at=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,deleted=False,deleted_at=None,description=None,extra_specs=\\{\\},id=${otherType},is_public=True,name='grp-vt-[^']+',projects=\\[\\],qos_specs=<\\?>,qos_specs_id=None,updated_at=None\\) \\(requested type must be supported by this group\\)\\.$`,
      ),
    );

    const ids = {
      [capturedId(953, 'group', 'id')]: groupId,
    };
    const notEmpty = await check(958, demo, `${demo.volumeBase}/groups/${groupId}/action`, {
      exact: ['$'],
      replaceIds: ids,
    });
    expect(notEmpty.diffs).toEqual([]);
    const kept = await check(959, demo, `${demo.volumeBase}/volumes/${volumeId}`, { exact: ['$'] });
    expect(kept.diffs).toEqual([]);

    // With delete-volumes the group and its volume go.
    await must(demo, 'POST', `${demo.volumeBase}/groups/${groupId}/action`, {
      delete: { 'delete-volumes': true },
    });
    await tc.settle();
    const gone = await http(tc, 'GET', `${demo.volumeBase}/volumes/${volumeId}`, { token: demo.token });
    expect(gone.status).toBe(404);
    const groupGone = await http(tc, 'GET', `${demo.volumeBase}/groups/${groupId}`, {
      token: demo.token,
      version: 'volume 3.13',
    });
    expect(groupGone.body).toEqual({
      itemNotFound: { code: 404, message: `Group ${groupId} could not be found.` },
    });
  });

  it('adds the volumes when asked (3.25), the replication status (3.38) and, for admins, the project (3.58)', async () => {
    // As the reference answers at 3.70 (asked, not kept as a capture): `volumes` only with
    // list_volume, replication_status "disabled", project_id for admins only.
    const volumeTypeId = await volumeType();
    const groupId = await group(await groupType(), volumeTypeId);
    const volumeId = await volumeIn(groupId, volumeTypeId);
    const plain = await must(demo, 'GET', `${demo.volumeBase}/groups/${groupId}`, undefined, 'volume 3.70');
    expect(Object.keys(plain.group)).toEqual([
      'id',
      'status',
      'availability_zone',
      'created_at',
      'name',
      'description',
      'group_type',
      'volume_types',
      'group_snapshot_id',
      'source_group_id',
      'replication_status',
    ]);
    expect(plain.group.replication_status).toBe('disabled');
    const listed = await must(
      demo,
      'GET',
      `${demo.volumeBase}/groups/${groupId}?list_volume=True`,
      undefined,
      'volume 3.70',
    );
    expect(listed.group.volumes).toEqual([volumeId]);
    const asAdmin = await must(
      admin,
      'GET',
      `${admin.volumeBase}/groups/detail?all_tenants=1`,
      undefined,
      'volume 3.70',
    );
    const mine = asAdmin.groups.find((g: { id: string }) => g.id === groupId);
    expect(mine.project_id).toBe(demo.projectId);
    const snapshot = await must(demo, 'POST', `${demo.volumeBase}/group_snapshots`, {
      group_snapshot: { group_id: groupId },
    });
    await tc.settle();
    const id = snapshot.group_snapshot.id as string;
    const own = await must(demo, 'GET', `${demo.volumeBase}/group_snapshots/${id}`, undefined, 'volume 3.70');
    expect(own.group_snapshot).not.toHaveProperty('project_id');
    const all = await must(
      admin,
      'GET',
      `${admin.volumeBase}/group_snapshots/detail?all_tenants=1`,
      undefined,
      'volume 3.70',
    );
    expect(all.group_snapshots.find((g: { id: string }) => g.id === id).project_id).toBe(demo.projectId);
    // A snapshot of a group snapshot goes only with it (the reference's words).
    const snaps = await must(demo, 'GET', `${demo.volumeBase}/snapshots/detail`);
    const member = snaps.snapshots.find((x: { group_snapshot_id: string }) => x.group_snapshot_id === id);
    const refused = await http(tc, 'DELETE', `${demo.volumeBase}/snapshots/${member.id}`, {
      token: demo.token,
    });
    expect(refused.body).toEqual({
      badRequest: {
        code: 400,
        message:
          'Invalid snapshot: Snapshot status must be available or error and must not be part of a group.',
      },
    });
  });

  it('resets a group status for admins only, with the statuses Cinder names', async () => {
    const groupId = await group(await groupType(), await volumeType());
    const replaceIds = { [capturedId(953, 'group', 'id')]: groupId };
    const invalid = await check(965, admin, `${admin.volumeBase}/groups/${groupId}/action`, {
      exact: ['$'],
      replaceIds,
    });
    expect(invalid.diffs).toEqual([]);
    const refused = await check(966, demo, `${demo.volumeBase}/groups/${groupId}/action`, { exact: ['$'] });
    expect(refused.diffs).toEqual([]);
    await must(admin, 'POST', `${admin.volumeBase}/groups/${groupId}/action`, {
      reset_status: { status: 'error' },
    });
    const shown = await must(demo, 'GET', `${demo.volumeBase}/groups/${groupId}`);
    expect(shown.group.status).toBe('error');
  });

  it('refuses volumes to a group in error, keeps a volume type a group takes (asked the reference)', async () => {
    const volumeTypeId = await volumeType();
    const groupId = await group(await groupType(), volumeTypeId);
    const typeKept = await http(tc, 'DELETE', `${admin.volumeBase}/types/${volumeTypeId}`, {
      token: admin.token,
    });
    expect(typeKept.body).toEqual({
      badRequest: { code: 400, message: 'Target volume type is still in use.' },
    });
    const loose = (
      await must(demo, 'POST', `${demo.volumeBase}/volumes`, {
        volume: { size: 1, volume_type: volumeTypeId },
      })
    ).volume.id as string;
    await tc.settle();
    await must(admin, 'POST', `${admin.volumeBase}/groups/${groupId}/action`, {
      reset_status: { status: 'error' },
    });
    const created = await http(tc, 'POST', `${demo.volumeBase}/volumes`, {
      token: demo.token,
      version: 'volume 3.13',
      body: { volume: { size: 1, volume_type: volumeTypeId, group_id: groupId } },
    });
    expect(created.body).toEqual({
      badRequest: {
        code: 400,
        message: "Invalid Group: Originating group status must be one of 'available, creating' values",
      },
    });
    const added = await http(tc, 'PUT', `${demo.volumeBase}/groups/${groupId}`, {
      token: demo.token,
      version: 'volume 3.13',
      body: { group: { add_volumes: loose } },
    });
    expect(added.body).toEqual({
      badRequest: { code: 400, message: 'Invalid Group: Group status must be available.' },
    });
    // Its name still changes, and an empty group goes without delete-volumes.
    await must(demo, 'PUT', `${demo.volumeBase}/groups/${groupId}`, { group: { name: 'renamed' } });
    await must(demo, 'POST', `${demo.volumeBase}/groups/${groupId}/action`, {
      delete: { 'delete-volumes': false },
    });
    await tc.settle();
    const gone = await http(tc, 'GET', `${demo.volumeBase}/groups/${groupId}`, {
      token: demo.token,
      version: 'volume 3.13',
    });
    expect(gone.status).toBe(404);
  });

  it('filters groups and group snapshots as Cinder lets members do from 3.33 (asked the reference)', async () => {
    const volumeTypeId = await volumeType();
    const groupId = await group(await groupType(), volumeTypeId);
    const name = (await must(demo, 'GET', `${demo.volumeBase}/groups/${groupId}`)).group.name as string;
    const named = await must(demo, 'GET', `${demo.volumeBase}/groups?name=${name}`, undefined, 'volume 3.70');
    expect(named.groups.map((g: { id: string }) => g.id)).toEqual([groupId]);
    for (const [path, key] of [
      ['groups?status=available', 'status'],
      ['groups?bogus=1', 'bogus'],
      ['group_snapshots?group_type_id=x', 'group_type_id'],
    ] as const) {
      const refused = await http(tc, 'GET', `${demo.volumeBase}/${path}`, {
        token: demo.token,
        version: 'volume 3.70',
      });
      expect(refused.body).toEqual({
        badRequest: { code: 400, message: `Invalid filters ${key} are found in query options.` },
      });
    }
    const older = await must(demo, 'GET', `${demo.volumeBase}/groups?bogus=1`, undefined, 'volume 3.30');
    expect(Array.isArray(older.groups)).toBe(true);
    const snapshots = await must(
      demo,
      'GET',
      `${demo.volumeBase}/group_snapshots?group_id=${groupId}&status=available`,
      undefined,
      'volume 3.70',
    );
    expect(snapshots.group_snapshots).toEqual([]);
  });

  it("refuses a group of the migration's group type, by name or id (asked the reference)", async () => {
    const listed = await must(admin, 'GET', `${admin.volumeBase}/group_types`);
    const cg = listed.group_types.find((t: { name: string }) => t.name === 'default_cgsnapshot_type');
    for (const groupType of [cg.id, cg.name]) {
      const refused = await http(tc, 'POST', `${demo.volumeBase}/groups`, {
        token: demo.token,
        version: 'volume 3.13',
        body: { group: { group_type: groupType, volume_types: ['__DEFAULT__'] } },
      });
      expect(refused.body).toEqual({
        badRequest: {
          code: 400,
          message: `Group_type ${cg.id} is reserved for migrating CGs to groups. Migrated group can only be operated by CG APIs.`,
        },
      });
    }
  });

  it('keeps a group type that a group uses', async () => {
    const typeId = await groupType();
    await group(typeId, await volumeType());
    const kept = await check(968, admin, `${admin.volumeBase}/group_types/${typeId}`, {
      exact: ['$'],
      replaceIds: { [capturedId(942, 'group_type', 'id')]: typeId },
    });
    expect(kept.diffs).toEqual([]);
  });
});

describe('group snapshots (captures 960-964, 967, 969)', () => {
  it('snapshots every volume of a group, names the snapshots after it and makes a group from it', async () => {
    const volumeTypeId = await volumeType();
    const groupId = await group(await groupType(), volumeTypeId);
    const empty = await check(969, demo, `${demo.volumeBase}/group_snapshots`, {
      body: { group_snapshot: { group_id: groupId } },
      exact: ['$'],
    });
    expect(empty.diffs).toEqual([]);

    const volumeId = await volumeIn(groupId, volumeTypeId);
    const created = await check(960, demo, `${demo.volumeBase}/group_snapshots`, {
      body: { group_snapshot: { name: 'gs1', description: 'gsd', group_id: groupId } },
      exact: ['$.group_snapshot.name'],
    });
    expect(created.diffs).toEqual([]);
    const id = created.res.body.group_snapshot.id as string;
    await tc.settle();
    const shown = await check(961, demo, `${demo.volumeBase}/group_snapshots/${id}`, {
      exact: ['$.group_snapshot.status', '$.group_snapshot.name', '$.group_snapshot.description'],
    });
    expect(shown.diffs).toEqual([]);
    expect(shown.res.body.group_snapshot.group_id).toBe(groupId);

    const snapshots = await check(962, demo, `${demo.volumeBase}/snapshots/detail?volume_id=${volumeId}`, {
      exact: ['$.snapshots[*].name', '$.snapshots[*].description', '$.snapshots[*].status'],
    });
    expect(snapshots.diffs).toEqual([]);
    expect(snapshots.res.body.snapshots[0].volume_id).toBe(volumeId);
    expect(snapshots.res.body.snapshots[0].group_snapshot_id).toBe(id);

    const fromSnapshot = await check(963, demo, `${demo.volumeBase}/groups/action`, {
      body: { 'create-from-src': { name: 'g-from-gs', group_snapshot_id: id } },
      exact: ['$.group.name'],
    });
    expect(fromSnapshot.diffs).toEqual([]);
    await tc.settle();
    const copy = await must(demo, 'GET', `${demo.volumeBase}/groups/${fromSnapshot.res.body.group.id}`);
    expect(copy.group).toMatchObject({ status: 'available', group_snapshot_id: id, source_group_id: null });
    const volumes = await must(
      demo,
      'GET',
      `${demo.volumeBase}/volumes/detail?group_id=${fromSnapshot.res.body.group.id}`,
    );
    expect(volumes.volumes).toHaveLength(1);
    expect(volumes.volumes[0]).toMatchObject({ status: 'available', source_volid: null });

    const replaceIds = { [capturedId(953, 'group', 'id')]: groupId };
    const hasSnapshots = await check(967, demo, `${demo.volumeBase}/groups/${groupId}/action`, {
      exact: ['$'],
      replaceIds,
    });
    expect(hasSnapshots.diffs).toEqual([]);

    const invalid = await check(964, admin, `${admin.volumeBase}/group_snapshots/${id}/action`, {
      exact: ['$'],
    });
    expect(invalid.diffs).toEqual([]);

    // Deleting the group snapshot takes its snapshots with it.
    await must(demo, 'DELETE', `${demo.volumeBase}/group_snapshots/${id}`);
    await tc.settle();
    const left = await must(demo, 'GET', `${demo.volumeBase}/snapshots/detail`);
    expect(left.snapshots.filter((s: { volume_id: string }) => s.volume_id === volumeId)).toEqual([]);
  });

  it('counts groups in the quota set and refuses one over the limit', async () => {
    const typeId = await groupType();
    const volumeTypeId = await volumeType();
    const before = await must(demo, 'GET', `${demo.volumeBase}/os-quota-sets/${demo.projectId}?usage=True`);
    const inUse = before.quota_set.groups.in_use as number;
    expect(before.quota_set.groups.limit).toBe(10);
    await must(admin, 'PUT', `${admin.volumeBase}/os-quota-sets/${demo.projectId}`, {
      quota_set: { groups: inUse },
    });
    const refused = await http(tc, 'POST', `${demo.volumeBase}/groups`, {
      token: demo.token,
      version: 'volume 3.13',
      body: { group: { group_type: typeId, volume_types: [volumeTypeId] } },
    });
    expect(refused.status).toBe(413);
    expect(refused.body.overLimit.message).toBe(
      `GroupLimitExceeded: Maximum number of groups allowed (${inUse}) exceeded`,
    );
    await must(admin, 'PUT', `${admin.volumeBase}/os-quota-sets/${demo.projectId}`, {
      quota_set: { groups: 10 },
    });
  });
});
