import { recordAction } from './instance-actions-recorder.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, OpenStackError } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { serviceCaller, userCaller, type Volume } from '../clients/volume-client.js';
import type { ComputeDeps } from '../deps.js';
import { connectServerVolumes, finishDetach } from '../host/volume-connect.js';
import { assertProjectWriter, RULES } from '../policy.js';
import { attachHostsStore, type BdmRow, bdmsStore } from '../store/bdms.store.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { nextDeviceName, normaliseDeviceName } from '../host/device-names.js';
import {
  ATTACH_STATES,
  type AttachMode,
  assertHostCanAttach,
  assertInstanceState,
  assertShelvedAllowed,
  DETACH_STATES,
  instanceNotFound,
  MULTIATTACH_OLD_MICROVERSION,
  MULTIATTACH_TO_SHELVED,
  notAttached,
  ROOT_DETACH,
  TAGGED_TO_SHELVED,
  volumeNotFound,
} from '../volume-attach-rules.js';

export type { AttachMode } from '../volume-attach-rules.js';

/**
 * Nova's API rules for a server's volumes (compute/api.py `attach_volume`, `detach_volume`,
 * `_check_attach_and_reserve_volume`, `_validate_bdm`'s reserve): what is checked and reserved
 * while the request waits. The emulated host then connects, detaches and swaps
 * (`host/volume-connect.ts`).
 */

// --- Lookups -------------------------------------------------------------------------------------

const canSee = (auth: AuthContext, projectId: string) => auth.isAdmin || auth.projectId === projectId;

/** `common.get_instance`, locking the row so device names and attachments of one server serialise. */
export async function lockServerFor(deps: ComputeDeps, tx: Tx, caller: AuthContext, serverId: string) {
  const server = await serversStore.lockById(deps.store, tx, serverId);
  if (!server || !canSee(caller, server.project_id)) throw instanceNotFound(serverId);
  return server;
}

/** A read-only `common.get_instance`, for list and show. */
export async function getServerFor(deps: ComputeDeps, caller: AuthContext, serverId: string) {
  const server = await serversStore.byId(deps.store.db, serverId);
  if (!server || !canSee(caller, server.project_id)) throw instanceNotFound(serverId);
  return server;
}

/** `_check_volume_already_attached`, on Nova's own mappings. */
export async function checkVolumeAlreadyAttached(tx: Tx, serverId: string, volume: Volume): Promise<void> {
  if (volume.multiattach) {
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

// --- Reserving -----------------------------------------------------------------------------------

/** How a volume is mapped onto the servers that reserve it. */
export interface VolumeMapping {
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
}

export interface ReserveVolumeArgs extends VolumeMapping {
  volumeId: string;
  version: Microversion;
  /** Server create (`_validate_bdm`) rather than the attach API: other messages, no BDM check. */
  duringCreate: boolean;
}

/**
 * One volume reserved for some servers inside the caller's transaction, in Nova's order: the
 * volume lookup (locked), (attach only) the already-attached check, then the reserve and the
 * mappings. One server is a batch of one; a multi-create's servers share a multiattach volume
 * and are reserved together (Cinder's rules give each the same answer). Returns the mappings in
 * the servers' order.
 */
export async function reserveVolumeForServers(
  deps: ComputeDeps,
  tx: Tx,
  caller: AuthContext,
  servers: readonly ServerRow[],
  args: ReserveVolumeArgs,
): Promise<BdmRow[]> {
  const volume = await deps.volumes.get(userCaller(caller), args.volumeId, tx);
  if (!volume) {
    throw args.duringCreate
      ? badRequest(`Block Device Mapping is Invalid: failed to get volume ${args.volumeId}.`)
      : volumeNotFound(args.volumeId);
  }
  if (!args.duringCreate) for (const s of servers) await checkVolumeAlreadyAttached(tx, s.id, volume);
  return reserveVolume(deps, tx, caller, volume, servers, args);
}

/**
 * `_check_attach_and_reserve_volume` plus the mappings, for a volume already looked up and
 * checked: the 2.60 multiattach gate, Cinder's `attachment_create` without a connector for each
 * server, the BDMs.
 */
async function reserveVolume(
  deps: ComputeDeps,
  tx: Tx,
  caller: AuthContext,
  volume: Volume,
  servers: readonly ServerRow[],
  args: Omit<ReserveVolumeArgs, 'volumeId'>,
): Promise<BdmRow[]> {
  if (volume.multiattach && args.version.below('2.60')) throw badRequest(MULTIATTACH_OLD_MICROVERSION);
  let attachments: { id: string }[];
  try {
    attachments = await deps.volumes.reserve(
      tx,
      userCaller(caller),
      servers.map((s) => ({ volumeId: volume.id, instanceUuid: s.id })),
    );
  } catch (err) {
    // Server create wraps cinder.py's InvalidInput once more, in InvalidVolume.
    throw args.duringCreate && err instanceof OpenStackError && err.status === 400
      ? badRequest(`Invalid volume: ${err.message}`)
      : err;
  }
  const rows = servers.map((s, i) => reservedBdm(volume, s.id, attachments[i]?.id ?? null, args));
  await bdmsStore.insertMany(tx, rows);
  return rows;
}

function reservedBdm(
  volume: Volume,
  serverId: string,
  attachmentId: string | null,
  args: VolumeMapping,
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
  deps: ComputeDeps,
  caller: AuthContext,
  request: AttachVolumeRequest,
): Promise<AttachVolumeResult> {
  const result = await deps.store.transaction(async (tx) => {
    const server = await lockServerFor(deps, tx, caller, request.serverId);
    assertProjectWriter(caller, RULES.attachmentCreate);
    assertShelvedAllowed(server, 'attach_volume', request.version.atLeast('2.20'));
    assertInstanceState(server, caller, 'attach_volume', ATTACH_STATES);
    const volume = await deps.volumes.get(userCaller(caller), request.volumeId, tx);
    if (!volume) throw volumeNotFound(request.volumeId);
    await checkVolumeAlreadyAttached(tx, server.id, volume);
    const attachMode = request.attachMode ?? 'rw';
    const mapping = {
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
      if (volume.multiattach) throw badRequest(MULTIATTACH_TO_SHELVED);
      const [bdm] = await reserveVolume(deps, tx, caller, volume, [server], { ...mapping, deviceName: null });
      const reserved = bdm as BdmRow;
      await deps.volumes.complete(tx, serviceCaller(server), reserved.attachment_id as string);
      await recordAction(tx, { serverId: server.id, action: 'attach_volume', auth: caller });
      return { server, bdm: reserved, connect: false };
    }

    const host = server.host ? await attachHostsStore.byHost(tx, server.host) : undefined;
    if (host) assertHostCanAttach(host, server, volume, attachMode, request.tag);
    // From 2.101 the name is chosen on the host, after the response.
    const deviceName = request.version.below('2.101')
      ? nextDeviceName(await bdmsStore.deviceNamesForServer(tx, server.id), null)
      : null;
    const [bdm] = await reserveVolume(deps, tx, caller, volume, [server], { ...mapping, deviceName });
    await recordAction(tx, {
      serverId: server.id,
      action: 'attach_volume',
      auth: caller,
      event: 'compute_attach_volume',
      finished: { result: 'Success', host: server.host },
    });
    return { server, bdm: bdm as BdmRow, connect: true };
  });
  if (result.connect) scheduleConnect(deps, result.server.id);
  return { server: result.server, bdm: result.bdm };
}

function scheduleConnect(deps: ComputeDeps, serverId: string): void {
  deps.tasks.schedule(
    'compute: attach volumes',
    async () => {
      await connectServerVolumes(deps, serverId);
    },
    undefined,
    `server:${serverId}`,
  );
}

/**
 * cinder.py's `begin_detaching` as the detach and swap APIs report it: Cinder's refusal, in
 * InvalidInput's words, becomes InvalidVolume.
 */
export async function beginDetaching(deps: ComputeDeps, tx: Tx, caller: AuthContext, volumeId: string) {
  try {
    await deps.volumes.beginDetaching(tx, userCaller(caller), volumeId);
  } catch (err) {
    throw err instanceof OpenStackError ? badRequest(`Invalid volume: ${err.message}`) : err;
  }
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
  deps: ComputeDeps,
  caller: AuthContext,
  request: DetachVolumeRequest,
): Promise<void> {
  const pending = await deps.store.transaction(async (tx) => {
    const server = await lockServerFor(deps, tx, caller, request.serverId);
    assertProjectWriter(caller, RULES.attachmentDelete);
    assertShelvedAllowed(server, 'detach_volume', request.version.atLeast('2.20'));
    const volume = await deps.volumes.get(userCaller(caller), request.volumeId, tx);
    if (!volume) throw volumeNotFound(request.volumeId);
    const bdm = await bdmsStore.byServerAndVolume(tx, server.id, volume.id);
    if (!bdm) throw notAttached(server.id, volume.id);
    if (bdm.boot_index === 0) throw badRequest(ROOT_DETACH);
    assertInstanceState(server, caller, 'detach_volume', DETACH_STATES);
    if (server.vm_state === 'shelved_offloaded') {
      if (bdm.attachment_id) {
        await deps.volumes.deleteAttachmentIfPresent(tx, serviceCaller(server), bdm.attachment_id);
      }
      await bdmsStore.delete(tx, bdm.uuid);
      await recordAction(tx, { serverId: server.id, action: 'detach_volume', auth: caller });
      return null;
    }
    await beginDetaching(deps, tx, caller, volume.id);
    // The client is told the detach was accepted: a restart must finish it (host/reconcile.ts).
    await bdmsStore.update(tx, bdm.uuid, { detach_requested_at: nowIso() });
    await recordAction(tx, {
      serverId: server.id,
      action: 'detach_volume',
      auth: caller,
      event: 'compute_detach_volume',
      finished: { result: 'Success', host: server.host },
    });
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

// --- List and show -------------------------------------------------------------------------------

/** GET /servers/{id}/os-volume_attachments: one page of the server's volume mappings. */
export async function listVolumeAttachments(
  deps: ComputeDeps,
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
  deps: ComputeDeps,
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

/**
 * OSSA-2023-003: Cinder asks Nova whether an attachment is still in use before letting a user
 * delete it: true when Nova's show of that server's volume reports the same attachment id.
 */
export function isUsingAttachment(deps: Pick<ComputeDeps, 'store'>, serverId: string, attachmentId: string) {
  return bdmsStore.holdsAttachment(deps.store.db, serverId, attachmentId);
}
