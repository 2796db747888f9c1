import type { CloudDeps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, OpenStackError, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import {
  beginDetaching,
  completeAttachment,
  removeAttachment,
  reserveAttachment,
  updateAttachment,
} from '../../volume/service/attachments.service.js';
import { attachmentsStore } from '../../volume/store/attachments.store.js';
import { volumesStore } from '../../volume/store/volumes.store.js';
import { assertProjectWriter, RULES } from '../policy.js';
import { attachHostsStore, type BdmRow, bdmsStore } from '../store/bdms.store.js';
import { type ServerRow, serversStore } from '../store/servers.store.js';
import { hostConnector, lockServerFor, cinderCaller, novaServiceCaller } from './volume-attach.service.js';
import {
  assertInstanceState,
  cinderBadRequest,
  noVolumeBdm,
  SWAP_MULTI_RW,
  SWAP_STATES,
  volumeNotFound,
} from './volume-attach-rules.js';

/**
 * PUT /servers/{id}/os-volume_attachments/{volume_id}: swap volume, and from 2.85 the update of
 * delete_on_termination (volume_attachments.py `update`, compute/api.py `swap_volume`). Nova 26
 * has no "not migrating" 409 (errata 3). The new volume takes the old one's device and attach mode.
 */

export const SWAP_POLICY = 'os_compute_api:os-volumes-attachments:swap';

export interface UpdateAttachmentRequest {
  serverId: string;
  /** The volume in the path. */
  volumeId: string;
  /** `volumeAttachment` as validated by the route's schema. */
  body: {
    volumeId: string;
    id?: string;
    serverId?: string;
    device?: string | null;
    tag?: string;
    deleteOnTermination?: boolean;
  };
  version: Microversion;
}

export async function updateVolumeAttachment(
  deps: CloudDeps,
  caller: AuthContext,
  request: UpdateAttachmentRequest,
): Promise<void> {
  const onlySwap = request.version.below('2.85');
  const swapping = onlySwap || request.body.volumeId !== request.volumeId;
  if (!onlySwap) {
    // `_update_volume_regular` saves its change before any swap starts.
    await deps.store.transaction(async (tx) => {
      const server = await lockServerFor(deps, tx, caller, request.serverId);
      if (swapping && !caller.isAdmin) throw policyForbidden(SWAP_POLICY);
      assertProjectWriter(caller, RULES.attachmentUpdate);
      await updateRegular(tx, server, request);
    });
  }
  if (swapping) {
    await swapVolume(deps, caller, {
      serverId: request.serverId,
      oldVolumeId: request.volumeId,
      newVolumeId: request.body.volumeId,
    });
  }
}

async function updateRegular(tx: Tx, server: ServerRow, request: UpdateAttachmentRequest): Promise<void> {
  const bdm = await bdmsStore.byServerAndVolume(tx, server.id, request.volumeId);
  if (!bdm) throw noVolumeBdm(request.volumeId);
  const att = request.body;
  if (att.id !== undefined && att.id !== request.volumeId) throw badRequest('The id property is not mutable');
  if (att.serverId !== undefined && att.serverId !== server.id) {
    throw badRequest('The serverId property is not mutable');
  }
  if (att.device !== undefined && att.device !== bdm.device_name) {
    throw badRequest('The device property is not mutable');
  }
  if (att.tag !== undefined && att.tag !== bdm.tag) throw badRequest('The tag property is not mutable');
  if (att.deleteOnTermination !== undefined) {
    await bdmsStore.update(tx, bdm.uuid, {
      delete_on_termination: att.deleteOnTermination ? 1 : 0,
      updated_at: nowIso(),
    });
  }
}

export interface SwapVolumeRequest {
  serverId: string;
  oldVolumeId: string;
  newVolumeId: string;
}

/**
 * `_update_volume_swap` + `API.swap_volume`: checks and Cinder reserve in the request (202);
 * the host then connects the new volume on the same device, completes it and deletes the old
 * attachment. Any failure before the cast rolls the whole transaction back, which is also
 * what Nova's `roll_detaching` achieves.
 */
export async function swapVolume(
  deps: CloudDeps,
  caller: AuthContext,
  request: SwapVolumeRequest,
): Promise<void> {
  const pending = await deps.store.transaction(async (tx) => {
    const server = await lockServerFor(deps, tx, caller, request.serverId);
    if (!caller.isAdmin) throw policyForbidden(SWAP_POLICY);
    const visible = <T extends { project_id: string }>(v: T | undefined) =>
      v && (caller.isAdmin || v.project_id === caller.projectId) ? v : undefined;
    const oldVolume = visible(await volumesStore.lockById(deps.store, tx, request.oldVolumeId));
    if (!oldVolume) throw volumeNotFound(request.oldVolumeId);
    // The new volume is named in the body, so "not found" is a 400 (capture 213).
    const newVolume = visible(await volumesStore.lockById(deps.store, tx, request.newVolumeId));
    if (!newVolume) throw badRequest(`Volume ${request.newVolumeId} could not be found.`);
    assertInstanceState(server, caller, 'swap_volume', SWAP_STATES);

    // Nova reads volume['attachments'], which Cinder fills with attached attachments only.
    const oldAttached = (await attachmentsStore.forVolume(tx, oldVolume.id)).filter(
      (a) => a.attach_status === 'attached',
    );
    if (!oldAttached.some((a) => a.instance_uuid === server.id)) {
      throw badRequest('Invalid volume: Old volume is attached to a different instance.');
    }
    if (newVolume.attach_status === 'attached') {
      throw badRequest('Invalid volume: New volume must be detached in order to swap.');
    }
    if (newVolume.size < oldVolume.size) {
      throw badRequest('Invalid volume: New volume must be the same size or larger.');
    }
    try {
      await beginDetaching(deps.store, tx, cinderCaller(caller), oldVolume.id);
    } catch (err) {
      const translated = cinderBadRequest(err, false);
      throw translated instanceof OpenStackError
        ? badRequest(`Invalid volume: ${translated.message}`)
        : translated;
    }
    // `_count_attachments_for_swap`: with several attachments only the rw ones count.
    const writers =
      oldAttached.length > 1 ? oldAttached.filter((a) => a.attach_mode === 'rw').length : oldAttached.length;
    if (writers > 1) throw badRequest(SWAP_MULTI_RW);

    const bdm = await bdmsStore.byServerAndVolume(tx, server.id, oldVolume.id);
    if (!bdm) throw volumeNotFound(oldVolume.id);
    if (newVolume.multiattach === 1) {
      if (await bdmsStore.byServerAndVolume(tx, server.id, newVolume.id)) {
        throw badRequest(`Invalid volume: volume ${newVolume.id} already attached`);
      }
    } else {
      const holders = await bdmsStore.forVolumeOnLiveServers(tx, newVolume.id);
      if (holders.length > 0) {
        throw badRequest(
          `Invalid volume: volume ${newVolume.id} is already attached to instances: ${holders.map((b) => b.server_id).join(' ')}`,
        );
      }
    }
    let newAttachmentId: string;
    try {
      const attachment = await reserveAttachment(deps.store, tx, cinderCaller(caller), {
        volumeId: newVolume.id,
        instanceUuid: server.id,
      });
      newAttachmentId = attachment.id;
    } catch (err) {
      throw cinderBadRequest(err, false);
    }
    return { server, bdm, newVolumeId: newVolume.id, newAttachmentId };
  });
  deps.tasks.schedule('compute: swap volume', async () => {
    await finishSwap(deps, pending.server, pending.bdm, pending.newVolumeId, pending.newAttachmentId);
  });
}

/** The compute manager's swap_volume: same device, same attach mode, new volume and attachment. */
async function finishSwap(
  deps: CloudDeps,
  server: ServerRow,
  oldBdm: BdmRow,
  newVolumeId: string,
  newAttachmentId: string,
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const current = await serversStore.lockById(deps.store, tx, server.id);
    const bdm = await bdmsStore.byUuid(tx, oldBdm.uuid);
    const caller = novaServiceCaller(server);
    const host = current?.host ? await attachHostsStore.byHost(tx, current.host) : undefined;
    if (!current || !bdm || !host) {
      // The server or mapping went away meanwhile: give the new volume back.
      await removeAttachment(deps.store, tx, caller, newAttachmentId).catch(() => undefined);
      return;
    }
    const newVolume = await volumesStore.lockById(deps.store, tx, newVolumeId);
    const connector = hostConnector(host, bdm.device_name ?? '', bdm.attach_mode);
    const attachment = await updateAttachment(deps.store, tx, caller, newAttachmentId, connector);
    await completeAttachment(deps.store, tx, caller, newAttachmentId);
    if (bdm.attachment_id) {
      await removeAttachment(deps.store, tx, caller, bdm.attachment_id).catch((err: unknown) => {
        if (!(err instanceof OpenStackError && err.status === 404)) throw err;
      });
    }
    const info: Record<string, unknown> = attachment.connection_info
      ? (JSON.parse(attachment.connection_info) as Record<string, unknown>)
      : {};
    await bdmsStore.update(tx, bdm.uuid, {
      volume_id: newVolumeId,
      attachment_id: newAttachmentId,
      volume_size: newVolume?.size ?? bdm.volume_size,
      connection_info: JSON.stringify({
        ...info,
        serial: newVolumeId,
        attachment_id: newAttachmentId,
        ...(newVolume?.multiattach === 1 ? { multiattach: true } : {}),
      }),
      updated_at: nowIso(),
    });
  });
}
