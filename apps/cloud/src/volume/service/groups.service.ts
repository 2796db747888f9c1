import type { Store, Tx } from '../../platform/db/store.js';
import { badRequest, notFound, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { newUuid } from '../../platform/ids.js';
import type { TaskRunner } from '../../platform/tasks.js';
import { nowIso } from '../../platform/time.js';
import { glanceMetadataStore } from '../store/glance-metadata.store.js';
import { type GroupRecord, type GroupSnapshotRow, groupsStore } from '../store/groups.store.js';
import { type SnapshotRow, snapshotsStore } from '../store/snapshots.store.js';
import { type VolumeRow, volumesStore } from '../store/volumes.store.js';
import { BACKEND, type Backend } from './backend.js';
import type { Caller } from './caller.js';
import { CGSNAPSHOT_GROUP_TYPE, type GroupTypesService } from './group-types.service.js';
import { invalidSortKey, type ListParams, paginate, processSortParams } from './paging.js';
import { checkGroupQuota, checkSnapshotQuota, checkVolumeQuota } from './quotas.service.js';
import type { TypesService } from './types.service.js';

export const groupNotFound = (id: string) => notFound(`Group ${id} could not be found.`);
export const groupSnapshotNotFound = (id: string) => notFound(`GroupSnapshot ${id} could not be found.`);
const invalidGroup = (reason: string) => badRequest(`Invalid Group: ${reason}`);
const invalidVolume = (reason: string) => badRequest(`Invalid volume: ${reason}`);

/** objects/fields.py GroupStatus.ALL and GroupSnapshotStatus.ALL, in Cinder's order (captures 954, 955). */
export const GROUP_STATUSES = [
  'error',
  'available',
  'creating',
  'deleting',
  'deleted',
  'updating',
  'in-use',
  'error_deleting',
] as const;
export const GROUP_SNAPSHOT_STATUSES = [
  'error',
  'available',
  'creating',
  'deleting',
  'deleted',
  'updating',
  'error_deleting',
] as const;
const pyTuple = (items: readonly string[]) => `(${items.map((s) => `'${s}'`).join(', ')})`;

/** policies/groups.py and group_snapshots.py (Zed): project members, resets for admins. */
export const GROUP_RULES = {
  create: 'group:create',
  update: 'group:update',
  delete: 'group:delete',
  resetStatus: 'group:reset_status',
  createSnapshot: 'group:create_group_snapshot',
  deleteSnapshot: 'group:delete_group_snapshot',
  resetSnapshotStatus: 'group:reset_group_snapshot_status',
} as const;

/** Volume states a volume may join or leave a group in (group/api.py VALID_*_VOL_*_GROUP_STATUS). */
const ADD_STATUSES = ['available', 'in-use'];
const REMOVE_STATUSES = ['available', 'in-use', 'error', 'error_deleting'];

// No prototype: the keys come from the request.
const GROUP_SORTABLE: Record<string, keyof GroupRecord> = Object.assign(Object.create(null), {
  id: 'id',
  name: 'name',
  description: 'description',
  status: 'status',
  availability_zone: 'availability_zone',
  group_type_id: 'group_type_id',
  created_at: 'created_at',
  updated_at: 'updated_at',
});
const SNAPSHOT_SORTABLE: Record<string, keyof GroupSnapshotRow> = Object.assign(Object.create(null), {
  id: 'id',
  name: 'name',
  description: 'description',
  status: 'status',
  group_id: 'group_id',
  group_type_id: 'group_type_id',
  created_at: 'created_at',
  updated_at: 'updated_at',
});

/** resource_filters.json: what members may filter groups and group snapshots on from 3.33 (asked the reference). */
const MEMBER_GROUP_FILTERS = ['name'];
const MEMBER_GROUP_SNAPSHOT_FILTERS = ['name', 'status', 'group_id'];

/**
 * reject_invalid_filters: from 3.33 a member naming another filter gets a 400; what remains
 * (but `all_tenants` and `list_volume`) is matched exactly against the columns it names.
 */
function checkedFilters(
  caller: Caller,
  version: Microversion,
  params: ListParams,
  allowed: readonly string[],
): Record<string, string> {
  const raw = params.filters.without('all_tenants', 'list_volume').toRecord();
  if (!caller.isAdmin && version.atLeast('3.33')) {
    const invalid = Object.keys(raw).filter((k) => !allowed.includes(k));
    if (invalid.length > 0)
      throw badRequest(`Invalid filters ${invalid.join(',')} are found in query options.`);
  }
  return raw;
}

/** An exact match on every filter that names a column; other keys are not the query's. */
function matches<T>(row: T, filters: Record<string, string>, columns: Record<string, keyof T>): boolean {
  return Object.entries(filters).every(([k, v]) => {
    const col = columns[k];
    return col === undefined || String(row[col] ?? '') === v;
  });
}

/**
 * A list of groups or group snapshots: the caller's filters checked, matched on the columns they
 * name, then sorted and paged from the marker as Cinder pages volumes.
 */
async function listed<T>(
  caller: Caller,
  version: Microversion,
  params: ListParams,
  of: {
    memberFilters: readonly string[];
    columns: Record<string, keyof T>;
    rows: () => Promise<T[]>;
    marker: (id: string) => Promise<T>;
  },
): Promise<T[]> {
  const filters = checkedFilters(caller, version, params, of.memberFilters);
  const sort = processSortParams(params.sortKeys, params.sortDirs);
  for (const k of sort.keys) if (!(k in of.columns)) throw invalidSortKey();
  const rows = (await of.rows()).filter((r) => matches(r, filters, of.columns));
  const marker = params.marker !== null ? await of.marker(params.marker) : null;
  const sortValue = (r: T, k: string) => {
    const v = r[of.columns[k] as keyof T];
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  };
  return paginate(rows, sort, sortValue, marker, params.offset, params.limit);
}

/** Comma-separated volume ids, as add_volumes / remove_volumes carry them. */
const idList = (s: string | null | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The emulated backend's group steps; each re-reads the state in its own transaction. */
export const groupBackendSteps = {
  /** creating or updating -> available. */
  settleGroup: (store: Store, groupId: string, from: 'creating' | 'updating') =>
    store.transaction((tx) =>
      groupsStore.updateGroupIfStatus(tx, groupId, from, { status: 'available', updated_at: nowIso() }),
    ),

  /** The volume manager's delete_group: the group's volumes, then the group. */
  finishGroupDelete: (store: Store, groupId: string) =>
    store.transaction(async (tx) => {
      const g = await groupsStore.lockGroup(store, tx, groupId);
      if (g?.status !== 'deleting') return false;
      for (const volumeId of await groupsStore.volumeIdsOf(tx, groupId)) {
        await glanceMetadataStore.deleteAll(tx, volumeId);
        await volumesStore.delete(tx, volumeId);
      }
      await groupsStore.deleteGroup(tx, groupId);
      return true;
    }),

  settleGroupSnapshot: (store: Store, id: string) =>
    store.transaction((tx) =>
      groupsStore.updateGroupSnapshotIfStatus(tx, id, 'creating', {
        status: 'available',
        updated_at: nowIso(),
      }),
    ),

  /** A deleting group snapshot goes with its snapshots. */
  finishGroupSnapshotDelete: (store: Store, id: string) =>
    store.transaction(async (tx) => {
      const gs = await groupsStore.lockGroupSnapshot(store, tx, id);
      if (gs?.status !== 'deleting') return false;
      for (const snapshotId of await groupsStore.snapshotIdsOf(tx, id)) {
        await glanceMetadataStore.deleteAll(tx, snapshotId);
        await snapshotsStore.delete(tx, snapshotId);
      }
      await groupsStore.deleteGroupSnapshot(tx, id);
      return true;
    }),
};

/**
 * Cinder's generic volume groups and group snapshots (v3/groups.py, group_snapshots.py,
 * group/api.py). The emulated backend moves them on at once or after the cloud's backend delay,
 * as it does volumes: creating -> available, updating -> available, deleting -> gone.
 */
export function createGroupsService(deps: {
  store: Store;
  tasks: TaskRunner;
  backend: Backend;
  types: TypesService;
  groupTypes: GroupTypesService;
}) {
  const { store, tasks, backend, types, groupTypes } = deps;
  const db = store.db;

  const visibleGroup = (caller: Caller, g: GroupRecord | undefined, id: string): GroupRecord => {
    if (!g || (!caller.isAdmin && g.project_id !== caller.projectId)) throw groupNotFound(id);
    return g;
  };
  const visibleGroupSnapshot = (caller: Caller, s: GroupSnapshotRow | undefined, id: string) => {
    if (!s || (!caller.isAdmin && s.project_id !== caller.projectId)) throw groupSnapshotNotFound(id);
    return s;
  };

  const getGroup = async (caller: Caller, id: string) =>
    visibleGroup(caller, await groupsStore.groupById(db, id), id);
  const getGroupSnapshot = async (caller: Caller, id: string) =>
    visibleGroupSnapshot(caller, await groupsStore.groupSnapshotById(db, id), id);

  // The emulated backend: each step runs after the backend delay (groupBackendSteps below).
  const settleGroup = (groupId: string, from: 'creating' | 'updating') =>
    tasks.schedule(`volume.group.${from === 'creating' ? 'create' : 'update'}`, async () => {
      await groupBackendSteps.settleGroup(store, groupId, from);
    });
  const finishGroupDelete = (groupId: string) =>
    tasks.schedule('volume.group.delete', async () => {
      await groupBackendSteps.finishGroupDelete(store, groupId);
    });
  const settleGroupSnapshot = (id: string) =>
    tasks.schedule('volume.group_snapshot.create', async () => {
      await groupBackendSteps.settleGroupSnapshot(store, id);
    });
  const finishGroupSnapshotDelete = (id: string) =>
    tasks.schedule('volume.group_snapshot.delete', async () => {
      await groupBackendSteps.finishGroupSnapshotDelete(store, id);
    });

  /** A new group's row and its volume types, after the group quota (GroupLimitExceeded). */
  async function insertGroup(
    tx: Tx,
    caller: Caller,
    fields: Pick<
      GroupRecord,
      'name' | 'description' | 'group_type_id' | 'group_snapshot_id' | 'source_group_id'
    >,
    volumeTypeIds: string[],
    availabilityZone: string,
  ): Promise<GroupRecord> {
    await checkGroupQuota(tx, caller.projectId);
    const row = {
      id: newUuid(),
      project_id: caller.projectId,
      user_id: caller.userId,
      status: 'creating',
      availability_zone: availabilityZone,
      created_at: nowIso(),
      updated_at: null,
      ...fields,
    };
    await groupsStore.insertGroup(tx, row, volumeTypeIds);
    return { ...row, volumeTypeIds };
  }

  /** A volume of the new group copied from a source volume or snapshot (create-from-src). */
  async function insertCopy(
    tx: Tx,
    caller: Caller,
    groupId: string,
    from: { volume: VolumeRow; snapshot: SnapshotRow | null },
  ): Promise<VolumeRow> {
    const src = from.volume;
    await checkVolumeQuota(tx, caller.projectId, src.volume_type_id, src.size, true, src.size);
    const row: VolumeRow = {
      ...src,
      id: newUuid(),
      project_id: caller.projectId,
      user_id: caller.userId,
      name: null,
      description: null,
      status: 'creating',
      attach_status: 'detached',
      bootable: 0,
      host: null,
      metadata: '{}',
      readonly_flag: null,
      migration_status: null,
      snapshot_id: from.snapshot ? from.snapshot.id : null,
      source_volid: from.snapshot ? null : src.id,
      encrypted: 0,
      created_at: nowIso(),
      updated_at: null,
      launched_at: null,
    };
    await volumesStore.insert(tx, row);
    await glanceMetadataStore.copy(tx, from.snapshot ? from.snapshot.id : src.id, 'volume', row.id);
    await groupsStore.addVolume(tx, groupId, row.id);
    return row;
  }

  return {
    getGroup,
    getGroupSnapshot,
    /** The ids of a group's volumes (3.25 `list_volume`). */
    volumeIdsOf: (groupId: string) => groupsStore.volumeIdsOf(db, groupId),

    async listGroups(
      caller: Caller,
      version: Microversion,
      params: ListParams,
      allTenants: boolean,
    ): Promise<GroupRecord[]> {
      return listed(caller, version, params, {
        memberFilters: MEMBER_GROUP_FILTERS,
        columns: GROUP_SORTABLE,
        rows: () => groupsStore.groups(db, caller.isAdmin && allTenants ? null : caller.projectId),
        marker: (id) => getGroup(caller, id),
      });
    },

    /** POST /groups: the group type, then the volume types, by name or id (capture 953). */
    async create(
      caller: Caller,
      input: {
        name: string | null;
        description: string | null;
        groupType: string;
        volumeTypes: string[];
        availabilityZone: string | null;
      },
    ): Promise<GroupRecord> {
      const groupType = await groupTypes.byNameOrId(caller, input.groupType);
      // The migration's group type is the consistency group APIs' alone (asked the reference).
      if (groupType.name === CGSNAPSHOT_GROUP_TYPE.name) {
        throw badRequest(
          `Group_type ${groupType.id} is reserved for migrating CGs to groups. Migrated group can only be operated by CG APIs.`,
        );
      }
      const volumeTypeIds: string[] = [];
      for (const t of input.volumeTypes) volumeTypeIds.push((await types.byNameOrId(caller, t)).id);
      assertProjectWriter(caller, GROUP_RULES.create);
      const az = input.availabilityZone ?? BACKEND.availabilityZone;
      if (az !== BACKEND.availabilityZone) {
        throw badRequest(`Invalid input received: Availability zone '${az}' is invalid.`);
      }
      const group = await store.transaction((tx) =>
        insertGroup(
          tx,
          caller,
          {
            name: input.name,
            description: input.description,
            group_type_id: groupType.id,
            group_snapshot_id: null,
            source_group_id: null,
          },
          [...new Set(volumeTypeIds)],
          az,
        ),
      );
      settleGroup(group.id, 'creating');
      return group;
    },

    /** create-from-src (3.14): a copy of every volume of the source group or group snapshot. */
    async createFromSource(
      caller: Caller,
      input: {
        name: string | null;
        description: string | null;
        sourceGroupId: string | null;
        groupSnapshotId: string | null;
      },
    ): Promise<GroupRecord> {
      assertProjectWriter(caller, GROUP_RULES.create);
      const { group, volumeIds } = await store.transaction(async (tx) => {
        let sources: { volume: VolumeRow; snapshot: SnapshotRow | null }[];
        let template: GroupRecord;
        if (input.groupSnapshotId !== null) {
          const gs = visibleGroupSnapshot(
            caller,
            await groupsStore.lockGroupSnapshot(store, tx, input.groupSnapshotId),
            input.groupSnapshotId,
          );
          if (gs.status !== 'available') {
            throw badRequest(
              `Invalid GroupSnapshot: Group snapshot ${gs.id} status must be available, but current status is: ${gs.status}.`,
            );
          }
          template = visibleGroup(caller, await groupsStore.groupById(tx, gs.group_id), gs.group_id);
          sources = [];
          for (const snap of await snapshotsStore.byIds(tx, await groupsStore.snapshotIdsOf(tx, gs.id))) {
            const volume = await volumesStore.byId(tx, snap.volume_id);
            if (volume) sources.push({ volume: { ...volume, size: snap.volume_size }, snapshot: snap });
          }
        } else {
          const id = input.sourceGroupId as string;
          template = visibleGroup(caller, await groupsStore.lockGroup(store, tx, id), id);
          if (template.status !== 'available') {
            throw invalidGroup(
              `Source group ${id} status must be available, but current status is: ${template.status}.`,
            );
          }
          const volumes = await volumesStore.byIds(tx, await groupsStore.volumeIdsOf(tx, id));
          sources = volumes.map((volume) => ({ volume, snapshot: null }));
        }
        const created = await insertGroup(
          tx,
          caller,
          {
            name: input.name,
            description: input.description,
            group_type_id: template.group_type_id,
            group_snapshot_id: input.groupSnapshotId,
            source_group_id: input.groupSnapshotId !== null ? null : template.id,
          },
          template.volumeTypeIds,
          template.availability_zone,
        );
        const copies: string[] = [];
        for (const source of sources) copies.push((await insertCopy(tx, caller, created.id, source)).id);
        return { group: created, volumeIds: copies };
      });
      for (const id of volumeIds) {
        const v = await volumesStore.byId(db, id);
        const t = v ? await types.byNameOrId({ ...caller, isAdmin: true }, v.volume_type_id) : null;
        if (t) backend.scheduleCreate(id, t.extraSpecs, false);
      }
      settleGroup(group.id, 'creating');
      return group;
    },

    /**
     * PUT /groups/{id}: name and description at once; volumes join and leave while the group is
     * `updating`, which the backend ends (captures 944-947).
     */
    async update(
      caller: Caller,
      id: string,
      input: {
        name?: string | null;
        description?: string | null;
        addVolumes?: string | null;
        removeVolumes?: string | null;
      },
    ): Promise<void> {
      const add = idList(input.addVolumes);
      const remove = idList(input.removeVolumes);
      const changesMembers = add.length > 0 || remove.length > 0;
      await store.transaction(async (tx) => {
        const g = visibleGroup(caller, await groupsStore.lockGroup(store, tx, id), id);
        assertProjectWriter(caller, GROUP_RULES.update);
        if (input.name == null && input.description == null && !changesMembers) {
          throw invalidGroup(
            'Name, description, add_volumes, and remove_volumes can not be all empty in the request body.',
          );
        }
        await volumesStore.lockByIds(store, tx, [...add, ...remove]);
        const members = await groupsStore.groupIdsOfVolumes(tx, [...add, ...remove]);
        for (const volumeId of remove) {
          const v = await volumesStore.byId(tx, volumeId);
          if (!v || members.get(volumeId) !== id) {
            throw invalidVolume(
              `Cannot remove volume ${volumeId} from group ${id} because it is not in the group.`,
            );
          }
          if (!REMOVE_STATUSES.includes(v.status)) {
            throw invalidVolume(
              `Cannot remove volume ${volumeId} from group ${id} because volume is in an invalid state: ${v.status}. Valid states are: ${pyTuple(REMOVE_STATUSES)}.`,
            );
          }
        }
        for (const volumeId of add) {
          const v = await volumesStore.byId(tx, volumeId);
          if (!v || v.project_id !== g.project_id) {
            throw invalidVolume(
              `Cannot add volume ${volumeId} to group ${id} because volume cannot be found.`,
            );
          }
          const current = members.get(volumeId);
          if (current !== undefined) {
            throw invalidVolume(
              `Cannot add volume ${volumeId} to group ${id} because it is already in group ${current}.`,
            );
          }
          if (!g.volumeTypeIds.includes(v.volume_type_id)) {
            throw invalidVolume(
              `Cannot add volume ${volumeId} to group ${id} because volume type ${v.volume_type_id} is not supported by the group.`,
            );
          }
          if (!ADD_STATUSES.includes(v.status)) {
            throw invalidVolume(
              `Cannot add volume ${volumeId} to group ${id} because volume is in an invalid state: ${v.status}. Valid states are: ${pyTuple(ADD_STATUSES)}.`,
            );
          }
        }
        // The volumes are checked before the group's state (asked the reference).
        if (changesMembers && g.status !== 'available') throw invalidGroup('Group status must be available.');
        for (const volumeId of remove) await groupsStore.removeVolume(tx, volumeId);
        for (const volumeId of add) await groupsStore.addVolume(tx, id, volumeId);
        await groupsStore.updateGroup(tx, id, {
          ...(input.name != null ? { name: input.name } : {}),
          ...(input.description != null ? { description: input.description } : {}),
          ...(changesMembers ? { status: 'updating' } : {}),
          updated_at: nowIso(),
        });
      });
      if (changesMembers) settleGroup(id, 'updating');
    },

    /** The `delete` action (captures 943, 948, 949): with `delete-volumes` its volumes go too. */
    async remove(caller: Caller, id: string, deleteVolumes: boolean): Promise<void> {
      await store.transaction(async (tx) => {
        const g = visibleGroup(caller, await groupsStore.lockGroup(store, tx, id), id);
        assertProjectWriter(caller, GROUP_RULES.delete);
        if (!deleteVolumes && !['available', 'error'].includes(g.status)) {
          throw invalidGroup(`Group status must be available or error, but current status is: ${g.status}`);
        }
        if ((await groupsStore.groupSnapshotsOfGroup(tx, id)).length > 0) {
          throw invalidGroup('Group has existing snapshots.');
        }
        const volumeIds = await groupsStore.volumeIdsOf(tx, id);
        if (volumeIds.length > 0 && !deleteVolumes) {
          throw invalidGroup(
            `Group ${id} still contains volumes. The delete-volumes flag is required to delete it.`,
          );
        }
        await volumesStore.lockByIds(store, tx, volumeIds);
        for (const v of await volumesStore.byIds(tx, volumeIds)) {
          if (v.attach_status === 'attached') {
            throw invalidGroup(`Volume in group ${id} is attached. Need to detach first.`);
          }
          if ((await snapshotsStore.forVolume(tx, v.id)).length > 0) {
            throw invalidGroup('Volume in group still has dependent snapshots.');
          }
        }
        for (const volumeId of volumeIds) {
          await volumesStore.update(tx, volumeId, { status: 'deleting', updated_at: nowIso() });
        }
        await groupsStore.updateGroup(tx, id, { status: 'deleting', updated_at: nowIso() });
      });
      finishGroupDelete(id);
    },

    /** reset_status (3.20): admins only, after the lookup. */
    async resetStatus(caller: Caller, id: string, status: string): Promise<void> {
      const s = status.toLowerCase();
      if (!(GROUP_STATUSES as readonly string[]).includes(s)) {
        throw badRequest(
          `Invalid Group Status: Group status: ${status} is invalid, valid status are: ${pyTuple(GROUP_STATUSES)}.`,
        );
      }
      await store.transaction(async (tx) => {
        visibleGroup(caller, await groupsStore.lockGroup(store, tx, id), id);
        if (!caller.isAdmin) throw policyForbidden(GROUP_RULES.resetStatus);
        await groupsStore.updateGroup(tx, id, { status: s, updated_at: nowIso() });
      });
    },

    // --- group snapshots ---
    async listGroupSnapshots(
      caller: Caller,
      version: Microversion,
      params: ListParams,
      allTenants: boolean,
    ): Promise<GroupSnapshotRow[]> {
      return listed(caller, version, params, {
        memberFilters: MEMBER_GROUP_SNAPSHOT_FILTERS,
        columns: SNAPSHOT_SORTABLE,
        rows: () => groupsStore.groupSnapshots(db, caller.isAdmin && allTenants ? null : caller.projectId),
        marker: (id) => getGroupSnapshot(caller, id),
      });
    },

    /** POST /group_snapshots: a snapshot of every volume of the group, named as the group snapshot. */
    async createGroupSnapshot(
      caller: Caller,
      input: { groupId: string; name: string | null; description: string | null },
    ): Promise<GroupSnapshotRow> {
      const { row, snapshotIds } = await store.transaction(async (tx) => {
        const g = visibleGroup(caller, await groupsStore.lockGroup(store, tx, input.groupId), input.groupId);
        assertProjectWriter(caller, GROUP_RULES.createSnapshot);
        const volumeIds = await groupsStore.volumeIdsOf(tx, g.id);
        if (volumeIds.length === 0 || ['creating', 'updating'].includes(g.status)) {
          throw invalidGroup(
            "Source group cannot be empty or in 'creating' or 'updating' state. No group snapshot will be created.",
          );
        }
        const gs: GroupSnapshotRow = {
          id: newUuid(),
          project_id: caller.projectId,
          user_id: caller.userId,
          group_id: g.id,
          group_type_id: g.group_type_id,
          name: input.name,
          description: input.description,
          status: 'creating',
          created_at: nowIso(),
          updated_at: null,
        };
        await groupsStore.insertGroupSnapshot(tx, gs);
        await volumesStore.lockByIds(store, tx, volumeIds);
        const ids: string[] = [];
        for (const v of await volumesStore.byIds(tx, volumeIds)) {
          await checkSnapshotQuota(tx, caller.projectId, v.volume_type_id, v.size);
          const snap: SnapshotRow = {
            id: newUuid(),
            project_id: caller.projectId,
            user_id: caller.userId,
            volume_id: v.id,
            name: input.name,
            description: input.description,
            status: 'creating',
            progress: '0%',
            volume_size: v.size,
            volume_type_id: v.volume_type_id,
            metadata: '{}',
            created_at: nowIso(),
            updated_at: null,
          };
          await snapshotsStore.insert(tx, snap);
          await glanceMetadataStore.copy(tx, v.id, 'snapshot', snap.id);
          await groupsStore.addSnapshot(tx, gs.id, snap.id);
          ids.push(snap.id);
        }
        return { row: gs, snapshotIds: ids };
      });
      for (const id of snapshotIds) backend.scheduleSnapshotCreate(id);
      settleGroupSnapshot(row.id);
      return row;
    },

    async removeGroupSnapshot(caller: Caller, id: string): Promise<void> {
      await store.transaction(async (tx) => {
        const gs = visibleGroupSnapshot(caller, await groupsStore.lockGroupSnapshot(store, tx, id), id);
        assertProjectWriter(caller, GROUP_RULES.deleteSnapshot);
        if (!['available', 'error'].includes(gs.status)) {
          throw badRequest(
            `Invalid GroupSnapshot: Group snapshot status must be available or error, and no Group can be currently using it as source for its creation.`,
          );
        }
        for (const snapshotId of await groupsStore.snapshotIdsOf(tx, id)) {
          await snapshotsStore.update(tx, snapshotId, { status: 'deleting', updated_at: nowIso() });
        }
        await groupsStore.updateGroupSnapshot(tx, id, { status: 'deleting', updated_at: nowIso() });
      });
      finishGroupSnapshotDelete(id);
    },

    /** reset_status (3.19): admins only, after the lookup. */
    async resetGroupSnapshotStatus(caller: Caller, id: string, status: string): Promise<void> {
      const s = status.toLowerCase();
      if (!(GROUP_SNAPSHOT_STATUSES as readonly string[]).includes(s)) {
        throw badRequest(
          `Invalid GroupSnapshot Status: Group snapshot status: ${status} is invalid, valid statuses are: ${pyTuple(GROUP_SNAPSHOT_STATUSES)}.`,
        );
      }
      await store.transaction(async (tx) => {
        visibleGroupSnapshot(caller, await groupsStore.lockGroupSnapshot(store, tx, id), id);
        if (!caller.isAdmin) throw policyForbidden(GROUP_RULES.resetSnapshotStatus);
        await groupsStore.updateGroupSnapshot(tx, id, { status: s, updated_at: nowIso() });
      });
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
