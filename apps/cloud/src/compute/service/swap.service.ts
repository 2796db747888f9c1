import { recordAction } from './instance-actions-recorder.js';
import type { Tx } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { nowIso } from '../../platform/time.js';
import { userCaller } from '../clients/volume-client.js';
import type { ComputeDeps } from '../deps.js';
import { finishSwap } from '../host/volume-connect.js';
import type { UpdateBody } from '../schemas/volume-attachments.schemas.js';
import { assertProjectWriter, RULES } from '../policy.js';
import { bdmsStore } from '../store/bdms.store.js';
import type { ServerRow } from '../store/servers.store.js';
import { beginDetaching, checkVolumeAlreadyAttached, lockServerFor } from './volume-attachments.service.js';
import {
  assertInstanceState,
  noVolumeBdm,
  SWAP_MULTI_RW,
  SWAP_STATES,
  volumeNotFound,
} from '../volume-attach-rules.js';

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
  body: UpdateBody;
  version: Microversion;
}

export async function updateVolumeAttachment(
  deps: ComputeDeps,
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
  deps: ComputeDeps,
  caller: AuthContext,
  request: SwapVolumeRequest,
): Promise<void> {
  const pending = await deps.store.transaction(async (tx) => {
    const server = await lockServerFor(deps, tx, caller, request.serverId);
    if (!caller.isAdmin) throw policyForbidden(SWAP_POLICY);
    const cinder = userCaller(caller);
    const oldVolume = await deps.volumes.get(cinder, request.oldVolumeId, tx);
    if (!oldVolume) throw volumeNotFound(request.oldVolumeId);
    // The new volume is named in the body, so "not found" is a 400 (capture 213).
    const newVolume = await deps.volumes.get(cinder, request.newVolumeId, tx);
    if (!newVolume) throw badRequest(`Volume ${request.newVolumeId} could not be found.`);
    assertInstanceState(server, caller, 'swap_volume', SWAP_STATES);

    // Nova reads volume['attachments'], which Cinder fills with attached attachments only.
    const oldAttached = (await deps.volumes.attachmentsOf(oldVolume.id, tx)).filter(
      (a) => a.status === 'attached',
    );
    if (!oldAttached.some((a) => a.instanceUuid === server.id)) {
      throw badRequest('Invalid volume: Old volume is attached to a different instance.');
    }
    if (newVolume.attachStatus === 'attached') {
      throw badRequest('Invalid volume: New volume must be detached in order to swap.');
    }
    if (newVolume.size < oldVolume.size) {
      throw badRequest('Invalid volume: New volume must be the same size or larger.');
    }
    await beginDetaching(deps, tx, caller, oldVolume.id);
    // `_count_attachments_for_swap`: with several attachments only the rw ones count.
    const writers =
      oldAttached.length > 1 ? oldAttached.filter((a) => a.mode === 'rw').length : oldAttached.length;
    if (writers > 1) throw badRequest(SWAP_MULTI_RW);

    const bdm = await bdmsStore.byServerAndVolume(tx, server.id, oldVolume.id);
    if (!bdm) throw volumeNotFound(oldVolume.id);
    await checkVolumeAlreadyAttached(tx, server.id, newVolume);
    const [attachment] = await deps.volumes.reserve(tx, cinder, [
      { volumeId: newVolume.id, instanceUuid: server.id },
    ]);
    await recordAction(tx, {
      serverId: server.id,
      action: 'swap_volume',
      auth: caller,
      event: 'compute_swap_volume',
      finished: { result: 'Success', host: server.host },
    });
    return { server, bdm, newVolumeId: newVolume.id, newAttachmentId: attachment?.id as string };
  });
  deps.tasks.schedule('compute: swap volume', async () => {
    await finishSwap(deps, pending.server, pending.bdm, pending.newVolumeId, pending.newAttachmentId);
  });
}
