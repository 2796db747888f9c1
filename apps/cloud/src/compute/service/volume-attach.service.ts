import type { CloudDeps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, OpenStackError } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import {
  beginDetaching,
  type Caller,
  completeAttachment,
  removeAttachment,
  reserveAttachment,
  reserveAttachments,
  updateAndCompleteAttachment,
  updateAndCompleteAttachments,
} from '../../volume/service/attachments.service.js';
import { createBackend } from '../../volume/service/backend.js';
import { attachmentsStore } from '../../volume/store/attachments.store.js';
import { type VolumeRow, volumesStore } from '../../volume/store/volumes.store.js';
import { type AttachHost, attachHostsStore, type BdmRow, bdmsStore } from '../store/bdms.store.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { assertProjectWriter, RULES } from '../policy.js';
import { nextDeviceName, normaliseDeviceName } from './device-names.js';
import {
  ATTACH_STATES,
  type AttachMode,
  assertHostCanAttach,
  assertInstanceState,
  assertShelvedAllowed,
  cinderBadRequest,
  DETACH_STATES,
  instanceNotFound,
  MULTIATTACH_OLD_MICROVERSION,
  MULTIATTACH_TO_SHELVED,
  notAttached,
  ROOT_DETACH,
  TAGGED_TO_SHELVED,
  volumeNotFound,
} from './volume-attach-rules.js';

export type { AttachMode } from './volume-attach-rules.js';

/**
 * Nova's side of volume attachments: the API rules (compute/api.py attach_volume,
 * detach_volume, `_check_attach_and_reserve_volume`) and the emulated compute host's steps
 * (reserve_block_device_name, attachment update with a connector, complete, delete). Every
 * change to a Cinder attachment goes through the volume service's attachment functions.
 */

// --- Callers -------------------------------------------------------------------------------------

/** The user's own view of Cinder (Nova forwards the user's token). */
export function cinderCaller(auth: AuthContext): Caller {
  return { projectId: auth.projectId ?? '', userId: auth.userId, isAdmin: auth.isAdmin };
}

/** nova-compute talking to Cinder with a service token (which OSSA-2023-003 lets through). */
export function novaServiceCaller(server: Pick<ServerRow, 'project_id' | 'user_id'>): Caller {
  return { projectId: server.project_id, userId: server.user_id, isAdmin: true, isService: true };
}

// --- Lookups -------------------------------------------------------------------------------------

const canSee = (auth: AuthContext, projectId: string) => auth.isAdmin || auth.projectId === projectId;

/** `common.get_instance`, locking the row so device names and attachments of one server serialise. */
export async function lockServerFor(deps: CloudDeps, tx: Tx, caller: AuthContext, serverId: string) {
  const server = await serversStore.lockById(deps.store, tx, serverId);
  if (!server || !canSee(caller, server.project_id)) throw instanceNotFound(serverId);
  return server;
}

/** A read-only `common.get_instance`, for list and show. */
export async function getServerFor(deps: CloudDeps, caller: AuthContext, serverId: string) {
  const server = await serversStore.byId(deps.store.db, serverId);
  if (!server || !canSee(caller, server.project_id)) throw instanceNotFound(serverId);
  return server;
}

/** The volume as the user's Cinder token sees it, locked: every attachment rule starts here. */
async function lockVolumeFor(deps: CloudDeps, tx: Tx, caller: AuthContext, volumeId: string) {
  const volume = await volumesStore.lockById(deps.store, tx, volumeId);
  return volume && canSee(caller, volume.project_id) ? volume : undefined;
}

/** `_check_volume_already_attached`, on Nova's own mappings. */
async function checkVolumeAlreadyAttached(tx: Tx, serverId: string, volume: VolumeRow): Promise<void> {
  if (volume.multiattach === 1) {
    if (await bdmsStore.byServerAndVolume(tx, serverId, volume.id)) {
      throw badRequest(`Invalid volume: volume ${volume.id} already attached`);
    }
    return;
  }
  const holders = await bdmsStore.forVolumeOnLiveServers(tx, volume.id);
  if (holders.length > 0) {
    const uuids = holders.map((b) => b.server_id).join(' ');
    throw badRequest(`Invalid volume: volume ${volume.id} is already attached to instances: ${uuids}`);
  }
}

// --- Reserving (API side) ------------------------------------------------------------------------

export interface ReserveVolumeArgs {
  server: ServerRow;
  volumeId: string;
  bootIndex: number | null;
  sourceType: string;
  destinationType: string;
  deviceName?: string | null;
  tag?: string | null;
  deleteOnTermination: boolean;
  /** null or undefined means the default, rw. */
  attachMode: AttachMode | null | undefined;
  volumeSize?: number | null;
  volumeType?: string | null;
  imageId?: string | null;
  diskBus?: string | null;
  deviceType?: string | null;
  guestFormat?: string | null;
  version: Microversion;
  /** Server create (`_validate_bdm`) rather than the attach API: other messages, no BDM check. */
  duringCreate: boolean;
}

/**
 * Per-volume rules inside the caller's transaction, then Cinder's reserve and the BDM insert.
 * Order as in Nova: volume lookup, (attach only) already-attached check, the 2.60 multiattach
 * gate, Cinder `attachment_create` without a connector. Returns the new mapping.
 */
export async function reserveVolumeForServer(
  deps: CloudDeps,
  tx: Tx,
  caller: AuthContext,
  args: ReserveVolumeArgs,
): Promise<BdmRow> {
  const volume = await lockVolumeFor(deps, tx, caller, args.volumeId);
  if (!volume) {
    throw args.duringCreate
      ? badRequest(`Block Device Mapping is Invalid: failed to get volume ${args.volumeId}.`)
      : volumeNotFound(args.volumeId);
  }
  if (!args.duringCreate) await checkVolumeAlreadyAttached(tx, args.server.id, volume);
  return reserveLockedVolume(deps, tx, caller, volume, args);
}

/** `_check_attach_and_reserve_volume` plus the BDM, for a volume already locked and checked. */
async function reserveLockedVolume(
  deps: CloudDeps,
  tx: Tx,
  caller: AuthContext,
  volume: VolumeRow,
  args: ReserveVolumeArgs,
): Promise<BdmRow> {
  if (volume.multiattach === 1 && args.version.below('2.60')) throw badRequest(MULTIATTACH_OLD_MICROVERSION);
  let attachmentId: string;
  try {
    const attachment = await reserveAttachment(deps.store, tx, cinderCaller(caller), {
      volumeId: volume.id,
      instanceUuid: args.server.id,
    });
    attachmentId = attachment.id;
  } catch (err) {
    throw cinderBadRequest(err, args.duringCreate);
  }
  const row = reservedBdm(volume, args.server.id, attachmentId, args);
  await bdmsStore.insert(tx, row);
  return row;
}

/**
 * `reserveVolumeForServer` during a multi-create, for all its servers at once: the volume is
 * looked up, checked and reserved once for every server (Cinder's rules give each reserve the
 * same answer), the mappings written together.
 */
export async function reserveVolumeForServers(
  deps: CloudDeps,
  tx: Tx,
  caller: AuthContext,
  servers: readonly ServerRow[],
  args: Omit<ReserveVolumeArgs, 'server' | 'duringCreate'>,
): Promise<void> {
  const volume = await lockVolumeFor(deps, tx, caller, args.volumeId);
  if (!volume) throw badRequest(`Block Device Mapping is Invalid: failed to get volume ${args.volumeId}.`);
  if (volume.multiattach === 1 && args.version.below('2.60')) throw badRequest(MULTIATTACH_OLD_MICROVERSION);
  let attachments: { id: string }[];
  try {
    attachments = await reserveAttachments(deps.store, tx, cinderCaller(caller), {
      volumeId: volume.id,
      instanceUuids: servers.map((s) => s.id),
    });
  } catch (err) {
    throw cinderBadRequest(err, true);
  }
  await bdmsStore.insertMany(
    tx,
    servers.map((s, i) => reservedBdm(volume, s.id, attachments[i]!.id, args)),
  );
}

function reservedBdm(
  volume: VolumeRow,
  serverId: string,
  attachmentId: string,
  args: Omit<ReserveVolumeArgs, 'server' | 'duringCreate'>,
): BdmRow {
  const isVolume = args.destinationType === 'volume';
  return {
    uuid: newUuid(),
    server_id: serverId,
    source_type: args.sourceType,
    destination_type: args.destinationType,
    volume_id: volume.id,
    image_id: args.imageId ?? null,
    attachment_id: attachmentId,
    boot_index: args.bootIndex,
    device_name: normaliseDeviceName(args.deviceName),
    device_type: args.deviceType ?? (isVolume ? 'disk' : null),
    disk_bus: args.diskBus ?? null,
    guest_format: args.guestFormat ?? null,
    volume_size: args.volumeSize ?? volume.size,
    volume_type: args.volumeType ?? null,
    delete_on_termination: args.deleteOnTermination ? 1 : 0,
    tag: args.tag ?? null,
    // The BDM object's default: rw for volume mappings, nothing for local ones.
    attach_mode: isVolume ? (args.attachMode ?? 'rw') : null,
    connection_info: null,
    created_at: nowIso(),
    updated_at: null,
  };
}

// --- The attach API ------------------------------------------------------------------------------

export interface AttachVolumeRequest {
  serverId: string;
  volumeId: string;
  tag: string | null;
  deleteOnTermination: boolean;
  attachMode: AttachMode | null;
  version: Microversion;
}

export interface AttachVolumeResult {
  server: ServerRow;
  bdm: BdmRow;
}

/**
 * POST /servers/{id}/os-volume_attachments. Reserves in the request (with the device name below
 * 2.101, as reserve_block_device_name did); connecting and completing run on the emulated host.
 */
export async function attachVolumeToServer(
  deps: CloudDeps,
  caller: AuthContext,
  request: AttachVolumeRequest,
): Promise<AttachVolumeResult> {
  const result = await deps.store.transaction(async (tx) => {
    const server = await lockServerFor(deps, tx, caller, request.serverId);
    assertProjectWriter(caller, RULES.attachmentCreate);
    assertShelvedAllowed(server, 'attach_volume', request.version.atLeast('2.20'));
    assertInstanceState(server, caller, 'attach_volume', ATTACH_STATES);
    const volume = await lockVolumeFor(deps, tx, caller, request.volumeId);
    if (!volume) throw volumeNotFound(request.volumeId);
    await checkVolumeAlreadyAttached(tx, server.id, volume);
    const attachMode = request.attachMode ?? 'rw';
    const base: Omit<ReserveVolumeArgs, 'deviceName'> = {
      server,
      volumeId: volume.id,
      bootIndex: null,
      sourceType: 'volume',
      destinationType: 'volume',
      tag: request.tag,
      deleteOnTermination: request.deleteOnTermination,
      attachMode,
      version: request.version,
      duringCreate: false,
    };

    if (server.vm_state === 'shelved_offloaded') {
      // No host to ask: Nova attaches "locally" and completes at once, without a connector.
      if (request.tag !== null) throw badRequest(TAGGED_TO_SHELVED);
      if (volume.multiattach === 1) throw badRequest(MULTIATTACH_TO_SHELVED);
      const bdm = await reserveLockedVolume(deps, tx, caller, volume, { ...base, deviceName: null });
      await completeAttachment(deps.store, tx, novaServiceCaller(server), bdm.attachment_id!);
      return { server, bdm, connect: false };
    }

    const host = server.host ? await attachHostsStore.byHost(tx, server.host) : undefined;
    if (host) assertHostCanAttach(host, server, volume, attachMode, request.tag);
    // From 2.101 the name is chosen on the host, after the response.
    const deviceName = request.version.below('2.101')
      ? nextDeviceName(await bdmsStore.deviceNamesForServer(tx, server.id), null)
      : null;
    const bdm = await reserveLockedVolume(deps, tx, caller, volume, { ...base, deviceName });
    return { server, bdm, connect: true };
  });
  if (result.connect) scheduleConnect(deps, result.server.id);
  return { server: result.server, bdm: result.bdm };
}

function scheduleConnect(deps: CloudDeps, serverId: string): void {
  deps.tasks.schedule(
    'compute: attach volumes',
    async () => {
      await connectServerVolumes(deps, serverId);
    },
    undefined,
    `server:${serverId}`,
  );
}

// --- The emulated compute host -------------------------------------------------------------------

/** os-brick's connector for an emulated host, with the spec's `mode`. */
export function hostConnector(
  host: AttachHost,
  mountpoint: string,
  mode: string | null,
): Record<string, unknown> {
  return {
    platform: 'x86_64',
    os_type: 'linux',
    ip: host.hostIp,
    host: host.host,
    multipath: false,
    initiator: `iqn.2004-10.org.debian:01:${host.host}`,
    do_local_attach: false,
    mountpoint,
    mode,
  };
}

export interface ConnectOutcome {
  bdmUuid: string;
  volumeId: string;
  ok: boolean;
  /** The error a failed instance action would show. */
  error?: string;
}

/**
 * The host-side half of an attach (or of a boot): for every volume mapping of the server not
 * yet connected, pick a device name, update the Cinder attachment with this host's connector
 * (mode = the mapping's attach mode), complete it, and keep the connection info on the BDM.
 * One transaction per mapping, so a volume never shows `attaching` to other requests. A
 * mapping that cannot be connected is rolled back (attachment and BDM deleted), as
 * `_attach_volume` does on failure.
 */
export async function connectServerVolumes(deps: CloudDeps, serverId: string): Promise<ConnectOutcome[]> {
  const server = await serversStore.byId(deps.store.db, serverId);
  if (!server?.host) return [];
  const host = await attachHostsStore.byHost(deps.store.db, server.host);
  if (!host) return [];
  const pending = (await bdmsStore.forServer(deps.store.db, serverId)).filter(
    (b) => b.volume_id !== null && b.attachment_id !== null && b.connection_info === null,
  );
  // Root first, then by boot order, then attach order: the names come out vda, vdb, ...
  pending.sort((a, b) => bootRank(a) - bootRank(b));
  const outcomes: ConnectOutcome[] = [];
  for (const candidate of pending) {
    try {
      const done = await deps.store.transaction((tx) => connectOne(deps, tx, serverId, candidate.uuid, host));
      if (done) outcomes.push({ bdmUuid: candidate.uuid, volumeId: candidate.volume_id!, ok: true });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      deps.logger.warn({ err, serverId, volumeId: candidate.volume_id }, 'volume connect failed');
      // A failed boot is cleaned up by the build (the server goes to ERROR); an attach undoes itself.
      if (server.vm_state !== 'building') await rollbackMapping(deps, server, candidate.uuid);
      outcomes.push({ bdmUuid: candidate.uuid, volumeId: candidate.volume_id!, ok: false, error });
    }
  }
  return outcomes;
}

/**
 * `connectServerVolumes` for the servers of one multi-create, inside the caller's transaction
 * (the servers locked and on their hosts): the same device names, connectors and connection
 * info, with every attachment updated and completed together. Throws if any mapping cannot be
 * connected; nothing is then written, and each server takes the one-server path, which records
 * its own failure.
 */
export async function connectBuildBatch(
  deps: CloudDeps,
  tx: Tx,
  servers: readonly ServerRow[],
  bdms: readonly BdmRow[],
): Promise<void> {
  const hosts = await attachHostsStore.byHosts(tx, [...new Set(servers.map((s) => s.host ?? ''))]);
  const unknown = servers.find((s) => !hosts.has(s.host ?? ''));
  if (unknown) throw new Error(`no attach host for ${unknown.host}`);
  const volumes = new Map(
    (await volumesStore.byIds(tx, [...new Set(volumeIdsOf(bdms))])).map((v) => [v.id, v]),
  );
  const connects: { bdm: BdmRow; volume: VolumeRow; deviceName: string }[] = [];
  const requests = [];
  for (const server of servers) {
    const host = hosts.get(server.host ?? '')!;
    const own = bdms.filter((b) => b.server_id === server.id);
    const used = own.flatMap((b) => (b.device_name ? [b.device_name] : []));
    const pending = own.filter(
      (b) => b.volume_id !== null && b.attachment_id !== null && b.connection_info === null,
    );
    pending.sort((a, b) => bootRank(a) - bootRank(b));
    for (const bdm of pending) {
      const volume = volumes.get(bdm.volume_id!);
      if (!volume) throw new Error(`volume ${bdm.volume_id} is gone`);
      assertHostCanAttach(host, server, volume, bdm.attach_mode === 'ro' ? 'ro' : 'rw', null);
      const deviceName = bdm.device_name ?? nextDeviceName(used, bdm.boot_index);
      used.push(deviceName);
      connects.push({ bdm, volume, deviceName });
      requests.push({
        caller: novaServiceCaller(server),
        attachmentId: bdm.attachment_id!,
        connector: hostConnector(host, deviceName, bdm.attach_mode),
      });
    }
  }
  const connected = await updateAndCompleteAttachments(deps.store, tx, requests);
  const now = nowIso();
  const updated = connects.map(({ bdm, volume, deviceName }) => {
    const attachmentId = bdm.attachment_id!;
    const info = novaConnectionInfo(
      connected.get(attachmentId)?.connection_info ?? null,
      volume,
      attachmentId,
    );
    return { ...bdm, device_name: deviceName, connection_info: JSON.stringify(info), updated_at: now };
  });
  await bdmsStore.updateEach(tx, updated, ['device_name', 'connection_info', 'updated_at']);
}

/** `_attach_volume`'s failure path: the Cinder attachment and the BDM are destroyed. */
async function rollbackMapping(deps: CloudDeps, server: ServerRow, bdmUuid: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const bdm = await bdmsStore.byUuid(tx, bdmUuid);
    if (!bdm) return;
    if (bdm.attachment_id) await deleteAttachmentIfPresent(deps, tx, server, bdm.attachment_id);
    await bdmsStore.delete(tx, bdm.uuid);
  });
}

const bootRank = (b: BdmRow) => (b.boot_index === null || b.boot_index < 0 ? 1_000_000 : b.boot_index);

async function connectOne(deps: CloudDeps, tx: Tx, serverId: string, bdmUuid: string, host: AttachHost) {
  const server = await serversStore.lockById(deps.store, tx, serverId);
  const bdm = await bdmsStore.byUuid(tx, bdmUuid);
  // Detached, swapped or connected meanwhile, or the server moved: nothing to do here.
  if (!server || server.host !== host.host || !bdm?.attachment_id || !bdm.volume_id || bdm.connection_info) {
    return false;
  }
  const volume = await volumesStore.lockById(deps.store, tx, bdm.volume_id);
  if (!volume) return false;
  // What reserve_block_device_name / the driver would refuse on this host (boot path).
  assertHostCanAttach(host, server, volume, bdm.attach_mode === 'ro' ? 'ro' : 'rw', null);
  const deviceName =
    bdm.device_name ?? nextDeviceName(await bdmsStore.deviceNamesForServer(tx, serverId), bdm.boot_index);
  const caller = novaServiceCaller(server);
  const connector = hostConnector(host, deviceName, bdm.attach_mode);
  const attachment = await updateAndCompleteAttachment(deps.store, tx, caller, bdm.attachment_id, connector);
  await bdmsStore.update(tx, bdm.uuid, {
    device_name: deviceName,
    connection_info: JSON.stringify(
      novaConnectionInfo(attachment.connection_info, volume, bdm.attachment_id),
    ),
    updated_at: nowIso(),
  });
  return true;
}

/**
 * What Nova keeps in bdm.connection_info: Cinder's answer plus `serial` and, for a multiattach
 * volume, `multiattach: true` (virt/block_device.py `_volume_attach`), which libvirt turns into
 * a shareable disk.
 */
function novaConnectionInfo(cinderInfo: string | null, volume: VolumeRow, attachmentId: string) {
  const parsed: Record<string, unknown> = cinderInfo
    ? (JSON.parse(cinderInfo) as Record<string, unknown>)
    : {};
  return {
    ...parsed,
    serial: volume.id,
    attachment_id: attachmentId,
    ...(volume.multiattach === 1 ? { multiattach: true } : {}),
  };
}

async function deleteAttachmentIfPresent(deps: CloudDeps, tx: Tx, server: ServerRow, attachmentId: string) {
  try {
    await removeAttachment(deps.store, tx, novaServiceCaller(server), attachmentId);
  } catch (err) {
    // Already gone in Cinder: Nova logs and carries on.
    if (!(err instanceof OpenStackError && err.status === 404)) throw err;
  }
}

// --- Server delete -------------------------------------------------------------------------------

/**
 * Server delete (compute manager `_cleanup_volumes` / `_local_cleanup_bdm_volumes`): deletes the
 * server's Cinder attachments and BDMs; with deleteOnTermination, then deletes each volume
 * marked delete_on_termination unless something else still holds it (Cinder refuses, Nova
 * logs and ignores). Returns the volumes it deleted.
 */
export async function releaseServerVolumes(
  deps: CloudDeps,
  tx: Tx,
  server: ServerRow,
  options: { deleteOnTermination: boolean },
): Promise<string[]> {
  const bdms = await bdmsStore.forServer(tx, server.id);
  // Released in attach order below, so locked in id order first (servers sharing volumes).
  await volumesStore.lockByIds(deps.store, tx, volumeIdsOf(bdms));
  const deleted: string[] = [];
  for (const bdm of bdms) {
    if (bdm.attachment_id) await deleteAttachmentIfPresent(deps, tx, server, bdm.attachment_id);
    await bdmsStore.delete(tx, bdm.uuid);
    if (options.deleteOnTermination && bdm.delete_on_termination === 1 && bdm.volume_id) {
      if (await deleteVolumeIfFree(deps, tx, bdm.volume_id)) deleted.push(bdm.volume_id);
    }
  }
  return deleted;
}

/** The volumes a server's mappings name. */
export const volumeIdsOf = (bdms: readonly BdmRow[]) =>
  bdms.flatMap((b) => (b.volume_id ? [b.volume_id] : []));

/**
 * Nova's delete_on_termination call into Cinder (`volume/api.py` delete): allowed only for an
 * unattached volume in a deletable status with no attachment rows left; otherwise Cinder's 400,
 * which Nova logs and ignores. The volume backend then removes it.
 */
async function deleteVolumeIfFree(deps: CloudDeps, tx: Tx, volumeId: string): Promise<boolean> {
  const volume = await volumesStore.lockById(deps.store, tx, volumeId);
  if (!volume) return false;
  const deletable = ['available', 'error', 'error_restoring', 'error_extending', 'error_managing'];
  const migrating = ![null, 'deleting', 'error', 'success'].includes(volume.migration_status);
  const held = (await attachmentsStore.forVolume(tx, volumeId)).length > 0;
  if (!deletable.includes(volume.status) || volume.attach_status === 'attached' || migrating || held) {
    deps.logger.info({ volumeId, status: volume.status }, 'delete_on_termination: Cinder refused, ignored');
    return false;
  }
  await volumesStore.update(tx, volumeId, { status: 'deleting', updated_at: nowIso() });
  createBackend(deps).scheduleDelete(volumeId);
  return true;
}

// --- Detach --------------------------------------------------------------------------------------

export interface DetachVolumeRequest {
  serverId: string;
  volumeId: string;
  version: Microversion;
}

/**
 * DELETE /servers/{id}/os-volume_attachments/{volume_id}. Cinder `begin_detaching` in the
 * request; the host then deletes the attachment and the BDM. For a shelved-offloaded server
 * everything is local and immediate.
 */
export async function detachVolumeFromServer(
  deps: CloudDeps,
  caller: AuthContext,
  request: DetachVolumeRequest,
): Promise<void> {
  const pending = await deps.store.transaction(async (tx) => {
    const server = await lockServerFor(deps, tx, caller, request.serverId);
    assertProjectWriter(caller, RULES.attachmentDelete);
    assertShelvedAllowed(server, 'detach_volume', request.version.atLeast('2.20'));
    const volume = await lockVolumeFor(deps, tx, caller, request.volumeId);
    if (!volume) throw volumeNotFound(request.volumeId);
    const bdm = await bdmsStore.byServerAndVolume(tx, server.id, volume.id);
    if (!bdm) throw notAttached(server.id, volume.id);
    if (bdm.boot_index === 0) throw badRequest(ROOT_DETACH);
    assertInstanceState(server, caller, 'detach_volume', DETACH_STATES);
    if (server.vm_state === 'shelved_offloaded') {
      if (bdm.attachment_id) await deleteAttachmentIfPresent(deps, tx, server, bdm.attachment_id);
      await bdmsStore.delete(tx, bdm.uuid);
      return null;
    }
    try {
      await beginDetaching(deps.store, tx, cinderCaller(caller), volume.id);
    } catch (err) {
      const translated = cinderBadRequest(err, false);
      throw translated instanceof OpenStackError
        ? badRequest(`Invalid volume: ${translated.message}`)
        : translated;
    }
    // The client is told the detach was accepted: a restart must finish it (reconcileCompute).
    await bdmsStore.update(tx, bdm.uuid, { detach_requested_at: nowIso() });
    return { server, bdm };
  });
  if (pending) {
    const { server, bdm } = pending;
    deps.tasks.schedule(
      'compute: detach volume',
      async () => {
        await finishDetach(deps, server, bdm.uuid);
      },
      undefined,
      `server:${server.id}`,
    );
  }
}

/** The compute manager's detach: disconnect, `attachment_delete`, destroy the BDM. */
export async function finishDetach(deps: CloudDeps, server: ServerRow, bdmUuid: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    await serversStore.lockById(deps.store, tx, server.id);
    const bdm = await bdmsStore.byUuid(tx, bdmUuid);
    if (!bdm) return;
    if (bdm.attachment_id) await deleteAttachmentIfPresent(deps, tx, server, bdm.attachment_id);
    await bdmsStore.delete(tx, bdm.uuid);
  });
}

// --- List and show -------------------------------------------------------------------------------

/** GET /servers/{id}/os-volume_attachments: one page of the server's volume mappings. */
export async function listVolumeAttachments(
  deps: CloudDeps,
  caller: AuthContext,
  serverId: string,
  page: { limit: number; offset: number },
): Promise<{ server: ServerRow; bdms: BdmRow[] }> {
  const server = await getServerFor(deps, caller, serverId);
  const bdms = await bdmsStore.pageForServer(deps.store.db, server.id, page.limit, page.offset);
  return { server, bdms };
}

/** GET /servers/{id}/os-volume_attachments/{volume_id}. From 2.89 a mapping needs an attachment id. */
export async function showVolumeAttachment(
  deps: CloudDeps,
  caller: AuthContext,
  serverId: string,
  volumeId: string,
  version: Microversion,
): Promise<BdmRow> {
  const server = await getServerFor(deps, caller, serverId);
  const bdm = await bdmsStore.byServerAndVolume(deps.store.db, server.id, volumeId);
  if (!bdm || (version.atLeast('2.89') && bdm.attachment_id === null)) throw notAttached(serverId, volumeId);
  return bdm;
}

// --- OSSA-2023-003 -------------------------------------------------------------------------------

/**
 * Cinder asks Nova whether an attachment is still in use before letting a user delete it:
 * true when Nova's show of that server's volume reports the same attachment id.
 */
export function novaAttachmentProbe(deps: CloudDeps) {
  return (instanceUuid: string, attachmentId: string) =>
    bdmsStore.holdsAttachment(deps.store.db, instanceUuid, attachmentId);
}
