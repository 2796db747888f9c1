import { checkSnapshotQuota } from './quotas.service.js';
import type { Store, Tx } from '../../platform/db/store.js';
import { badRequest, notFound, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { glanceMetadataStore } from '../store/glance-metadata.store.js';
import { type SnapshotColumn, type SnapshotRow, snapshotsStore } from '../store/snapshots.store.js';
import { volumesStore } from '../store/volumes.store.js';
// --- cloud-groups ---
import { groupsStore } from '../store/groups.store.js';
import { BACKEND } from './backend.js';
import type { Caller } from './caller.js';
import { boolParam, invalidSortKey, type ListParams, paginate, processSortParams } from './paging.js';
import { literalEval, type PyValue } from './py-literal.js';
import { volumeNotFound } from './volumes.service.js';

export const snapshotNotFound = (id: string) => notFound(`Snapshot ${id} could not be found.`);
const invalidVolume = (reason: string) => badRequest(`Invalid volume: ${reason}`);
const invalidSnapshot = (reason: string) => badRequest(`Invalid snapshot: ${reason}`);
export const snapshotMetadataNotFound = (id: string, key: string) =>
  notFound(`Snapshot ${id} has no metadata with key ${key}.`);

/** objects/fields.py SnapshotStatus.ALL, in Cinder's order. */
export const SNAPSHOT_STATUSES = [
  'error',
  'available',
  'creating',
  'deleting',
  'deleted',
  'updating',
  'error_deleting',
  'unmanaging',
  'backing-up',
  'restoring',
] as const;

/** The microversion from which in-use volumes are snapshotted without `force` (3.66). */
export const SNAPSHOT_IN_USE_FLAG_MSG =
  "Since microversion 3.66 the 'force' flag is invalid for this request.  For backward compatability, however, when the 'force' flag is passed with a value evaluating to True, it is silently ignored.";

/** The Snapshot model's columns, by the name filters and sort keys use. */
const COLUMNS: Record<string, SnapshotColumn> = Object.assign(Object.create(null), {
  id: 'id',
  display_name: 'name',
  display_description: 'description',
  status: 'status',
  progress: 'progress',
  volume_id: 'volume_id',
  volume_size: 'volume_size',
  volume_type_id: 'volume_type_id',
  project_id: 'project_id',
  user_id: 'user_id',
  created_at: 'created_at',
  updated_at: 'updated_at',
});
/** Model columns that are always NULL here: valid sort keys. */
const NULL_COLUMNS = new Set([
  'cgsnapshot_id',
  'group_snapshot_id',
  'provider_location',
  'provider_id',
  'provider_auth',
  'encryption_key_id',
  'deleted_at',
]);
/** What members may filter on (v3 `_get_snapshot_filter_options`); other keys are dropped. */
const MEMBER_FILTERS = ['status', 'volume_id', 'name', 'metadata'];
/** resource_filters.json `snapshot`: what members may name from 3.31 without a 400. */
const MEMBER_FILTERS_RESOURCE = ['name', 'status', 'volume_id', 'metadata', 'availability_zone'];

export interface CreateSnapshotInput {
  volumeId: string;
  name: string | null;
  description: string | null;
  metadata: Record<string, string> | null;
  /** The `force` flag as given (undefined when absent). */
  force: boolean | undefined;
}

const metadataOf = (s: SnapshotRow): Record<string, string> =>
  Object.assign(Object.create(null), JSON.parse(s.metadata || '{}') as Record<string, string>);

/** utils.check_metadata_properties, as InvalidVolumeMetadata words it. */
function checkMetadata(metadata: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(metadata)) {
    if (k.length < 1) {
      throw badRequest(
        `Invalid metadata: Invalid input received: Metadata key: ${k} has 0 characters, less than 1.`,
      );
    }
    if (typeof v !== 'string') {
      throw badRequest(
        `Invalid metadata: Invalid input received: Value for metadata key: ${k} is not a string or unicode`,
      );
    }
  }
}

/**
 * Cinder's snapshots (`v3/snapshots.py`, `volume/api.py`), their metadata, the admin and
 * snapshot actions, and the rules that tie them to their volumes. The backend (`backend.ts`)
 * takes a snapshot from creating to available and removes a deleting one.
 */
export function createSnapshotsService(deps: {
  store: Store;
  scheduleCreate(snapshotId: string): void;
  scheduleDelete(snapshotId: string): void;
}) {
  const { store } = deps;
  const db = store.db;

  const visible = (caller: Caller, s: SnapshotRow | undefined, id: string): SnapshotRow => {
    if (!s || (!caller.isAdmin && s.project_id !== caller.projectId)) throw snapshotNotFound(id);
    return s;
  };

  async function get(caller: Caller, id: string): Promise<SnapshotRow> {
    return visible(caller, await snapshotsStore.byId(db, id), id);
  }

  async function list(
    caller: Caller,
    version: Microversion,
    params: ListParams,
  ): Promise<{ rows: SnapshotRow[]; count?: number }> {
    let filters = params.filters;
    let withCount = false;
    if (version.atLeast('3.45') && filters.has('with_count')) {
      withCount = boolParam('with_count', filters.get('with_count'));
      filters = filters.without('with_count');
    }
    let raw = filters.toRecord();
    if (!caller.isAdmin) {
      if (version.atLeast('3.31')) {
        const invalid = Object.keys(raw).filter(
          (k) => !MEMBER_FILTERS_RESOURCE.includes(k) && k !== 'all_tenants',
        );
        if (invalid.length > 0) {
          throw badRequest(`Invalid filters ${invalid.join(',')} are found in query options.`);
        }
      }
      if (version.below('3.22')) delete raw['metadata'];
      raw = Object.fromEntries(Object.entries(raw).filter(([k]) => MEMBER_FILTERS.includes(k)));
    } else if (version.below('3.22')) {
      delete raw['metadata'];
    }
    const allTenants = caller.isAdmin && boolParam('all_tenants', raw['all_tenants']);
    delete raw['all_tenants'];
    const sortKeys = params.sortKeys.map((k) =>
      k === 'name' && version.atLeast('3.30') ? 'display_name' : k,
    );
    const sort = processSortParams(sortKeys, params.sortDirs);
    for (const k of sort.keys) if (!(k in COLUMNS) && !NULL_COLUMNS.has(k)) throw invalidSortKey();

    const exact: Partial<Record<SnapshotColumn, string | number>> = {};
    let metadataFilter: Record<string, PyValue> | null = null;
    const empty = { rows: [], ...(withCount ? { count: 0 } : {}) };
    for (const [key, value] of Object.entries(raw)) {
      const k = key === 'name' ? 'display_name' : key;
      if (k === 'metadata') {
        const parsed = literalEval(value);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return empty;
        metadataFilter = parsed;
      } else if (k === 'availability_zone') {
        if (value !== BACKEND.availabilityZone) return empty;
      } else if (NULL_COLUMNS.has(k)) {
        return empty;
      } else {
        const col = COLUMNS[k];
        if (!col) return empty;
        exact[col] = col === 'volume_size' ? Number(value) : value;
      }
    }
    const marker = params.marker !== null ? await get(caller, params.marker) : null;
    let rows = await snapshotsStore.list(db, { projectId: allTenants ? null : caller.projectId, exact });
    if (metadataFilter) {
      const wanted = Object.entries(metadataFilter);
      rows = rows.filter((r) => {
        const meta = metadataOf(r);
        return wanted.every(([k, v]) => meta[k] === String(v));
      });
    }
    const sortValue = (r: SnapshotRow, key: string) => {
      const col = COLUMNS[key];
      return col ? (r[col] as string | number | null) : null;
    };
    const page = paginate(rows, sort, sortValue, marker, params.offset, params.limit);
    return { rows: page, ...(withCount ? { count: rows.length } : {}) };
  }

  /** POST /snapshots: the volume looked up, then volume/api.py's checks, in its order. */
  async function create(
    caller: Caller,
    version: Microversion,
    input: CreateSnapshotInput,
  ): Promise<SnapshotRow> {
    if (input.force === false && version.atLeast('3.66')) {
      // Cinder looks the volume up first.
      const v = await volumesStore.byId(db, input.volumeId);
      if (!v || (!caller.isAdmin && v.project_id !== caller.projectId)) throw volumeNotFound(input.volumeId);
      throw badRequest(SNAPSHOT_IN_USE_FLAG_MSG);
    }
    const row = await store.transaction(async (tx) => {
      const v = await volumesStore.lockById(store, tx, input.volumeId);
      if (!v || (!caller.isAdmin && v.project_id !== caller.projectId)) throw volumeNotFound(input.volumeId);
      assertProjectWriter(caller, 'volume:create_snapshot');
      if (v.host === null) {
        throw invalidVolume(
          'The snapshot cannot be created because volume has not been scheduled to any host.',
        );
      }
      if (v.status === 'maintenance') {
        throw invalidVolume('The snapshot cannot be created when the volume is in maintenance mode.');
      }
      if (v.migration_status !== null && !['deleting', 'error', 'success'].includes(v.migration_status)) {
        throw invalidVolume('Snapshot cannot be created while volume is migrating.');
      }
      if (v.status === 'error') {
        throw invalidVolume('The snapshot cannot be created when the volume is in error status.');
      }
      checkMetadata(input.metadata ?? {});
      const valid = input.force === true || version.atLeast('3.66') ? ['available', 'in-use'] : ['available'];
      if (!valid.includes(v.status)) {
        throw invalidVolume(
          `Volume ${v.id} status must be ${valid.join(', ')}, but current status is: ${v.status}.`,
        );
      }
      await checkSnapshotQuota(tx, caller.projectId, v.volume_type_id, v.size);
      const s: SnapshotRow = {
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
        metadata: JSON.stringify(input.metadata ?? {}),
        created_at: nowIso(),
        updated_at: null,
      };
      await snapshotsStore.insert(tx, s);
      await glanceMetadataStore.copy(tx, v.id, 'snapshot', s.id);
      return s;
    });
    deps.scheduleCreate(row.id);
    return row;
  }

  async function update(
    caller: Caller,
    id: string,
    changes: { name?: string | null; description?: string | null },
  ): Promise<SnapshotRow> {
    return store.transaction(async (tx) => {
      const s = visible(caller, await snapshotsStore.lockById(store, tx, id), id);
      assertProjectWriter(caller, 'volume:update_snapshot');
      const set: Partial<SnapshotRow> = { updated_at: nowIso() };
      if (changes.name !== undefined) set.name = changes.name;
      if (changes.description !== undefined) set.description = changes.description;
      await snapshotsStore.update(tx, id, set);
      return { ...s, ...set };
    });
  }

  /** delete_snapshot's conditional update: available or error unless forced, then deleting. */
  async function markDeleting(tx: Tx, s: SnapshotRow, force: boolean): Promise<void> {
    // --- cloud-groups: a snapshot of a group snapshot goes with it.
    const inGroup = (await groupsStore.groupSnapshotIdsOfSnapshots(tx, [s.id])).has(s.id);
    if ((!force && !['available', 'error'].includes(s.status)) || inGroup) {
      throw invalidSnapshot('Snapshot status must be available or error and must not be part of a group.');
    }
    await snapshotsStore.update(tx, s.id, { status: 'deleting', updated_at: nowIso() });
  }

  /** DELETE /snapshots/{id} (and os-force_delete, admins only, with `force`). */
  async function remove(caller: Caller, id: string, opts: { force: boolean }): Promise<void> {
    await store.transaction(async (tx) => {
      const s = visible(caller, await snapshotsStore.lockById(store, tx, id), id);
      if (opts.force) {
        if (!caller.isAdmin) throw policyForbidden('volume_extension:snapshot_admin_actions:force_delete');
      }
      assertProjectWriter(caller, 'volume:delete_snapshot');
      await markDeleting(tx, s, opts.force);
    });
    deps.scheduleDelete(id);
  }

  /** os-reset_status: admins only (after the 404). */
  async function resetStatus(caller: Caller, id: string, status: string): Promise<void> {
    await store.transaction(async (tx) => {
      visible(caller, await snapshotsStore.lockById(store, tx, id), id);
      if (!caller.isAdmin) throw policyForbidden('volume_extension:snapshot_admin_actions:reset_status');
      await snapshotsStore.update(tx, id, { status: status.toLowerCase(), updated_at: nowIso() });
    });
  }

  /** os-update_snapshot_status: creating -> creating/available/error, deleting -> deleting/error_deleting. */
  async function updateStatus(
    caller: Caller,
    id: string,
    status: string,
    progress: string | null,
  ): Promise<void> {
    await store.transaction(async (tx) => {
      const s = visible(caller, await snapshotsStore.lockById(store, tx, id), id);
      assertProjectWriter(caller, 'snapshot_extension:snapshot_actions:update_snapshot_status');
      const allowed: Record<string, string[]> = {
        creating: ['creating', 'available', 'error'],
        deleting: ['deleting', 'error_deleting'],
      };
      const next = allowed[s.status];
      if (!next) throw badRequest(`Snapshot status ${s.status} not allowed for update_snapshot_status`);
      if (!next.includes(status)) {
        throw badRequest(
          `Provided snapshot status ${status} not allowed for snapshot with status ${s.status}.`,
        );
      }
      await snapshotsStore.update(tx, id, {
        status,
        ...(progress ? { progress } : {}),
        updated_at: nowIso(),
      });
    });
  }

  async function metadata(caller: Caller, id: string): Promise<Record<string, string>> {
    return metadataOf(await get(caller, id));
  }

  async function metadataItem(caller: Caller, id: string, key: string): Promise<string> {
    const meta = await metadata(caller, id);
    if (!Object.hasOwn(meta, key)) throw snapshotMetadataNotFound(id, key);
    return meta[key] as string;
  }

  /** update_snapshot_metadata: merged (or replaced), checked, and the whole metadata back. */
  async function updateMetadata(
    caller: Caller,
    id: string,
    values: Record<string, string>,
    replace: boolean,
  ): Promise<Record<string, string>> {
    return store.transaction(async (tx) => {
      const s = visible(caller, await snapshotsStore.lockById(store, tx, id), id);
      assertProjectWriter(caller, 'volume:update_snapshot_metadata');
      const next = replace
        ? Object.assign(Object.create(null), values)
        : Object.assign(metadataOf(s), values);
      checkMetadata(next);
      await snapshotsStore.update(tx, id, { metadata: JSON.stringify(next), updated_at: nowIso() });
      return next;
    });
  }

  async function removeMetadataItem(caller: Caller, id: string, key: string): Promise<void> {
    await store.transaction(async (tx) => {
      const s = visible(caller, await snapshotsStore.lockById(store, tx, id), id);
      const meta = metadataOf(s);
      if (!Object.hasOwn(meta, key)) throw snapshotMetadataNotFound(id, key);
      assertProjectWriter(caller, 'volume:delete_snapshot_metadata');
      delete meta[key];
      await snapshotsStore.update(tx, id, { metadata: JSON.stringify(meta), updated_at: nowIso() });
    });
  }

  // --- cloud-groups ---
  /** The group snapshot of each of these snapshots that has one (3.14 group_snapshot_id). */
  const groupSnapshotIds = (rows: SnapshotRow[]) =>
    groupsStore.groupSnapshotIdsOfSnapshots(
      db,
      rows.map((r) => r.id),
    );

  return {
    groupSnapshotIds,
    get,
    list,
    create,
    update,
    remove,
    resetStatus,
    updateStatus,
    metadata,
    metadataItem,
    updateMetadata,
    removeMetadataItem,
  };
}

export type SnapshotsService = ReturnType<typeof createSnapshotsService>;
