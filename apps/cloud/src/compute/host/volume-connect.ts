import type { Tx } from '../../platform/db/store.js';
import { isTransientDatabaseError } from '../../platform/db/unavailable.js';
import { nowIso } from '../../platform/time.js';
import { serviceCaller, type Volume } from '../clients/volume-client.js';
import type { ComputeDeps } from '../deps.js';
import { nextDeviceName } from './device-names.js';
import { assertHostCanAttach } from '../volume-attach-rules.js';
import { type AttachHost, attachHostsStore, type BdmRow, bdmsStore } from '../store/bdms.store.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';

/**
 * The emulated compute host's side of volumes (Nova's `compute/manager.py` and
 * `virt/block_device.py`): connecting a server's reserved volumes (attach, boot, unshelve,
 * resize), finishing a detach or a swap, letting a server's volumes go when it is deleted or
 * leaves its host, and creating the volumes of image and blank mappings. Every call into the
 * volume service goes through the volume client, with the host's service token.
 */

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

/** The volumes a server's mappings name. */
export const volumeIdsOf = (bdms: readonly BdmRow[]) =>
  bdms.flatMap((b) => (b.volume_id ? [b.volume_id] : []));

const bootRank = (b: BdmRow) => (b.boot_index === null || b.boot_index < 0 ? 1_000_000 : b.boot_index);

/** Mappings with a reserved volume not yet connected, root first, then boot order, then attach order. */
const unconnected = (bdms: readonly BdmRow[]) =>
  bdms
    .filter((b) => b.volume_id !== null && b.attachment_id !== null && b.connection_info === null)
    .sort((a, b) => bootRank(a) - bootRank(b));

/**
 * What Nova keeps in bdm.connection_info: Cinder's answer plus `serial` and, for a multiattach
 * volume, `multiattach: true` (virt/block_device.py `_volume_attach`), which libvirt turns into
 * a shareable disk.
 */
function novaConnectionInfo(
  cinderInfo: Record<string, unknown> | null,
  volume: Pick<Volume, 'id' | 'multiattach'>,
  attachmentId: string,
): string {
  return JSON.stringify({
    ...(cinderInfo ?? {}),
    serial: volume.id,
    attachment_id: attachmentId,
    ...(volume.multiattach ? { multiattach: true } : {}),
  });
}

// --- Connecting ----------------------------------------------------------------------------------

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
export async function connectServerVolumes(deps: ComputeDeps, serverId: string): Promise<ConnectOutcome[]> {
  const server = await serversStore.byId(deps.store.db, serverId);
  if (!server?.host) return [];
  const host = await attachHostsStore.byHost(deps.store.db, server.host);
  if (!host) return [];
  const outcomes: ConnectOutcome[] = [];
  for (const candidate of unconnected(await bdmsStore.forServer(deps.store.db, serverId))) {
    const volumeId = candidate.volume_id as string;
    try {
      const done = await deps.store.transaction((tx) => connectOne(deps, tx, serverId, candidate.uuid, host));
      if (done) outcomes.push({ bdmUuid: candidate.uuid, volumeId, ok: true });
    } catch (err) {
      // The database failed, not the host: an accepted attach is retried (tasks.ts), never rolled back.
      if (isTransientDatabaseError(err)) throw err;
      const error = err instanceof Error ? err.message : String(err);
      deps.logger.warn({ err, serverId, volumeId }, 'volume connect failed');
      // A failed boot is cleaned up by the build (the server goes to ERROR); an attach undoes itself.
      if (server.vm_state !== 'building') await rollbackMapping(deps, server, candidate.uuid);
      outcomes.push({ bdmUuid: candidate.uuid, volumeId, ok: false, error });
    }
  }
  return outcomes;
}

/** One mapping of `connectServerVolumes`: the server and its volume's connection, in one transaction. */
async function connectOne(deps: ComputeDeps, tx: Tx, serverId: string, bdmUuid: string, host: AttachHost) {
  const server = await serversStore.lockById(deps.store, tx, serverId);
  const bdm = await bdmsStore.byUuid(tx, bdmUuid);
  // Detached, swapped or connected meanwhile, or the server moved: nothing to do here.
  if (!server || server.host !== host.host || !bdm?.attachment_id || !bdm.volume_id || bdm.connection_info) {
    return false;
  }
  const caller = serviceCaller(server);
  const volume = await deps.volumes.get(caller, bdm.volume_id, tx);
  if (!volume) return false;
  // What reserve_block_device_name / the driver would refuse on this host (boot path).
  assertHostCanAttach(host, server, volume, bdm.attach_mode === 'ro' ? 'ro' : 'rw', null);
  const deviceName =
    bdm.device_name ?? nextDeviceName(await bdmsStore.deviceNamesForServer(tx, serverId), bdm.boot_index);
  await connectMappings(deps, tx, [{ server, bdm, volume, host, deviceName }]);
  return true;
}

interface MappingToConnect {
  server: ServerRow;
  bdm: BdmRow;
  volume: Volume;
  host: AttachHost;
  deviceName: string;
}

/** Cinder's update and complete for each mapping, then the mappings' device names and connection info. */
async function connectMappings(deps: ComputeDeps, tx: Tx, mappings: readonly MappingToConnect[]) {
  const connected = await deps.volumes.connect(
    tx,
    mappings.map(({ server, bdm, host, deviceName }) => ({
      caller: serviceCaller(server),
      attachmentId: bdm.attachment_id as string,
      connector: hostConnector(host, deviceName, bdm.attach_mode),
    })),
  );
  const now = nowIso();
  const updated = mappings.map(({ bdm, volume, deviceName }) => {
    const attachmentId = bdm.attachment_id as string;
    const info = connected.get(attachmentId)?.connectionInfo ?? null;
    return {
      ...bdm,
      device_name: deviceName,
      connection_info: novaConnectionInfo(info, volume, attachmentId),
      updated_at: now,
    };
  });
  await bdmsStore.updateEach(tx, updated, ['device_name', 'connection_info', 'updated_at']);
}

/**
 * `connectServerVolumes` for the servers of one multi-create, inside the caller's transaction
 * (the servers locked and on their hosts): the same device names, connectors and connection
 * info, with every attachment updated and completed together. Throws if any mapping cannot be
 * connected; nothing is then written, and each server takes the one-server path, which records
 * its own failure.
 */
export async function connectBuildBatch(
  deps: ComputeDeps,
  tx: Tx,
  servers: readonly ServerRow[],
  bdms: readonly BdmRow[],
): Promise<void> {
  const hosts = await attachHostsStore.byHosts(tx, [...new Set(servers.map((s) => s.host ?? ''))]);
  const unknown = servers.find((s) => !hosts.has(s.host ?? ''));
  if (unknown) throw new Error(`no attach host for ${unknown.host}`);
  const volumes = new Map((await deps.volumes.getMany(volumeIdsOf(bdms), tx)).map((v) => [v.id, v]));
  const mappings: MappingToConnect[] = [];
  for (const server of servers) {
    const host = hosts.get(server.host ?? '') as AttachHost;
    const own = bdms.filter((b) => b.server_id === server.id);
    const used = own.flatMap((b) => (b.device_name ? [b.device_name] : []));
    for (const bdm of unconnected(own)) {
      const volume = volumes.get(bdm.volume_id as string);
      if (!volume) throw new Error(`volume ${bdm.volume_id} is gone`);
      assertHostCanAttach(host, server, volume, bdm.attach_mode === 'ro' ? 'ro' : 'rw', null);
      const deviceName = bdm.device_name ?? nextDeviceName(used, bdm.boot_index);
      used.push(deviceName);
      mappings.push({ server, bdm, volume, host, deviceName });
    }
  }
  await connectMappings(deps, tx, mappings);
}

/** `_attach_volume`'s failure path: the Cinder attachment and the BDM are destroyed. */
async function rollbackMapping(deps: ComputeDeps, server: ServerRow, bdmUuid: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const bdm = await bdmsStore.byUuid(tx, bdmUuid);
    if (!bdm) return;
    if (bdm.attachment_id) {
      await deps.volumes.deleteAttachmentIfPresent(tx, serviceCaller(server), bdm.attachment_id);
    }
    await bdmsStore.delete(tx, bdm.uuid);
  });
}

// --- Detach and swap -----------------------------------------------------------------------------

/** The compute manager's detach: disconnect, `attachment_delete`, destroy the BDM. */
export async function finishDetach(deps: ComputeDeps, server: ServerRow, bdmUuid: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    await serversStore.lockById(deps.store, tx, server.id);
    const bdm = await bdmsStore.byUuid(tx, bdmUuid);
    if (!bdm) return;
    if (bdm.attachment_id) {
      await deps.volumes.deleteAttachmentIfPresent(tx, serviceCaller(server), bdm.attachment_id);
    }
    await bdmsStore.delete(tx, bdm.uuid);
  });
}

/** The compute manager's swap_volume: same device, same attach mode, new volume and attachment. */
export async function finishSwap(
  deps: ComputeDeps,
  server: ServerRow,
  oldBdm: BdmRow,
  newVolumeId: string,
  newAttachmentId: string,
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const current = await serversStore.lockById(deps.store, tx, server.id);
    const bdm = await bdmsStore.byUuid(tx, oldBdm.uuid);
    const caller = serviceCaller(server);
    const host = current?.host ? await attachHostsStore.byHost(tx, current.host) : undefined;
    if (!current || !bdm || !host) {
      // The server or mapping went away meanwhile: give the new volume back.
      await deps.volumes.deleteAttachmentIfPresent(tx, caller, newAttachmentId).catch(() => undefined);
      return;
    }
    const newVolume = await deps.volumes.get(caller, newVolumeId, tx);
    const connector = hostConnector(host, bdm.device_name ?? '', bdm.attach_mode);
    const connected = await deps.volumes.connect(tx, [{ caller, attachmentId: newAttachmentId, connector }]);
    if (bdm.attachment_id) await deps.volumes.deleteAttachmentIfPresent(tx, caller, bdm.attachment_id);
    await bdmsStore.update(tx, bdm.uuid, {
      volume_id: newVolumeId,
      attachment_id: newAttachmentId,
      volume_size: newVolume?.size ?? bdm.volume_size,
      connection_info: novaConnectionInfo(
        connected.get(newAttachmentId)?.connectionInfo ?? null,
        { id: newVolumeId, multiattach: newVolume?.multiattach ?? false },
        newAttachmentId,
      ),
      updated_at: nowIso(),
    });
  });
}

// --- A server leaving its volumes ----------------------------------------------------------------

/**
 * Server delete (compute manager `_cleanup_volumes` / `_local_cleanup_bdm_volumes`): deletes the
 * server's Cinder attachments and BDMs; with deleteOnTermination, then deletes each volume
 * marked delete_on_termination unless something else still holds it (Cinder refuses, Nova
 * logs and ignores). Returns the volumes it deleted.
 */
export async function releaseServerVolumes(
  deps: ComputeDeps,
  tx: Tx,
  server: ServerRow,
  options: { deleteOnTermination: boolean },
): Promise<string[]> {
  const caller = serviceCaller(server);
  const bdms = await bdmsStore.forServer(tx, server.id);
  await deps.volumes.deleteAttachments(
    tx,
    caller,
    bdms.flatMap((b) => (b.attachment_id ? [b.attachment_id] : [])),
  );
  for (const bdm of bdms) await bdmsStore.delete(tx, bdm.uuid);
  const deleted: string[] = [];
  if (!options.deleteOnTermination) return deleted;
  for (const bdm of bdms) {
    if (bdm.delete_on_termination !== 1 || !bdm.volume_id) continue;
    if (await deps.volumes.deleteIfFree(tx, caller, bdm.volume_id)) deleted.push(bdm.volume_id);
  }
  return deleted;
}

/**
 * Gives each of the server's Cinder attachments a fresh, connector-less one (so the volume
 * shows `reserved`, capture 164) and drops the old: the server no longer runs anywhere, or is
 * about to be connected again elsewhere. Device names stay on the mappings.
 */
export async function reReserveServerVolumes(deps: ComputeDeps, tx: Tx, server: ServerRow): Promise<void> {
  const caller = serviceCaller(server);
  const held = (await bdmsStore.forServer(tx, server.id)).filter((b) => b.volume_id && b.attachment_id);
  if (held.length === 0) return;
  const fresh = await deps.volumes.reserve(
    tx,
    caller,
    held.map((b) => ({ volumeId: b.volume_id as string, instanceUuid: server.id })),
  );
  await deps.volumes.deleteAttachments(
    tx,
    caller,
    held.map((b) => b.attachment_id as string),
  );
  const now = nowIso();
  await bdmsStore.updateEach(
    tx,
    held.map((b, i) => ({
      ...b,
      attachment_id: fresh[i]?.id ?? null,
      connection_info: null,
      updated_at: now,
    })),
    ['attachment_id', 'connection_info', 'updated_at'],
  );
}

// --- Volumes the host creates (image and blank mappings) ----------------------------------------

/**
 * `DriverBlankBlockDevice` / `DriverImageBlockDevice.attach`: creates the volume of a mapping
 * that has none yet and records it on the mapping. Returns the volume id.
 */
export async function createMappingVolume(
  deps: ComputeDeps,
  server: ServerRow,
  bdm: BdmRow,
): Promise<string> {
  const caller = { projectId: server.project_id, userId: server.user_id, isAdmin: false };
  const volume = await deps.volumes.create(caller, {
    name: bdm.source_type === 'blank' ? `${server.id}-blank-vol` : '',
    description: '',
    volumeType: bdm.volume_type,
    metadata: null,
    size: bdm.volume_size,
    availabilityZone: null,
    snapshotId: null,
    sourceVolid: null,
    backupId: null,
    groupId: null,
    consistencygroupId: null,
    imageRef: bdm.source_type === 'image' ? bdm.image_id : null,
    multiattach: false,
  });
  await deps.store.transaction((tx) =>
    bdmsStore.update(tx, bdm.uuid, { volume_id: volume.id, updated_at: nowIso() }),
  );
  return volume.id;
}

/** A created volume's progress: still creating, ready, or its failed status ('deleted' when gone). */
export async function volumeCreateState(
  deps: ComputeDeps,
  server: ServerRow,
  volumeId: string,
): Promise<'creating' | 'ready' | string> {
  const v = await deps.volumes.get(serviceCaller(server), volumeId);
  if (!v) return 'deleted';
  if (v.status === 'creating' || v.status === 'downloading') return 'creating';
  return v.status === 'available' ? 'ready' : v.status;
}

/** Reserves a volume this host just created for its mapping (no user rules apply to it). */
export async function reserveCreatedVolume(
  deps: ComputeDeps,
  tx: Tx,
  server: ServerRow,
  bdmUuid: string,
): Promise<void> {
  const bdm = await bdmsStore.byUuid(tx, bdmUuid);
  if (!bdm?.volume_id || bdm.attachment_id) return;
  const [attachment] = await deps.volumes.reserve(tx, serviceCaller(server), [
    { volumeId: bdm.volume_id, instanceUuid: server.id },
  ]);
  await bdmsStore.update(tx, bdm.uuid, { attachment_id: attachment?.id ?? null, updated_at: nowIso() });
}
