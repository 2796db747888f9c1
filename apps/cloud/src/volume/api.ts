import type { Kysely } from 'kysely';
import type { Schema } from '../platform/db/schema.js';
import type { Store, Tx } from '../platform/db/store.js';
import type { Microversion } from '../platform/http/microversion.js';
import {
  type AttachMode,
  type Caller,
  type ConnectRequest,
  completeAttachment,
  connectAttachments,
  deleteAttachments,
  beginDetaching,
  type ReserveRequest,
  reserveAttachments,
  rollDetaching,
} from './service/attachments.service.js';
import type { Backend } from './service/backend.js';
import type { SnapshotsService } from './service/snapshots.service.js';
import type { TypesService } from './service/types.service.js';
import type { CreateVolumeInput, VolumesService } from './service/volumes.service.js';
import { type AttachmentRow, type AttachmentState, attachmentsStore } from './store/attachments.store.js';
import type { SnapshotRow } from './store/snapshots.store.js';
import { type VolumeRow, type VolumeSummaryRow, volumesStore } from './store/volumes.store.js';
import { QueryParams } from './service/paging.js';

/** What a whole-cloud view shows of an attachment, as read (column names), for speed. */
export type { AttachmentState };
/** What a whole-cloud view shows of a volume and its type's name, as read, for speed. */
export type VolumeSummary = VolumeSummaryRow;

type Db = Kysely<Schema>;

export type { AttachMode, Caller, ConnectRequest, CreateVolumeInput, ReserveRequest };

/** A volume as other services see it. */
export interface Volume {
  id: string;
  projectId: string;
  userId: string;
  name: string | null;
  status: string;
  attachStatus: string;
  size: number;
  bootable: boolean;
  multiattach: boolean;
}

/** A volume attachment as other services see it. */
export interface Attachment {
  id: string;
  volumeId: string;
  instanceUuid: string | null;
  /** Cinder's attach_status: reserved, attaching, attached, detaching, error_*. */
  status: string;
  /** rw, ro, or Cinder's "null" before the attachment is connected. */
  mode: string;
  /** The driver's connection info once connected. */
  connectionInfo: Record<string, unknown> | null;
  mountpoint: string | null;
  createdAt: string;
  attachedAt: string | null;
  updatedAt: string | null;
}

/**
 * A volume with what Cinder's detail view tells of it, for Nova's os-volumes proxy
 * (`_untranslate_volume_summary_view`): the type by name, the metadata (the readonly flag
 * included) and the attachments Cinder shows (attached ones, oldest first).
 */
export interface VolumeDescription {
  id: string;
  status: string;
  size: number;
  availabilityZone: string;
  createdAt: string;
  name: string | null;
  description: string | null;
  typeName: string | null;
  snapshotId: string | null;
  metadata: Record<string, string>;
  attachments: { instanceUuid: string | null; mountpoint: string | null }[];
}

/** A snapshot as Nova's os-snapshots proxy sees it. */
export interface SnapshotDescription {
  id: string;
  volumeId: string;
  status: string;
  size: number;
  createdAt: string;
  name: string | null;
  description: string | null;
}

/**
 * What other services may ask of the volume service: the calls Nova makes to Cinder
 * (`nova/volume/cinder.py`), in process. Failures are Cinder's faults, for the caller to
 * translate. A call that changes something takes the caller's transaction, so that the caller's
 * own rows and Cinder's change commit together or not at all; the volume service still locks its
 * rows itself, so its rules hold across processes sharing one database.
 */
export interface VolumeApi {
  /**
   * The volume if the caller may see it. Given the caller's transaction, it is read under its
   * row lock: the attachment rules that depend on it serialise there.
   */
  get(caller: Caller, volumeId: string, tx?: Tx): Promise<Volume | undefined>;
  /** Volumes by id, whoever owns them (a service reading what it already holds). */
  getMany(volumeIds: readonly string[], db?: Db): Promise<Volume[]>;
  /** Every volume in one of these statuses (recovery after a crash). */
  withStatus(statuses: readonly string[]): Promise<Volume[]>;
  /** A volume's attachments, oldest first. */
  attachmentsOf(volumeId: string, db?: Db): Promise<Attachment[]>;
  /** Attachments by id (those that exist). */
  attachmentsByIds(attachmentIds: readonly string[], db?: Db): Promise<Attachment[]>;
  /**
   * A whole-cloud view (the topology extension): what it shows of these attachments and of
   * these volumes (`ownerProjectId`: only that project's), as packed rows, whatever their number.
   */
  attachmentStates(attachmentIds: readonly string[] | 'all'): Promise<AttachmentState[]>;
  summaries(volumeIds: readonly string[], ownerProjectId: string | null): Promise<VolumeSummary[]>;
  /** Whether the caller may use a volume type of this name or id. */
  typeExists(caller: Caller, nameOrId: string): Promise<boolean>;
  /** `POST /volumes`: the volume, `creating` until the backend has made it. */
  create(caller: Caller, version: Microversion, input: CreateVolumeInput): Promise<Volume>;
  /** `DELETE /volumes/{id}` (no cascade, no force). */
  delete(tx: Tx, caller: Caller, volumeId: string): Promise<void>;
  /** `POST /attachments` for each request, in order; the attachments in that order. */
  reserve(tx: Tx, caller: Caller, requests: readonly ReserveRequest[]): Promise<Attachment[]>;
  /** `PUT /attachments/{id}` then `os-complete` for each request; the attachments by id. */
  connect(tx: Tx, requests: readonly ConnectRequest[]): Promise<Map<string, Attachment>>;
  /** `os-complete`: an attachment attached without a connection (a shelved server's). */
  complete(tx: Tx, caller: Caller, attachmentId: string): Promise<void>;
  /** `DELETE /attachments/{id}` for each id; with `ignoreMissing`, one already gone is passed over. */
  deleteAttachments(
    tx: Tx,
    caller: Caller,
    attachmentIds: readonly string[],
    options?: { ignoreMissing: boolean },
  ): Promise<void>;
  /** `os-begin_detaching`. */
  beginDetaching(tx: Tx, caller: Caller, volumeId: string): Promise<void>;
  /** `os-roll_detaching`. */
  rollDetaching(tx: Tx, caller: Caller, volumeId: string): Promise<void>;
  // --- cloud-proxy-hosts: what Nova's os-volumes / os-snapshots proxy asks (cinder.py get, get_all, ...) ---
  /** `GET /volumes/{id}`: Cinder's 404 when the caller cannot see it. */
  describe(caller: Caller, volumeId: string): Promise<VolumeDescription>;
  /** `GET /volumes/detail` of the caller's project, in Cinder's default order (newest first). */
  describeAll(caller: Caller, version: Microversion): Promise<VolumeDescription[]>;
  /** `DELETE /volumes/{id}` as the user asks it (its own transaction). */
  remove(caller: Caller, version: Microversion, volumeId: string): Promise<void>;
  /** `POST /snapshots`. */
  createSnapshot(
    caller: Caller,
    version: Microversion,
    input: { volumeId: string; name: string | null; description: string | null; force: boolean },
  ): Promise<SnapshotDescription>;
  describeSnapshot(caller: Caller, snapshotId: string): Promise<SnapshotDescription>;
  describeSnapshots(caller: Caller, version: Microversion): Promise<SnapshotDescription[]>;
  /** `DELETE /snapshots/{id}`. */
  removeSnapshot(caller: Caller, snapshotId: string): Promise<void>;
}

function snapshotDescriptionOf(s: SnapshotRow): SnapshotDescription {
  return {
    id: s.id,
    volumeId: s.volume_id,
    status: s.status,
    size: s.volume_size,
    createdAt: s.created_at,
    name: s.name,
    description: s.description,
  };
}

/** Cinder's own list query with nothing but its defaults (no filter, sort or page). */
const DEFAULT_LIST = {
  limit: Number.POSITIVE_INFINITY,
  marker: null,
  offset: 0,
  sortKeys: [] as string[],
  sortDirs: [] as string[],
  filters: new QueryParams([]),
};

export function volumeOf(row: VolumeRow): Volume {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    name: row.name,
    status: row.status,
    attachStatus: row.attach_status,
    size: row.size,
    bootable: row.bootable === 1,
    multiattach: row.multiattach === 1,
  };
}

function attachmentOf(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    volumeId: row.volume_id,
    instanceUuid: row.instance_uuid,
    status: row.attach_status,
    mode: row.attach_mode,
    connectionInfo: row.connection_info ? (JSON.parse(row.connection_info) as Record<string, unknown>) : null,
    mountpoint: row.mountpoint,
    createdAt: row.created_at,
    attachedAt: row.attached_at,
    updatedAt: row.updated_at,
  };
}

const canSee = (caller: Caller, projectId: string) => caller.isAdmin || caller.projectId === projectId;

export function createVolumeApi(deps: {
  store: Store;
  backend: Backend;
  volumes: VolumesService;
  types: TypesService;
  snapshots: SnapshotsService;
}): VolumeApi {
  const { store, backend, volumes, types, snapshots } = deps;

  /** The rows as Cinder's detail view describes them (type names and attachments read once). */
  async function describeRows(rows: VolumeRow[]): Promise<VolumeDescription[]> {
    const typeNames = await types.names();
    const attached = new Map<string, AttachmentRow[]>();
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) {
      for (const a of await attachmentsStore.forVolumes(store.db, ids.slice(i, i + 500))) {
        if (a.attach_status !== 'attached') continue;
        const list = attached.get(a.volume_id) ?? [];
        list.push(a);
        attached.set(a.volume_id, list);
      }
    }
    return rows.map((v) => {
      const metadata = JSON.parse(v.metadata || '{}') as Record<string, string>;
      if (v.readonly_flag !== null) metadata['readonly'] = v.readonly_flag;
      return {
        id: v.id,
        status: v.status,
        size: v.size,
        availabilityZone: v.availability_zone,
        createdAt: v.created_at,
        name: v.name,
        description: v.description,
        typeName: typeNames.get(v.volume_type_id) ?? v.volume_type_id,
        snapshotId: v.snapshot_id,
        metadata,
        attachments: (attached.get(v.id) ?? []).map((a) => ({
          instanceUuid: a.instance_uuid,
          mountpoint: a.mountpoint,
        })),
      };
    });
  }

  return {
    async get(caller, volumeId, tx) {
      const row = tx
        ? await volumesStore.lockById(store, tx, volumeId)
        : await volumesStore.byId(store.db, volumeId);
      return row && canSee(caller, row.project_id) ? volumeOf(row) : undefined;
    },
    async getMany(volumeIds, db = store.db) {
      return (await volumesStore.byIds(db, [...new Set(volumeIds)])).map(volumeOf);
    },
    async withStatus(statuses) {
      return (await volumesStore.byStatus(store.db, statuses)).map(volumeOf);
    },
    async attachmentsOf(volumeId, db = store.db) {
      return (await attachmentsStore.forVolume(db, volumeId)).map(attachmentOf);
    },
    async attachmentsByIds(attachmentIds, db = store.db) {
      return (await attachmentsStore.byIds(db, attachmentIds)).map(attachmentOf);
    },
    attachmentStates: (attachmentIds) => attachmentsStore.states(store.db, store.engine, attachmentIds),
    summaries: (volumeIds, ownerProjectId) =>
      volumesStore.summaries(store.db, store.engine, volumeIds, ownerProjectId),
    async typeExists(caller, nameOrId) {
      return (await types.byNameOrId(caller, nameOrId).catch(() => null)) !== null;
    },
    async create(caller, version, input) {
      return volumeOf(await volumes.create(caller, version, input));
    },
    async delete(tx, caller, volumeId) {
      if (await volumes.removeWithin(tx, caller, volumeId, { force: false }))
        backend.scheduleDelete(volumeId);
    },
    async reserve(tx, caller, requests) {
      return (await reserveAttachments(store, tx, caller, requests)).map(attachmentOf);
    },
    async connect(tx, requests) {
      const rows = await connectAttachments(store, tx, requests, { complete: true });
      return new Map([...rows].map(([id, row]) => [id, attachmentOf(row)]));
    },
    complete: (tx, caller, attachmentId) => completeAttachment(store, tx, caller, attachmentId),
    async deleteAttachments(tx, caller, attachmentIds, options) {
      await deleteAttachments(store, tx, caller, attachmentIds, options);
    },
    beginDetaching: (tx, caller, volumeId) => beginDetaching(store, tx, caller, volumeId),
    rollDetaching: (tx, caller, volumeId) => rollDetaching(store, tx, caller, volumeId),
    // --- cloud-proxy-hosts ---
    async describe(caller, volumeId) {
      const [described] = await describeRows([await volumes.get(caller, volumeId)]);
      if (!described) throw new Error('unreachable: one row described');
      return described;
    },
    async describeAll(caller, version) {
      return describeRows((await volumes.list(caller, version, DEFAULT_LIST)).rows);
    },
    remove: (caller, version, volumeId) => volumes.remove(caller, version, volumeId, {}),
    async createSnapshot(caller, version, input) {
      const row = await snapshots.create(caller, version, { ...input, metadata: null });
      return snapshotDescriptionOf(row);
    },
    async describeSnapshot(caller, snapshotId) {
      return snapshotDescriptionOf(await snapshots.get(caller, snapshotId));
    },
    async describeSnapshots(caller, version) {
      return (await snapshots.list(caller, version, DEFAULT_LIST)).rows.map(snapshotDescriptionOf);
    },
    removeSnapshot: (caller, snapshotId) => snapshots.remove(caller, snapshotId, { force: false }),
  };
}
