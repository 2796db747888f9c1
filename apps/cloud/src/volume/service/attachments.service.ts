import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store, Tx } from '../../platform/db/store.js';
import { badRequest, conflict, notFound, policyForbidden } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import {
  type AttachmentRow,
  type AttachmentSortColumn,
  attachmentsStore,
} from '../store/attachments.store.js';
import { type VolumeRow, volumesStore } from '../store/volumes.store.js';
import type { Caller as VolumeCaller } from './caller.js';
import { invalidSortKey, processSortParams } from './paging.js';
import { type DerivedStatus, STATUS_NOT_REWRITTEN, statusFromAttachments } from './volume-status.js';

/**
 * Cinder's attachment rules (`volume/api.py` attachment_*, `_attachment_reserve`, the legacy
 * reserve/attach/detach calls, and the manager's `attachment_update`). The functions that change
 * something take the store and an open transaction: `createAttachmentsService` opens one per
 * request for the volume API's routes, and other services reach the same functions through the
 * volume API (`volume/api.ts`) inside their own transaction.
 *
 * The emulation keeps one invariant real Cinder only mostly keeps: after every attachment change
 * the volume's status and attach_status are recomputed from its attachments (reference 2.2).
 */

type Db = Kysely<Schema>;

/**
 * Who acts: the volume service's caller. `isService` marks an in-process OpenStack service (our
 * Nova), as a service token does in Cinder.
 */
export type Caller = VolumeCaller & { isService?: boolean };

export type AttachMode = 'rw' | 'ro';
/** os-brick's connector dict: initiator, ip, platform, host, os_type, multipath, mountpoint, mode, ... */
export type Connector = Record<string, unknown>;

/** One attachment to reserve. */
export interface ReserveRequest {
  volumeId: string;
  instanceUuid?: string | null;
  /** With a connector the attachment is reserved and connected at once (`attaching`). */
  connector?: Connector | null;
  /** Cinder 3.54 `mode`. */
  mode?: AttachMode | null;
}

/** One attachment to connect with a host's connector. */
export interface ConnectRequest {
  caller: Caller;
  attachmentId: string;
  connector: Connector;
}

// --- Messages, quoted from Cinder ----------------------------------------------------------------

const volumeNotFound = (id: string) => notFound(`Volume ${id} could not be found.`);
const attachmentNotFound = (id: string) =>
  notFound(`Volume attachment could not be found with filter: attachment_id = ${id}.`);
const invalidVolume = (reason: string) => badRequest(`Invalid volume: ${reason}`);

/** `_attachment_reserve`'s allowed statuses, with `reserved` added for multiattach (bug 1747985 fixed). */
const RESERVE_FROM_PLAIN = ['available', 'downloading'] as const;
const RESERVE_FROM_MULTIATTACH = ['available', 'in-use', 'downloading', 'reserved'] as const;
/** The legacy `reserve_volume`'s sets are narrower (no downloading). */
const LEGACY_RESERVE_FROM_PLAIN = ['available'] as const;
const LEGACY_RESERVE_FROM_MULTIATTACH = ['available', 'in-use'] as const;
/** `_is_volume_migrating`: a migration in one of these states is not running. */
const MIGRATION_IDLE = new Set([null, 'deleting', 'error', 'success']);

// --- Nova's view of an attachment (OSSA-2023-003) ------------------------------------------------

/** What Cinder asks of Nova (`cinder/compute/nova.py`), given to the volume service when it is built. */
export interface NovaClient {
  /** Does Nova's `GET /servers/{instance}/os-volume_attachments/{volume}` report this attachment id? */
  isUsingAttachment(instanceUuid: string, attachmentId: string): Promise<boolean>;
}

/**
 * Cinder's `attachment_deletion_allowed` as a user sees it: an attachment with a server and a
 * connection that Nova still reports must be detached through Nova. Call it outside the
 * transaction (Cinder asks Nova over HTTP before touching its database).
 */
async function assertDeletionAllowed(
  caller: Caller,
  attachment: AttachmentRow,
  nova: NovaClient,
): Promise<void> {
  if (caller.isService) return;
  if (!attachment.instance_uuid || !attachment.connection_info) return;
  if (await nova.isUsingAttachment(attachment.instance_uuid, attachment.id)) {
    // The "<class>: " prefix comes from Cinder's fault wrapper for "safe" exceptions (captures 57, 58).
    throw conflict(
      `ConflictNovaUsingAttachment: Detach volume from instance ${attachment.instance_uuid} using the Compute API`,
    );
  }
}

// --- Policy --------------------------------------------------------------------------------------

/** The rules Cinder checks before these changes (cinder/policies/attachments.py, volume_actions.py). */
export const ATTACHMENT_RULES = {
  create: 'volume:attachment_create',
  update: 'volume:attachment_update',
  complete: 'volume:attachment_complete',
  delete: 'volume:attachment_delete',
  reserve: 'volume_extension:volume_actions:reserve',
  unreserve: 'volume_extension:volume_actions:unreserve',
  beginDetaching: 'volume_extension:volume_actions:begin_detaching',
  rollDetaching: 'volume_extension:volume_actions:roll_detaching',
  attach: 'volume_extension:volume_actions:attach',
  detach: 'volume_extension:volume_actions:detach',
  initializeConnection: 'volume_extension:volume_actions:initialize_connection',
  terminateConnection: 'volume_extension:volume_actions:terminate_connection',
} as const;

// --- Lookups -------------------------------------------------------------------------------------

// Each lookup takes the policy rule of the change it starts, if any: a caller who may only read
// its project gets that rule's 403, after the lookup's 404 (Cinder finds the object, then checks).

const canSee = (caller: Caller, projectId: string) => caller.isAdmin || caller.projectId === projectId;

/** A volume the caller may act on; another project's volume is "not found" for members. */
async function visibleVolume(
  db: Db,
  caller: Caller,
  volumeId: string,
  writeRule?: string,
): Promise<VolumeRow> {
  const volume = await volumesStore.byId(db, volumeId);
  if (!volume || !canSee(caller, volume.project_id)) throw volumeNotFound(volumeId);
  if (writeRule) assertProjectWriter(caller, writeRule);
  return volume;
}

async function lockVisibleVolume(
  store: Store,
  tx: Tx,
  caller: Caller,
  volumeId: string,
  writeRule?: string,
): Promise<VolumeRow> {
  const volume = await volumesStore.lockById(store, tx, volumeId);
  if (!volume || !canSee(caller, volume.project_id)) throw volumeNotFound(volumeId);
  if (writeRule) assertProjectWriter(caller, writeRule);
  return volume;
}

/** An attachment the caller may see: one of their project's volumes', or any for an admin. */
async function getAttachment(
  db: Db,
  caller: Caller,
  attachmentId: string,
  writeRule?: string,
): Promise<AttachmentRow> {
  const found = await attachmentsStore.byIdWithProject(db, attachmentId);
  if (!found || !canSee(caller, found.project_id)) throw attachmentNotFound(attachmentId);
  if (writeRule) assertProjectWriter(caller, writeRule);
  const { project_id: _project, ...row } = found;
  return row;
}

/** Reads the attachment, then locks its volume and reads the attachment again under the lock. */
async function lockAttachment(
  store: Store,
  tx: Tx,
  caller: Caller,
  attachmentId: string,
  writeRule?: string,
): Promise<{ volume: VolumeRow; attachment: AttachmentRow }> {
  const first = await getAttachment(tx, caller, attachmentId, writeRule);
  const volume = await volumesStore.lockById(store, tx, first.volume_id);
  const attachment = await attachmentsStore.byId(tx, attachmentId);
  if (!volume || !attachment) throw attachmentNotFound(attachmentId);
  return { volume, attachment };
}

// --- The volume status rule ----------------------------------------------------------------------

/**
 * Recomputes a (locked) volume's status and attach_status from its attachments. Like Cinder's
 * `volume_detached`, attach_status always follows, while the status is held during a migration
 * and in the statuses Cinder does not rewrite (uploading, backing-up, ...).
 */
export async function recomputeVolumeStatus(tx: Db, volume: VolumeRow): Promise<DerivedStatus> {
  const { status, attachStatus } = settledStatus(
    volume,
    await attachmentsStore.statusesForVolume(tx, volume.id),
  );
  if (status !== volume.status || attachStatus !== volume.attach_status) {
    await volumesStore.update(tx, volume.id, { status, attach_status: attachStatus, updated_at: nowIso() });
  }
  return { status, attachStatus };
}

/** The status and attach_status `recomputeVolumeStatus` gives a volume with these attachments. */
function settledStatus(
  volume: VolumeRow,
  attachments: readonly (string | Pick<AttachmentRow, 'attach_status'>)[],
): DerivedStatus {
  const derived = statusFromAttachments(
    attachments.map((a) => (typeof a === 'string' ? a : a.attach_status)),
  );
  const holdStatus = STATUS_NOT_REWRITTEN.has(volume.status) || !MIGRATION_IDLE.has(volume.migration_status);
  return { status: holdStatus ? volume.status : derived.status, attachStatus: derived.attachStatus };
}

// --- Attachments API (3.27+) ---------------------------------------------------------------------

/**
 * Cinder's `attachment_create` for each request, in order, as if one after another: reserves an
 * attachment (connecting it at once when a connector is given). The reserve rules are reference
 * 2.4 with bug 1747985 fixed. One request is a batch of one; many (the servers of a multi-create,
 * a server's volumes moving hosts) lock each volume once, in id order, and settle its status once.
 * Returns the attachments in the requests' order.
 */
export async function reserveAttachments(
  store: Store,
  tx: Tx,
  caller: Caller,
  requests: readonly ReserveRequest[],
): Promise<AttachmentRow[]> {
  const byVolume = new Map<string, ReserveRequest[]>();
  for (const r of requests) byVolume.set(r.volumeId, [...(byVolume.get(r.volumeId) ?? []), r]);
  const made = new Map<ReserveRequest, AttachmentRow>();
  for (const volumeId of [...byVolume.keys()].sort()) {
    const volume = await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.create);
    assertReservable(volume);
    const own = byVolume.get(volumeId) ?? [];
    const rows = await reserveOnVolume(tx, volume, own);
    for (const [i, r] of own.entries()) made.set(r, rows[i] as AttachmentRow);
  }
  return requests.map((r) => made.get(r) as AttachmentRow);
}

/** The reserves of one locked volume: each request meets the status the previous one left. */
async function reserveOnVolume(
  tx: Tx,
  volume: VolumeRow,
  requests: readonly ReserveRequest[],
): Promise<AttachmentRow[]> {
  const allowed: readonly string[] = volume.multiattach ? RESERVE_FROM_MULTIATTACH : RESERVE_FROM_PLAIN;
  const rows: AttachmentRow[] = [];
  // The volume's attachments before this batch, read once and only when a rule needs them.
  let before: AttachmentRow[] | undefined;
  const attachmentsNow = async () => {
    before ??= await attachmentsStore.forVolume(tx, volume.id);
    return [...before, ...rows];
  };
  let status = volume.status;
  for (const [i, request] of requests.entries()) {
    const instanceUuid = request.instanceUuid ?? null;
    if (!allowed.includes(status)) {
      // LP 1694530: the same server may hold a second attachment (live migration to another host).
      const sameInstance =
        instanceUuid !== null &&
        (status === 'in-use' || status === 'reserved') &&
        (await attachmentsNow()).some((a) => a.instance_uuid === instanceUuid);
      if (!sameInstance) {
        throw invalidVolume(
          `Volume ${volume.id} status must be ${allowed.join(' or ')} to reserve, but the current status is ${status}.`,
        );
      }
    }
    const reserved = reservedRow(volume, instanceUuid, request.mode);
    rows.push(
      request.connector ? { ...reserved, ...connectChanges(volume, reserved, request.connector) } : reserved,
    );
    if (i < requests.length - 1) status = settledStatus(volume, await attachmentsNow()).status;
  }
  await attachmentsStore.insertMany(tx, rows);
  await recomputeVolumeStatus(tx, volume);
  return rows;
}

function assertReservable(volume: VolumeRow): void {
  if (volume.status.includes('error')) {
    // The trailing space is in Cinder's string.
    throw invalidVolume(
      `Volume attachments can not be created if the volume is in an error state. The Volume ${volume.id} currently has a status of: ${volume.status} `,
    );
  }
}

function reservedRow(
  volume: VolumeRow,
  instanceUuid: string | null,
  mode: AttachMode | null | undefined,
): AttachmentRow {
  return {
    id: newUuid(),
    volume_id: volume.id,
    instance_uuid: instanceUuid,
    attached_host: null,
    mountpoint: null,
    attach_status: 'reserved',
    // Any readonly admin-metadata key, even "False", forces ro and overrides `mode` (captures 248, 255).
    attach_mode: volume.readonly_flag !== null ? 'ro' : (mode ?? 'null'),
    connector: null,
    connection_info: null,
    attached_at: null,
    detached_at: null,
    created_at: nowIso(),
    updated_at: null,
  };
}

/** `attachment_update`'s refusals: a volume in error, or a second connection to a plain volume. */
async function assertConnectable(tx: Tx, volume: VolumeRow): Promise<void> {
  if (volume.status.includes('error')) {
    throw conflict(
      `Resource conflict: Volume attachments can not be updated if the volume is in an error state. The Volume ${volume.id} currently has a status of: ${volume.status} `,
    );
  }
  if (!volume.multiattach) {
    // Two attachments of a plain volume are only for moving a server; both may not be connected.
    const others = await attachmentsStore.forVolume(tx, volume.id);
    if (others.length > 1 && others.some((a) => a.connection_info)) {
      throw conflict(`Resource conflict: duplicate connectors detected on volume ${volume.id}`);
    }
  }
}

/**
 * Cinder's `attachment_update` for each request: connects a reserved attachment with a host's
 * connector; with `complete`, also `attachment_complete` straight after (Nova's host connecting
 * a volume), in the same transaction. One request is a batch of one; many (the hosts of one
 * multi-create) lock each volume once, in id order, and settle its status once, after all of
 * them. Returns the connected attachments by id.
 */
export async function connectAttachments(
  store: Store,
  tx: Tx,
  requests: readonly ConnectRequest[],
  options: { complete: boolean },
): Promise<Map<string, AttachmentRow>> {
  const found = new Map(
    (
      await attachmentsStore.byIdsWithProject(
        tx,
        requests.map((r) => r.attachmentId),
      )
    ).map((a) => [a.id, a]),
  );
  for (const r of requests) {
    const a = found.get(r.attachmentId);
    if (!a || !canSee(r.caller, a.project_id)) throw attachmentNotFound(r.attachmentId);
    assertProjectWriter(r.caller, ATTACHMENT_RULES.update);
    if (options.complete) assertProjectWriter(r.caller, ATTACHMENT_RULES.complete);
  }
  const volumes = new Map<string, VolumeRow>();
  for (const id of [...new Set([...found.values()].map((a) => a.volume_id))].sort()) {
    const volume = await volumesStore.lockById(store, tx, id);
    if (volume) volumes.set(id, volume);
  }
  // Read again under the volume locks, as `lockAttachment` does.
  const current = new Map(
    (
      await attachmentsStore.byIdsWithProject(
        tx,
        requests.map((r) => r.attachmentId),
      )
    ).map(({ project_id: _project, ...a }) => [a.id, a as AttachmentRow]),
  );
  for (const volume of volumes.values()) await assertConnectable(tx, volume);
  const out = new Map<string, AttachmentRow>();
  for (const r of requests) {
    const attachment = current.get(r.attachmentId);
    const volume = attachment ? volumes.get(attachment.volume_id) : undefined;
    if (!attachment || !volume) throw attachmentNotFound(r.attachmentId);
    const changes = connectChanges(volume, attachment, r.connector);
    out.set(attachment.id, {
      ...attachment,
      ...changes,
      ...(options.complete ? { attach_status: 'attached' } : {}),
    });
  }
  await attachmentsStore.updateEach(tx, [...out.values()], CONNECTED_COLUMNS);
  for (const volume of volumes.values()) await recomputeVolumeStatus(tx, volume);
  return out;
}

/** `POST /attachments/{id}/action {"os-complete": null}` (3.44): the attachment becomes attached. */
export async function completeAttachment(
  store: Store,
  tx: Tx,
  caller: Caller,
  attachmentId: string,
): Promise<void> {
  const { volume, attachment } = await lockAttachment(
    store,
    tx,
    caller,
    attachmentId,
    ATTACHMENT_RULES.complete,
  );
  // attached_at is not set here: Cinder stamps it when the connection is made (capture 174).
  await attachmentsStore.update(tx, attachment.id, { attach_status: 'attached', updated_at: nowIso() });
  await recomputeVolumeStatus(tx, volume);
}

/**
 * Cinder's `attachment_delete` for each id: the attachments go and each volume's status is
 * settled once. With `ignoreMissing`, an id already gone is passed over (Nova logs a 404 and
 * carries on); otherwise it is Cinder's 404. Returns the volumes the attachments belonged to.
 */
export async function deleteAttachments(
  store: Store,
  tx: Tx,
  caller: Caller,
  attachmentIds: readonly string[],
  options: { ignoreMissing: boolean } = { ignoreMissing: false },
): Promise<string[]> {
  const found = new Map((await attachmentsStore.byIdsWithProject(tx, attachmentIds)).map((a) => [a.id, a]));
  for (const id of attachmentIds) {
    const a = found.get(id);
    if (!a || !canSee(caller, a.project_id)) {
      if (options.ignoreMissing && !a) continue;
      throw attachmentNotFound(id);
    }
    assertProjectWriter(caller, ATTACHMENT_RULES.delete);
  }
  const volumeIds = [...new Set([...found.values()].map((a) => a.volume_id))].sort();
  const volumes: VolumeRow[] = [];
  for (const id of volumeIds) {
    const volume = await volumesStore.lockById(store, tx, id);
    if (volume) volumes.push(volume);
  }
  // Read again under the volume locks: one deleted meanwhile is as missing as one never there.
  const current = new Set((await attachmentsStore.byIdsWithProject(tx, [...found.keys()])).map((a) => a.id));
  const gone = [...found.keys()].find((id) => !current.has(id));
  if (gone !== undefined && !options.ignoreMissing) throw attachmentNotFound(gone);
  await attachmentsStore.deleteMany(tx, [...current]);
  for (const volume of volumes) await recomputeVolumeStatus(tx, volume);
  return volumeIds;
}

export interface ListRequest {
  /** `all_tenants` was given (any value): honoured for admins only, ignored for members. */
  allTenants: boolean;
  volumeId?: string;
  /** `status` or `attach_status`. */
  attachStatus?: string;
  instanceId?: string;
  marker: string | null;
  limit: number;
  offset: number;
  /** Requested sort keys and directions (Cinder's default: created_at desc). */
  sortKeys: string[];
  sortDirs: string[];
}

/** The API's sort key names → columns; others are Cinder's "Invalid sort key". */
// No prototype: the keys come from the request, and `constructor` must not find a column.
const SORT_COLUMNS: Record<string, AttachmentSortColumn> = Object.assign(Object.create(null), {
  id: 'id',
  created_at: 'created_at',
  volume_id: 'volume_id',
  attach_status: 'attach_status',
  status: 'attach_status',
});

/** `GET /attachments[/detail]`: one page, one query. */
async function listAttachments(db: Db, caller: Caller, request: ListRequest): Promise<AttachmentRow[]> {
  const projectId = caller.isAdmin && request.allTenants ? null : caller.projectId;
  const { keys, dirs } = processSortParams(request.sortKeys, request.sortDirs);
  const sort = keys.map((key, i) => {
    const column = SORT_COLUMNS[key];
    if (!column) throw invalidSortKey();
    return { column, direction: dirs[i] ?? 'desc' };
  });
  let after: AttachmentRow | undefined;
  if (request.marker !== null) {
    const found = await attachmentsStore.byIdWithProject(db, request.marker);
    if (!found || (projectId !== null && found.project_id !== projectId))
      throw attachmentNotFound(request.marker);
    const { project_id: _project, ...marker } = found;
    after = marker;
  }
  return attachmentsStore.list(db, {
    projectId,
    ...(request.volumeId !== undefined ? { volumeId: request.volumeId } : {}),
    ...(request.attachStatus !== undefined ? { attachStatus: request.attachStatus } : {}),
    ...(request.instanceId !== undefined ? { instanceUuid: request.instanceId } : {}),
    ...(after ? { after } : {}),
    sort,
    limit: request.limit,
    offset: request.offset,
  });
}

// --- Connecting ----------------------------------------------------------------------------------

/**
 * The emulated driver's connection info, in the shape the recorded cloud's fake iSCSI driver
 * returned (captures 40, 178): flat, no target details.
 */
function connectionInfo(
  volume: Pick<VolumeRow, 'encrypted'>,
  accessMode: AttachMode,
  attachmentId?: string,
): Record<string, unknown> {
  return {
    access_mode: accessMode,
    qos_specs: null,
    encrypted: volume.encrypted === 1,
    cacheable: false,
    driver_volume_type: 'iscsi',
    ...(attachmentId !== undefined ? { attachment_id: attachmentId } : {}),
  };
}

/** The manager's rule: the stored mode unless "null", else the connector's, else rw. */
function effectiveMode(stored: string, connector: Connector): AttachMode {
  if (stored === 'ro' || stored === 'rw') return stored;
  return connector['mode'] === 'ro' ? 'ro' : 'rw';
}

/**
 * Cinder's `_parse_connection_options` gives ro only for readonly=True. This emulation implements
 * the Nova "multiattach enhancements" spec, which needs the hypervisor to honour a ro attachment,
 * so an effective mode of ro also yields access_mode ro (the gap described in reference 2.5).
 */
function accessModeFor(volume: VolumeRow, mode: AttachMode): AttachMode {
  return volume.readonly_flag === 'True' || mode === 'ro' ? 'ro' : 'rw';
}

/** The columns `connectChanges` writes. */
const CONNECTED_COLUMNS = [
  'attach_status',
  'attach_mode',
  'connector',
  'connection_info',
  'mountpoint',
  'attached_host',
  'attached_at',
  'updated_at',
] as const;

/** What connecting `attachment` with `connector` writes. */
function connectChanges(volume: VolumeRow, attachment: AttachmentRow, connector: Connector) {
  const mode = effectiveMode(attachment.attach_mode, connector);
  const now = nowIso();
  const changes = {
    attach_status: 'attaching',
    attach_mode: mode,
    // The manager writes the effective mode back into the connector it keeps.
    connector: JSON.stringify({ ...connector, mode }),
    connection_info: JSON.stringify(connectionInfo(volume, accessModeFor(volume, mode), attachment.id)),
    mountpoint: typeof connector['mountpoint'] === 'string' ? connector['mountpoint'] : 'na',
    attached_host: typeof connector['host'] === 'string' ? connector['host'] : null,
    attached_at: now,
    updated_at: now,
  } satisfies Partial<AttachmentRow>;
  return changes;
}

// --- Legacy volume actions (before the attachments API) ------------------------------------------

/** `os-reserve`: the volume goes `attaching` (Cinder's `reserve_volume`). */
async function reserveVolume(store: Store, tx: Tx, caller: Caller, volumeId: string): Promise<void> {
  const volume = await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.reserve);
  const allowed: readonly string[] = volume.multiattach
    ? LEGACY_RESERVE_FROM_MULTIATTACH
    : LEGACY_RESERVE_FROM_PLAIN;
  if (!allowed.includes(volume.status)) {
    throw invalidVolume(
      `Volume status must be ${allowed.join(' or ')} to reserve, but the status is ${volume.status}.`,
    );
  }
  await volumesStore.update(tx, volume.id, { status: 'attaching', updated_at: nowIso() });
}

/** `os-unreserve`: an `attaching` volume goes back to what its attachments say; otherwise nothing. */
async function unreserveVolume(store: Store, tx: Tx, caller: Caller, volumeId: string): Promise<void> {
  const volume = await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.unreserve);
  if (volume.status === 'attaching') await recomputeVolumeStatus(tx, volume);
}

/** `os-begin_detaching`: in-use → detaching. */
export async function beginDetaching(store: Store, tx: Tx, caller: Caller, volumeId: string): Promise<void> {
  const volume = await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.beginDetaching);
  if (!MIGRATION_IDLE.has(volume.migration_status)) return; // hidden from the user during a migration
  if (volume.status !== 'in-use' || volume.attach_status !== 'attached') {
    throw invalidVolume(
      "Unable to detach volume. Volume status must be 'in-use' and attach_status must be 'attached' to detach.",
    );
  }
  await volumesStore.update(tx, volume.id, { status: 'detaching', updated_at: nowIso() });
}

/** `os-roll_detaching`: a `detaching` volume goes back to what its attachments say (in-use). */
export async function rollDetaching(store: Store, tx: Tx, caller: Caller, volumeId: string): Promise<void> {
  const volume = await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.rollDetaching);
  if (volume.status === 'detaching') await recomputeVolumeStatus(tx, volume);
}

export interface LegacyAttachRequest {
  volumeId: string;
  instanceUuid: string | null;
  hostName: string | null;
  mountpoint: string;
  mode: AttachMode;
}

/** `os-attach`: records a finished attachment (Cinder's `attach` and the manager's `attach_volume`). */
async function attachVolume(
  store: Store,
  tx: Tx,
  caller: Caller,
  request: LegacyAttachRequest,
): Promise<AttachmentRow> {
  const volume = await lockVisibleVolume(store, tx, caller, request.volumeId, ATTACHMENT_RULES.attach);
  if (volume.status === 'maintenance')
    throw invalidVolume('The volume cannot be attached in maintenance mode.');
  // Cinder adds readonly=False admin metadata when it is missing; later reserves then come out ro.
  const readonly = volume.readonly_flag ?? 'False';
  if (volume.readonly_flag === null) await volumesStore.update(tx, volume.id, { readonly_flag: readonly });
  if (readonly === 'True' && request.mode !== 'ro') {
    throw badRequest(`Invalid attaching mode '${request.mode}' for volume ${volume.id}.`);
  }
  const attachments = await attachmentsStore.forVolume(tx, volume.id);
  const existing = attachments.find((a) =>
    request.instanceUuid !== null
      ? a.instance_uuid === request.instanceUuid
      : a.instance_uuid === null && a.attached_host === request.hostName,
  );
  if (existing) {
    // Already tracked: the manager just marks the volume in use again.
    await recomputeVolumeStatus(tx, volume);
    return existing;
  }
  if (volume.status === 'in-use' && !volume.multiattach && MIGRATION_IDLE.has(volume.migration_status)) {
    throw invalidVolume('volume is already attached and multiple attachments are not enabled');
  }
  const now = nowIso();
  const row: AttachmentRow = {
    id: newUuid(),
    volume_id: volume.id,
    instance_uuid: request.instanceUuid,
    attached_host: request.hostName,
    mountpoint: request.mountpoint,
    attach_status: 'attached',
    attach_mode: request.mode,
    connector: null,
    connection_info: null,
    attached_at: now,
    detached_at: null,
    created_at: now,
    updated_at: now,
  };
  await attachmentsStore.insert(tx, row);
  await recomputeVolumeStatus(tx, volume);
  return row;
}

/**
 * Which attachment `os-detach` would remove: the given one, or the only one. Null when there is
 * nothing to remove. Throws Cinder's 400 for several attachments and no attachment_id.
 */
async function attachmentToDetach(
  db: Db,
  volume: VolumeRow,
  attachmentId: string | null,
): Promise<AttachmentRow | null> {
  const attachments = await attachmentsStore.forVolume(db, volume.id);
  if (attachmentId !== null) return attachments.find((a) => a.id === attachmentId) ?? null;
  if (attachments.length > 1) {
    throw invalidVolume('Detach volume failed: More than one attachment, but no attachment_id provided.');
  }
  return attachments[0] ?? null;
}

/** `os-detach`: removes one attachment and recomputes the volume (the manager's `detach_volume`). */
async function detachVolume(
  store: Store,
  tx: Tx,
  caller: Caller,
  volumeId: string,
  attachmentId: string | null,
): Promise<void> {
  const volume = await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.detach);
  if (volume.status === 'maintenance')
    throw invalidVolume('The volume cannot be detached in maintenance mode.');
  const attachment = await attachmentToDetach(tx, volume, attachmentId);
  // An unknown attachment_id, or none at all: Cinder only makes the status right again.
  if (attachment) await attachmentsStore.delete(tx, attachment.id);
  await recomputeVolumeStatus(tx, volume);
}

/** `os-initialize_connection`: the driver's connection info for a connector (legacy flow). */
async function initializeConnection(
  db: Db,
  caller: Caller,
  volumeId: string,
): Promise<Record<string, unknown>> {
  const volume = await visibleVolume(db, caller, volumeId, ATTACHMENT_RULES.initializeConnection);
  if (volume.status === 'maintenance') {
    throw invalidVolume('The volume connection cannot be initialized in maintenance mode.');
  }
  return connectionInfo(volume, volume.readonly_flag === 'True' ? 'ro' : 'rw');
}

/** `os-terminate_connection`: the driver forgets the connector, then the volume is unreserved. */
async function terminateConnection(store: Store, tx: Tx, caller: Caller, volumeId: string): Promise<void> {
  await lockVisibleVolume(store, tx, caller, volumeId, ATTACHMENT_RULES.terminateConnection);
  await unreserveVolume(store, tx, caller, volumeId);
}

// --- The volume API's attachment calls -----------------------------------------------------------

/**
 * The attachment calls of the volume API, each in a transaction of its own. A user's delete or
 * detach asks Nova first, outside the transaction, as Cinder asks Nova over HTTP before it
 * touches its database.
 */
export function createAttachmentsService(deps: { store: Store; nova: NovaClient }) {
  const { store, nova } = deps;
  const db = store.db;
  const inTx = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => store.transaction(fn);

  return {
    list: (caller: Caller, request: ListRequest) => listAttachments(db, caller, request),

    get: (caller: Caller, attachmentId: string) => getAttachment(db, caller, attachmentId),

    /** `POST /attachments`. */
    async create(caller: Caller, request: ReserveRequest): Promise<AttachmentRow> {
      const [row] = await inTx((tx) => reserveAttachments(store, tx, caller, [request]));
      return row as AttachmentRow;
    },

    /** `PUT /attachments/{id}`: connected, not completed. */
    async update(caller: Caller, attachmentId: string, connector: Connector): Promise<AttachmentRow> {
      const rows = await inTx((tx) =>
        connectAttachments(store, tx, [{ caller, attachmentId, connector }], { complete: false }),
      );
      return rows.get(attachmentId) as AttachmentRow;
    },

    complete: (caller: Caller, attachmentId: string) =>
      inTx((tx) => completeAttachment(store, tx, caller, attachmentId)),

    /** `DELETE /attachments/{id}`: the volume's remaining attachments. */
    async delete(caller: Caller, attachmentId: string): Promise<AttachmentRow[]> {
      const attachment = await getAttachment(db, caller, attachmentId, ATTACHMENT_RULES.delete);
      await assertDeletionAllowed(caller, attachment, nova);
      return inTx(async (tx) => {
        await deleteAttachments(store, tx, caller, [attachmentId]);
        return attachmentsStore.forVolume(tx, attachment.volume_id);
      });
    },

    // The legacy actions of `POST /volumes/{id}/action`.
    reserveVolume: (caller: Caller, volumeId: string) =>
      inTx((tx) => reserveVolume(store, tx, caller, volumeId)),
    unreserveVolume: (caller: Caller, volumeId: string) =>
      inTx((tx) => unreserveVolume(store, tx, caller, volumeId)),
    beginDetaching: (caller: Caller, volumeId: string) =>
      inTx((tx) => beginDetaching(store, tx, caller, volumeId)),
    rollDetaching: (caller: Caller, volumeId: string) =>
      inTx((tx) => rollDetaching(store, tx, caller, volumeId)),
    attachVolume: (caller: Caller, request: LegacyAttachRequest) =>
      inTx((tx) => attachVolume(store, tx, caller, request)),

    /** `os-detach`: a user may not detach what Nova still uses (OSSA-2023-003, capture 58). */
    async detachVolume(caller: Caller, volumeId: string, attachmentId: string | null): Promise<void> {
      const volume = await visibleVolume(db, caller, volumeId, ATTACHMENT_RULES.detach);
      const target = await attachmentToDetach(db, volume, attachmentId);
      if (target) await assertDeletionAllowed(caller, target, nova);
      await inTx((tx) => detachVolume(store, tx, caller, volumeId, attachmentId));
    },

    /**
     * `os-force_detach` (admins, after the 404): the connection terminated and the attachment
     * removed whatever the volume's status, then the status recomputed. An attachment_id the
     * volume has not is Cinder's RemoteError, answered as 400.
     */
    forceDetach: (caller: Caller, volumeId: string, attachmentId: string | null) =>
      inTx(async (tx) => {
        const volume = await lockVisibleVolume(store, tx, caller, volumeId);
        if (!caller.isAdmin) throw policyForbidden('volume_extension:volume_admin_actions:force_detach');
        const attachments = await attachmentsStore.forVolume(tx, volumeId);
        const target =
          attachmentId !== null
            ? attachments.find((a) => a.id === attachmentId)
            : attachments.length === 1
              ? attachments[0]
              : undefined;
        if (attachmentId !== null && !target) {
          throw badRequest(
            `Error force detaching volume - VolumeAttachmentNotFound: Volume attachment could not be found with filter: attachment_id = ${attachmentId}.`,
          );
        }
        if (attachmentId === null && attachments.length > 1) {
          throw badRequest(
            'Error force detaching volume - InvalidVolume: Invalid volume: Detach volume failed: More than one attachment, but no attachment_id provided.',
          );
        }
        if (target) await attachmentsStore.delete(tx, target.id);
        const remaining = await attachmentsStore.forVolume(tx, volumeId);
        const now = nowIso();
        // volume_detached: the last attachment gone leaves the volume available and detached.
        if (remaining.length === 0) {
          await volumesStore.update(tx, volumeId, {
            status: 'available',
            attach_status: 'detached',
            updated_at: now,
          });
        } else {
          await recomputeVolumeStatus(tx, volume);
        }
      }),

    initializeConnection: (caller: Caller, volumeId: string) => initializeConnection(db, caller, volumeId),
    terminateConnection: (caller: Caller, volumeId: string) =>
      inTx((tx) => terminateConnection(store, tx, caller, volumeId)),
  };
}

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
