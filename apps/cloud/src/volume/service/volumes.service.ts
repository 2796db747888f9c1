import { checkVolumeQuota } from './quotas.service.js';
import type { Image, ImageApi } from '../../image/index.js';
import type { Store, Tx } from '../../platform/db/store.js';
import { badRequest, conflict, notFound, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { isUuidLike, newUuid } from '../../platform/ids.js';
import type { Logger } from '../../platform/logger.js';
import { nowIso } from '../../platform/time.js';
import { type AttachmentRow, attachmentsStore } from '../store/attachments.store.js';
import { glanceMetadataStore } from '../store/glance-metadata.store.js';
import { type SnapshotRow, snapshotsStore } from '../store/snapshots.store.js';
import { type VolumeColumn, type VolumeRow, volumesStore } from '../store/volumes.store.js';
import type { VolumeViewData } from '../views/volume.view.js';
import { BACKEND, type Backend, poolCapabilities, poolSatisfies } from './backend.js';
import type { Caller } from './caller.js';
import {
  boolParam,
  invalidSortKey,
  type ListParams,
  paginate,
  processSortParams,
  type QueryParams,
} from './paging.js';
import { literalEval, type PyValue } from './py-literal.js';
import { isMultiattachType, type TypesService } from './types.service.js';
// --- cloud-groups ---
import { type GroupRecord, groupsStore } from '../store/groups.store.js';
import type { VolumeTypeRecord } from '../store/types.store.js';
import { pyRepr } from '../../platform/validation/py-repr.js';

export const volumeNotFound = (id: string) => notFound(`Volume ${id} could not be found.`);
const invalidVolume = (reason: string) => badRequest(`Invalid volume: ${reason}`);
const invalidInput = (reason: string) => badRequest(`Invalid input received: ${reason}`);

/** SRC_VOL_PROCEED_STATUS: the states a volume can be cloned from. */
const SOURCE_VOLUME_STATUSES = ['available', 'in-use'];
const GIB = 1024 ** 3;

/** check_image_metadata: an active image whose data and min_disk fit in the new volume. */
function checkImageFits(image: Image, sizeGb: number): void {
  if (image.status !== 'active') throw invalidInput(`Image ${image.id} is not active.`);
  const imageGb = Math.ceil((image.size ?? 0) / GIB);
  if (imageGb > sizeGb) {
    throw invalidInput(`Size of specified image ${imageGb}GB is larger than volume size ${sizeGb}GB.`);
  }
  if (sizeGb < image.minDisk) {
    throw invalidInput(
      `Volume size ${sizeGb}GB cannot be smaller than the image minDisk size ${image.minDisk}GB.`,
    );
  }
}

/** The VolumeType object's repr, as Cinder prints it in the group type check (capture 953). */
function volumeTypeRepr(t: VolumeTypeRecord): string {
  const created = `${t.created_at.slice(0, 19)}Z`;
  const specs = `{${Object.entries(t.extraSpecs)
    .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`;
  return `VolumeType(created_at=${created},deleted=False,deleted_at=None,description=${t.description === null ? 'None' : pyRepr(t.description)},extra_specs=${specs},id=${t.id},is_public=${t.is_public === 1 ? 'True' : 'False'},name=${pyRepr(t.name)},projects=${pyRepr(t.projects)},qos_specs=<?>,qos_specs_id=None,updated_at=None)`;
}

/** volume/api.py delete: the conditional update's failure text (captures 53, 251, 290, 291). */
export const DELETE_REFUSED =
  'Volume status must be available or error or error_restoring or error_extending or error_managing and must not be migrating, attached, belong to a group, have snapshots, awaiting a transfer, or be disassociated from snapshots after volume transfer.';

const DELETABLE_STATUSES = ['available', 'error', 'error_restoring', 'error_extending', 'error_managing'];
/** API.AVAILABLE_MIGRATION_STATUS: a volume in any other migration status is migrating. */
const NOT_MIGRATING = [null, 'deleting', 'error', 'success'];

/** objects/fields.py VolumeStatus.ALL, in Cinder's order (capture 278 prints it). */
export const VOLUME_STATUSES = [
  'creating',
  'available',
  'deleting',
  'error',
  'error_deleting',
  'error_managing',
  'managing',
  'attaching',
  'in-use',
  'detaching',
  'maintenance',
  'restoring-backup',
  'error_restoring',
  'reserved',
  'awaiting-transfer',
  'backing-up',
  'error_backing-up',
  'error_extending',
  'downloading',
  'uploading',
  'retyping',
  'extending',
] as const;
export const RESET_ATTACH_STATUSES = ['attached', 'detached'] as const;
export const MIGRATION_STATUSES = [
  'migrating',
  'error',
  'success',
  'completing',
  'none',
  'starting',
] as const;

/** resource_filters.json `volume`: what members may filter on from 3.33. */
const MEMBER_FILTERS_RESOURCE = [
  'name',
  'status',
  'metadata',
  'bootable',
  'migration_status',
  'availability_zone',
  'group_id',
  'size',
  'created_at',
  'updated_at',
];
/** _get_volume_filter_options: what members may filter on below 3.33 (others are dropped). */
const MEMBER_FILTERS_LEGACY = ['name', 'status', 'metadata', 'availability_zone', 'bootable', 'group_id'];

/** Cinder's Volume model columns that we keep, by the name filters and sort keys use. */
// No prototype: the keys come from the request, and `constructor` must not find a column.
const COLUMNS: Record<string, VolumeColumn> = Object.assign(Object.create(null), {
  id: 'id',
  display_name: 'name',
  display_description: 'description',
  status: 'status',
  attach_status: 'attach_status',
  size: 'size',
  availability_zone: 'availability_zone',
  bootable: 'bootable',
  multiattach: 'multiattach',
  encrypted: 'encrypted',
  host: 'host',
  project_id: 'project_id',
  user_id: 'user_id',
  volume_type_id: 'volume_type_id',
  migration_status: 'migration_status',
  snapshot_id: 'snapshot_id',
  source_volid: 'source_volid',
  created_at: 'created_at',
  updated_at: 'updated_at',
  launched_at: 'launched_at',
});
/** Model columns that are always NULL here: valid keys, matching nothing but None. */
const NULL_COLUMNS = new Set([
  'group_id',
  'consistencygroup_id',
  'provider_id',
  'provider_location',
  'replication_status',
  'cluster_name',
  'previous_status',
  'terminated_at',
  'scheduled_at',
  'deleted_at',
  'encryption_key_id',
]);
const BOOLEAN_COLUMNS = new Set(['bootable', 'multiattach', 'encrypted']);
const INTEGER_COLUMNS = new Set(['size']);
const TIME_FILTERS = new Set(['created_at', 'updated_at']);

export interface CreateVolumeInput {
  name: string | null;
  description: string | null;
  volumeType: string | null;
  metadata: Record<string, string> | null;
  size: number | string | null;
  availabilityZone: string | null;
  snapshotId: string | null;
  sourceVolid: string | null;
  backupId: string | null;
  groupId: string | null;
  consistencygroupId: string | null;
  imageRef: string | null;
  multiattach: boolean;
}

export interface ResetStatusInput {
  status?: string;
  attachStatus?: string;
  migrationStatus?: string | null;
}

function strictBool(key: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 't', 'true', 'on', 'y', 'yes'].includes(v)) return true;
  if (['0', 'f', 'false', 'off', 'n', 'no'].includes(v)) return false;
  throw invalidInput(`'${key} = ${value}'`);
}

/** Before 3.2 anything but a false spelling meant true. */
const legacyBool = (value: string) => !['False', 'false', 'FALSE'].includes(value) && value !== '';

/** "gt:2026-01-01T00:00:00" (3.60) or a plain value. */
function timeMatches(value: string | null, filter: string, withOps: boolean): boolean {
  const m = withOps ? /^(gt|gte|eq|neq|lt|lte):(.*)$/.exec(filter) : null;
  if (!m) return value !== null && value === filter;
  if (value === null) return false;
  const a = Date.parse(value);
  const b = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(m[2] ?? '') ? (m[2] ?? '') : `${m[2]}Z`);
  if (Number.isNaN(b)) throw invalidInput(`Invalid filter value ${filter}`);
  switch (m[1]) {
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
    case 'neq':
      return a !== b;
    default:
      return a === b;
  }
}

/**
 * The image metadata a volume made from an image keeps (the flow's _capture_volume_image_metadata):
 * the image's id and name, its core properties, and its own properties, all as strings.
 */
function imageMetadataOf(image: Image): Record<string, string> {
  const out: Record<string, string> = {
    image_id: image.id,
    image_name: image.name,
    container_format: image.containerFormat,
    disk_format: image.diskFormat,
    min_disk: String(image.minDisk),
    min_ram: String(image.minRam),
    size: String(image.size),
  };
  if (image.checksum !== null) out['checksum'] = image.checksum;
  for (const [k, v] of Object.entries(image.properties)) {
    if (v !== null && v !== undefined) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

export function createVolumesService(deps: {
  store: Store;
  backend: Backend;
  types: TypesService;
  /** The image service, for the image a volume is created from. */
  images: ImageApi;
  logger: Logger;
}) {
  const { store, backend, types, images } = deps;
  const db = store.db;

  /** volume_api.get: admins reach every project's volumes, members only their own (else 404). */
  const visibleTo = (caller: Caller, v: VolumeRow | undefined, id: string): VolumeRow => {
    if (!v || (!caller.isAdmin && v.project_id !== caller.projectId)) throw volumeNotFound(id);
    return v;
  };

  /**
   * Reads and locks a volume the caller may act on, inside a transaction; with a policy rule, a
   * caller who may only read its project gets that rule's 403 (after the 404, as in Cinder).
   */
  const lockVisible = async (caller: Caller, tx: Store['db'], id: string, writeRule?: string) => {
    const v = visibleTo(caller, await volumesStore.lockById(store, tx, id), id);
    if (writeRule) assertProjectWriter(caller, writeRule);
    return v;
  };

  async function get(caller: Caller, id: string): Promise<VolumeRow> {
    return visibleTo(caller, await volumesStore.byId(db, id), id);
  }

  const visibleSnapshot = async (caller: Caller, id: string): Promise<SnapshotRow> => {
    const snap = await snapshotsStore.byId(db, id);
    if (!snap || (!caller.isAdmin && snap.project_id !== caller.projectId)) {
      throw notFound(`Snapshot ${id} could not be found.`);
    }
    return snap;
  };

  /** Everything the views need for these rows, in two queries whatever their number. */
  async function viewData(rows: VolumeRow[]): Promise<VolumeViewData> {
    const attachments = new Map<string, AttachmentRow[]>();
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) {
      for (const a of await attachmentsStore.forVolumes(db, ids.slice(i, i + 500))) {
        const list = attachments.get(a.volume_id) ?? [];
        list.push(a);
        attachments.set(a.volume_id, list);
      }
    }
    return {
      typeNames: await types.names(),
      attachments,
      imageMetadata: await glanceMetadataStore.forMany(db, ids),
      // --- cloud-groups ---
      groupIds: await groupsStore.groupIdsOfVolumes(db, ids),
    };
  }

  /**
   * The volumes index/detail query: filters checked as Cinder checks them for the microversion,
   * then the rows sorted and paged as paginate_query does, plus the total when asked (3.45).
   */
  async function list(
    caller: Caller,
    version: Microversion,
    params: ListParams,
  ): Promise<{ rows: VolumeRow[]; count?: number }> {
    let filters: QueryParams = params.filters;
    let withCount = false;
    if (version.atLeast('3.45') && filters.has('with_count')) {
      withCount = boolParam('with_count', filters.get('with_count'));
      filters = filters.without('with_count');
    }
    if (version.below('3.4')) filters = filters.without('glance_metadata');
    let raw = filters.toRecord();
    if (!caller.isAdmin) {
      if (version.atLeast('3.33')) {
        const invalid = Object.keys(raw).filter(
          (k) => !MEMBER_FILTERS_RESOURCE.includes(k) && k !== 'all_tenants',
        );
        if (invalid.length > 0)
          throw badRequest(`Invalid filters ${invalid.join(',')} are found in query options.`);
      } else {
        raw = Object.fromEntries(Object.entries(raw).filter(([k]) => MEMBER_FILTERS_LEGACY.includes(k)));
      }
    }
    const sortKeys = params.sortKeys.map((k) => (k === 'name' ? 'display_name' : k));
    if ('name' in raw) {
      raw['display_name'] = raw['name'] as string;
      delete raw['name'];
    }
    // check_volume_filters: booleans parsed (strictly from 3.2), other values literal_eval'd.
    const values: Record<string, PyValue> = {};
    for (const [k, v] of Object.entries(raw)) {
      if (k === 'all_tenants') continue;
      if (BOOLEAN_COLUMNS.has(k)) values[k] = version.atLeast('3.2') ? strictBool(k, v) : legacyBool(v);
      else if (k === 'display_name' || TIME_FILTERS.has(k)) values[k] = v;
      else {
        const parsed = literalEval(v);
        values[k] = parsed === undefined ? v : parsed;
      }
    }
    const allTenants = boolParam('all_tenants', raw['all_tenants']);
    const sort = processSortParams(sortKeys, params.sortDirs);

    // Exact filters go to SQL; metadata and times are matched here. An unknown key (admins
    // only get this far with one) matches nothing, as Cinder's query builder returns no rows.
    const exact: Partial<Record<VolumeColumn, string | number | null>> = {};
    let metadataFilter: Record<string, PyValue> | null = null;
    const timeFilters: [VolumeColumn, string][] = [];
    let groupFilter: string | null | undefined;
    for (const [k, v] of Object.entries(values)) {
      if (k === 'metadata') {
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          return { rows: [], ...(withCount ? { count: 0 } : {}) };
        metadataFilter = v;
      } else if (TIME_FILTERS.has(k)) {
        timeFilters.push([COLUMNS[k] as VolumeColumn, String(v)]);
      } else if (k === 'group_id') {
        // --- cloud-groups: group membership lives beside the volume rows.
        groupFilter = v === null ? null : String(v);
      } else if (NULL_COLUMNS.has(k)) {
        if (v !== null) return { rows: [], ...(withCount ? { count: 0 } : {}) };
      } else {
        const col = COLUMNS[k];
        if (!col || Array.isArray(v) || (typeof v === 'object' && v !== null)) {
          return { rows: [], ...(withCount ? { count: 0 } : {}) };
        }
        if (typeof v === 'boolean') exact[col] = BOOLEAN_COLUMNS.has(k) ? (v ? 1 : 0) : String(v);
        else if (v === null) exact[col] = null;
        else if (INTEGER_COLUMNS.has(k)) {
          if (typeof v !== 'number') return { rows: [], ...(withCount ? { count: 0 } : {}) };
          exact[col] = v;
        } else exact[col] = String(v);
      }
    }

    const marker = params.marker !== null ? await get(caller, params.marker) : null;
    for (const k of sort.keys) if (!(k in COLUMNS) && !NULL_COLUMNS.has(k)) throw invalidSortKey();

    const sortColumns = sort.keys.map((k) => COLUMNS[k]).filter((c): c is VolumeColumn => c !== undefined);
    const columns = [
      ...new Set<VolumeColumn>([
        'id',
        ...sortColumns,
        ...timeFilters.map(([c]) => c),
        ...(metadataFilter ? (['metadata', 'readonly_flag'] as VolumeColumn[]) : []),
      ]),
    ];
    let keys = await volumesStore.listKeys(db, {
      projectId: caller.isAdmin && allTenants ? null : caller.projectId,
      exact,
      columns,
    });
    if (metadataFilter) {
      const wanted = Object.entries(metadataFilter);
      keys = keys.filter((r) => {
        const meta = JSON.parse(r.metadata ?? '{}') as Record<string, string>;
        const admin: Record<string, string> = r.readonly_flag != null ? { readonly: r.readonly_flag } : {};
        return wanted.every(([k, v]) => meta[k] === String(v) || admin[k] === String(v));
      });
    }
    if (groupFilter !== undefined) {
      const groupOf = await groupsStore.groupIdsOfVolumes(
        db,
        keys.map((r) => r.id as string),
      );
      keys = keys.filter((r) => (groupOf.get(r.id as string) ?? null) === groupFilter);
    }
    for (const [col, f] of timeFilters) {
      keys = keys.filter((r) =>
        timeMatches((r[col] as string | null | undefined) ?? null, f, version.atLeast('3.60')),
      );
    }
    const sortValue = (r: Partial<VolumeRow>, key: string) => {
      const col = COLUMNS[key];
      const v = col ? r[col] : null;
      return v === undefined ? null : (v as string | number | null);
    };
    const page = paginate(keys, sort, sortValue, marker, params.offset, params.limit);
    const full = new Map(
      (
        await volumesStore.byIds(
          db,
          page.map((r) => r.id as string),
        )
      ).map((r) => [r.id, r]),
    );
    const rows = page.map((r) => full.get(r.id as string)).filter((r): r is VolumeRow => r !== undefined);
    return { rows, ...(withCount ? { count: keys.length } : {}) };
  }

  /** GET /volumes/summary (3.12): count, total size and (3.36) every metadata key's values. */
  async function summary(
    caller: Caller,
    allTenants: string | undefined,
  ): Promise<{ count: number; size: number; metadata: Record<string, string[]> }> {
    const all = boolParam('all_tenants', allTenants) && caller.isAdmin;
    const rows = await volumesStore.listKeys(db, {
      projectId: all ? null : caller.projectId,
      exact: {},
      columns: ['size', 'metadata'],
    });
    // No prototype: metadata keys are the users' (`constructor`, `__proto__`).
    const metadata: Record<string, string[]> = Object.create(null);
    let size = 0;
    for (const r of rows) {
      size += r.size ?? 0;
      for (const [k, v] of Object.entries(JSON.parse(r.metadata ?? '{}') as Record<string, string>)) {
        const values = metadata[k] ?? [];
        if (!values.includes(v)) values.push(v);
        metadata[k] = values;
      }
    }
    return { count: rows.length, size, metadata };
  }

  /**
   * `_image_uuid_from_ref`: the id at the end of the ref (Nova sends a URL), an image of that id
   * the caller can see, else the one image of that exact name; anything else is refused before a
   * volume exists (captures 410-412).
   */
  async function imageFromRef(caller: Caller, ref: string): Promise<Image> {
    const id = ref.split('/').pop() ?? '';
    if (isUuidLike(id)) {
      const byId = await images.findVisible(caller, id);
      if (byId) return byId;
    }
    const named = await images.listNamed(caller, ref);
    if (named.length > 1)
      throw conflict(`Multiple matches found for '${ref}', use an ID to be more specific.`);
    if (named[0]) return named[0];
    throw badRequest('Invalid image identifier or unable to access requested image.');
  }

  /**
   * POST /volumes. The references the body names are looked up in the order Cinder's API layer
   * does (type, snapshot, source volume, consistency group, group, image, backup: captures
   * 231, 410-421), then volume_api.create and its flow check what they found.
   */
  async function create(caller: Caller, version: Microversion, input: CreateVolumeInput): Promise<VolumeRow> {
    const type = input.volumeType ? await types.byNameOrId(caller, input.volumeType) : null;
    const snapshot = input.snapshotId !== null ? await visibleSnapshot(caller, input.snapshotId) : null;
    const source = input.sourceVolid !== null ? await get(caller, input.sourceVolid) : null;
    // Cinder looks a consistency group up in its groups table.
    if (input.consistencygroupId) throw notFound(`Group ${input.consistencygroupId} could not be found.`);
    // --- cloud-groups: the group the volume joins (3.13), then its type must be one the group takes.
    let group: GroupRecord | null = null;
    if (input.groupId && version.atLeast('3.13')) {
      const g = await groupsStore.groupById(db, input.groupId);
      if (!g || (!caller.isAdmin && g.project_id !== caller.projectId)) {
        throw notFound(`Group ${input.groupId} could not be found.`);
      }
      group = g;
    }
    const image = input.imageRef !== null ? await imageFromRef(caller, input.imageRef) : null;
    if (input.backupId !== null && version.atLeast('3.47')) {
      throw notFound(`Backup ${input.backupId} could not be found.`);
    }
    if (input.multiattach) {
      throw badRequest(
        'multiattach parameter has been removed. The default behavior is to use multiattach enabled volume types. Contact your administrator to create a multiattach enabled volume type and use it to create multiattach volumes.',
      );
    }
    // volume_api.create's first check, once the API layer has found what the body names.
    assertProjectWriter(caller, image !== null ? 'volume:create_from_image' : 'volume:create');
    // The flow's ExtractVolumeRequestTask: one source at most, in a state it can be copied from.
    if ([image, source, snapshot].filter((x) => x !== null).length > 1) {
      throw invalidInput('May specify only one of backup, imageRef, snapshot, source volume');
    }
    if (snapshot && snapshot.status !== 'available') {
      throw badRequest('Invalid snapshot: Originating snapshot status must be one of available values');
    }
    if (source && !SOURCE_VOLUME_STATUSES.includes(source.status)) {
      throw invalidVolume(
        `Originating source volume status must be one of '${SOURCE_VOLUME_STATUSES.join(', ')}' values`,
      );
    }

    // _extract_size: the size falls back to the source's, then must be a positive integer not
    // smaller than the source.
    let size: number | string | null = input.size;
    if (!size && source) size = source.size;
    if (!size && snapshot) size = snapshot.volume_size;
    const asInt = typeof size === 'string' && /^\s*[+-]?\d+\s*$/.test(size) ? Number(size) : size;
    if (typeof asInt !== 'number' || !Number.isInteger(asInt) || asInt <= 0) {
      throw invalidInput(
        `Volume size '${asInt === null ? 'None' : asInt}' must be an integer and greater than 0`,
      );
    }
    if (source && asInt < source.size) {
      throw invalidInput(
        `Volume size '${asInt}'GB cannot be smaller than original volume size  ${source.size}GB. They must be >= original volume size.`,
      );
    }
    if (snapshot && asInt < snapshot.volume_size) {
      throw invalidInput(
        `Volume size '${asInt}'GB cannot be smaller than the snapshot size ${snapshot.volume_size}GB. They must be >= original snapshot size.`,
      );
    }
    if (image) checkImageFits(image, asInt);
    const snapshotVolume = snapshot ? await volumesStore.byId(db, snapshot.volume_id) : undefined;
    const az =
      input.availabilityZone ??
      (source ? source.availability_zone : (snapshotVolume?.availability_zone ?? BACKEND.availabilityZone));
    if (az !== BACKEND.availabilityZone) throw badRequest(`Availability zone '${az}' is invalid.`);

    const volType =
      type ??
      (source || snapshot
        ? await types.byNameOrId(
            { ...caller, isAdmin: true },
            (source?.volume_type_id ?? snapshot?.volume_type_id) as string,
          )
        : await types.defaultType(caller));
    if (group && !['available', 'creating'].includes(group.status)) {
      throw badRequest("Invalid Group: Originating group status must be one of 'available, creating' values");
    }
    if (group && !group.volumeTypeIds.includes(volType.id)) {
      throw invalidInput(
        `Invalid volume_type provided: ${volumeTypeRepr(volType)} (requested type must be supported by this group).`,
      );
    }
    const row: VolumeRow = {
      id: newUuid(),
      project_id: caller.projectId,
      user_id: caller.userId,
      name: input.name,
      description: input.description,
      size: asInt,
      status: 'creating',
      attach_status: 'detached',
      volume_type_id: volType.id,
      availability_zone: az,
      // Bootable is set by the volume manager once the data is there (image or source copied).
      bootable: 0,
      multiattach: isMultiattachType(volType) ? 1 : 0,
      host: null,
      metadata: JSON.stringify(input.metadata ?? {}),
      readonly_flag: null,
      migration_status: null,
      snapshot_id: snapshot ? snapshot.id : null,
      source_volid: source ? source.id : null,
      encrypted: 0,
      created_at: nowIso(),
      updated_at: null,
      launched_at: null,
    };
    await store.transaction(async (tx) => {
      // QuotaReserveTask: the per-volume limit, then volumes and gigabytes.
      await checkVolumeQuota(tx, row.project_id, row.volume_type_id, row.size, true, row.size);
      // The group is locked while the volume joins it, so a delete that is under way sees it or
      // the volume sees the group go (then it is gone, as a lookup would have found).
      if (group) {
        const locked = await groupsStore.lockGroup(store, tx, group.id);
        if (!locked || locked.status === 'deleting') throw notFound(`Group ${group.id} could not be found.`);
      }
      await volumesStore.insert(tx, row);
      if (group) await groupsStore.addVolume(tx, group.id, row.id);
      // The image metadata the volume carries: the image's (flow's _capture_volume_image_metadata),
      // or its source's.
      if (image) await glanceMetadataStore.set(tx, 'volume', row.id, imageMetadataOf(image));
      else if (source) await glanceMetadataStore.copy(tx, source.id, 'volume', row.id);
      else if (snapshot) await glanceMetadataStore.copy(tx, snapshot.id, 'volume', row.id);
    });
    const bootable = image !== null || source?.bootable === 1 || snapshotVolume?.bootable === 1;
    backend.scheduleCreate(row.id, volType.extraSpecs, bootable);
    return row;
  }

  /** PUT /volumes/{id}: name, description, metadata (replacing the user metadata). */
  async function update(
    caller: Caller,
    id: string,
    changes: { name?: string | null; description?: string | null; metadata?: Record<string, string> },
  ): Promise<VolumeRow> {
    return store.transaction(async (tx) => {
      const v = await lockVisible(caller, tx, id, 'volume:update');
      if (v.status === 'maintenance') throw invalidVolume('The volume cannot be updated during maintenance.');
      const set: Partial<VolumeRow> = { updated_at: nowIso() };
      if (changes.name !== undefined) set.name = changes.name;
      if (changes.description !== undefined) set.description = changes.description;
      if (changes.metadata !== undefined) set.metadata = JSON.stringify(changes.metadata);
      await volumesStore.update(tx, id, set);
      return { ...v, ...set };
    });
  }

  /**
   * volume/api.py delete. An unscheduled volume (no host) is destroyed at once; otherwise the
   * conditional update (+ no attachment rows at all, capture 251) moves it to `deleting` and the
   * backend removes it.
   */
  async function remove(
    caller: Caller,
    version: Microversion,
    id: string,
    params: { cascade?: string; force?: string },
  ): Promise<void> {
    const cascade = boolParam('cascade', params.cascade);
    let force = false;
    if (version.atLeast('3.23')) {
      force = boolParam('force', params.force);
      if (cascade && force) throw badRequest('Cascade and force parameters are mutually exclusive.');
    }
    if (await store.transaction((tx) => removeWithin(tx, caller, id, { force, cascade }))) {
      backend.scheduleDelete(id);
    }
  }

  /**
   * `remove`'s rules inside the caller's transaction; true when the backend must finish the
   * delete (schedule it: its step locks the volume, so it waits for the transaction).
   */
  async function removeWithin(
    tx: Tx,
    caller: Caller,
    id: string,
    opts: { force: boolean; cascade?: boolean },
  ): Promise<boolean> {
    const v = await lockVisible(caller, tx, id, 'volume:delete');
    if (opts.force && !caller.isAdmin) throw policyForbidden('volume:force_delete');
    const snapshots = await snapshotsStore.forVolume(tx, id);
    const attachments = await attachmentsStore.forVolume(tx, id);
    // --- cloud-groups: a volume that belongs to a group goes with the group (capture 946).
    if ((await groupsStore.groupIdsOfVolumes(tx, [id])).has(id)) throw invalidVolume(DELETE_REFUSED);
    if (v.host === null && attachments.length === 0) {
      await volumesStore.delete(tx, id);
      return false;
    }
    // Without cascade a volume with snapshots stays; with it, every snapshot must be deletable
    // (available or error) unless forced, and goes with the volume.
    const snapshotsOk =
      snapshots.length === 0 ||
      (opts.cascade === true &&
        (opts.force || snapshots.every((s) => ['available', 'error'].includes(s.status))));
    const ok =
      v.attach_status !== 'attached' &&
      NOT_MIGRATING.includes(v.migration_status) &&
      attachments.length === 0 &&
      snapshotsOk &&
      (opts.force || DELETABLE_STATUSES.includes(v.status));
    if (!ok) throw invalidVolume(DELETE_REFUSED);
    await volumesStore.update(tx, id, { status: 'deleting', updated_at: nowIso() });
    for (const s of snapshots)
      await snapshotsStore.update(tx, s.id, { status: 'deleting', updated_at: nowIso() });
    return true;
  }

  /** admin_actions os-force_delete: admins only (after the 404); delete without the status check. */
  async function forceDelete(caller: Caller, id: string): Promise<void> {
    await get(caller, id);
    if (!caller.isAdmin) throw policyForbidden('volume_extension:volume_admin_actions:force_delete');
    if (await store.transaction((tx) => removeWithin(tx, caller, id, { force: true })))
      backend.scheduleDelete(id);
  }

  async function setBootable(caller: Caller, id: string, bootable: boolean): Promise<void> {
    await store.transaction(async (tx) => {
      const v = await lockVisible(caller, tx, id, 'volume:update');
      if (v.status === 'maintenance') throw invalidVolume('The volume cannot be updated during maintenance.');
      await volumesStore.update(tx, id, { bootable: bootable ? 1 : 0, updated_at: nowIso() });
    });
  }

  /** Stored as admin metadata `readonly` = 'True' | 'False' (captures 246-254). */
  async function updateReadonlyFlag(caller: Caller, id: string, readonly: boolean): Promise<void> {
    await store.transaction(async (tx) => {
      const v = await lockVisible(caller, tx, id, 'volume:update_readonly_flag');
      if (v.status !== 'available') {
        throw invalidVolume(
          `Volume ${id} status must be available to update readonly flag, but current status is: ${v.status}.`,
        );
      }
      await volumesStore.update(tx, id, { readonly_flag: readonly ? 'True' : 'False', updated_at: nowIso() });
    });
  }

  /** volume/api.py retype (captures 261-268); the backend finishes it. */
  async function retype(caller: Caller, id: string, newType: string): Promise<void> {
    await get(caller, id);
    assertProjectWriter(caller, 'volume:retype');
    const target = await types.byNameOrId(caller, newType, true);
    const outcome = await store.transaction(async (tx) => {
      const v = await lockVisible(caller, tx, id);
      const toMultiattach = isMultiattachType(target);
      if ((v.multiattach === 1) !== toMultiattach && v.status !== 'available') {
        throw invalidInput(
          `Invalid volume_type passed, retypes affecting multiattach are only allowed on available volumes, the specified volume however currently has a status of: ${v.status}.`,
        );
      }
      const ok =
        ['available', 'in-use'].includes(v.status) &&
        NOT_MIGRATING.includes(v.migration_status) &&
        v.volume_type_id !== target.id;
      if (!ok) {
        throw invalidVolume(
          'Retype needs volume to be in available or in-use state, not be part of an active migration or a consistency group, requested type has to be different that the one from the volume, and for in-use volumes front-end qos specs cannot change.',
        );
      }
      await volumesStore.update(tx, id, {
        status: 'retyping',
        multiattach: toMultiattach ? 1 : 0,
        updated_at: nowIso(),
      });
      const usage = await volumesStore.usageOnHost(tx, BACKEND.host);
      return {
        fits: poolSatisfies(target.extraSpecs, poolCapabilities(usage)),
        oldMultiattach: v.multiattach === 1,
      };
    });
    backend.scheduleRetype(id, target.id, outcome.fits, outcome.oldMultiattach);
  }

  /** admin_actions reset_status: admin only (after the 404), sets what it is given. */
  async function resetStatus(caller: Caller, id: string, input: ResetStatusInput): Promise<void> {
    await store.transaction(async (tx) => {
      const v = await lockVisible(caller, tx, id);
      if (!caller.isAdmin) throw policyForbidden('volume_extension:volume_admin_actions:reset_status');
      const set: Partial<VolumeRow> = { updated_at: nowIso() };
      if (input.status) set.status = input.status.toLowerCase();
      if (input.attachStatus) set.attach_status = input.attachStatus.toLowerCase();
      if (input.migrationStatus) {
        const m = input.migrationStatus.toLowerCase();
        set.migration_status = m === 'none' ? null : m;
      }
      await volumesStore.update(tx, id, set);
      // Resetting to detached detaches every attachment (db.volume_detached for each); the
      // last one leaves the volume available unless it is migrating.
      if (set.attach_status === 'detached') {
        const atts = await attachmentsStore.forVolume(tx, id);
        for (const a of atts) await attachmentsStore.delete(tx, a.id);
        const migration = set.migration_status !== undefined ? set.migration_status : v.migration_status;
        if (atts.length > 0 && (!migration || ['success', 'error'].includes(migration))) {
          await volumesStore.update(tx, id, { status: 'available', attach_status: 'detached' });
        }
      }
    });
  }

  /** volume_actions os-extend: in-use volumes too from 3.42; the backend applies the size. */
  async function extend(caller: Caller, version: Microversion, id: string, newSize: number): Promise<void> {
    await store.transaction(async (tx) => {
      const v = await lockVisible(caller, tx, id, 'volume:extend');
      const attached = version.atLeast('3.42') && v.status === 'in-use';
      if (newSize - v.size <= 0) {
        throw invalidInput(
          `New size for extend must be greater than current size. (current: ${v.size}, extended: ${newSize}).`,
        );
      }
      const expected = attached ? 'in-use' : 'available';
      if (v.status !== expected) {
        throw invalidVolume(
          `Volume ${id} status must be '{'status': '${expected}'}' to extend, currently ${v.status}.`,
        );
      }
      // The per-volume limit and the growth's gigabytes (C2: quotas).
      await checkVolumeQuota(tx, v.project_id, v.volume_type_id, newSize - v.size, false, newSize);
      await volumesStore.update(tx, id, { status: 'extending', updated_at: nowIso() });
    });
    backend.scheduleExtend(id, newSize);
  }

  return {
    get,
    viewData,
    list,
    summary,
    create,
    update,
    remove,
    removeWithin,
    forceDelete,
    setBootable,
    updateReadonlyFlag,
    retype,
    resetStatus,
    extend,
  };
}

export type VolumesService = ReturnType<typeof createVolumesService>;
