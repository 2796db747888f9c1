import type { ExtendVolumeRequest, RetypeVolumeRequest, SetBootableRequest } from '@sv/shared';
import { getVolume, setVolumeBootable } from '../../openstack/cinder.js';
import { extendVolume, retypeVolume } from '../../openstack/cinder-volume-actions.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { ApiError, badRequest } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';

/**
 * A refusal of the request as it stands (Cinder's 400: wrong state, in-use extend below 3.42, a
 * multiattach change on an attached volume) keeps the cloud's words under the typed code.
 */
function refusedByCloud(err: unknown): never {
  if (err instanceof OpenStackFault && err.status === 400) {
    throw new ApiError(400, 'volume_action_refused', err.message, {
      service: err.service,
      status: err.status,
      fault: err.faultName,
      requestId: err.requestId,
    });
  }
  throw err;
}

/** Extend, change type and set bootable: the volume page's actions (delete is volumes.service's). */
export function volumeActionsService(changes: ChangeBus) {
  const published = (session: SessionData, volumeId: string, projectId: string | null) => {
    for (const p of new Set([session.project.id, projectId])) {
      if (p) changes.publish(p, 'volumes', [volumeId]);
    }
  };

  return {
    async extend(session: SessionData, volumeId: string, input: ExtendVolumeRequest): Promise<void> {
      const cloud = cloudFor(session);
      const volume = await getVolume(cloud, volumeId);
      if (input.sizeGb <= volume.sizeGb) {
        const message = `The new size must be larger than the volume's ${volume.sizeGb} GB.`;
        throw badRequest('invalid_request', message, { fields: { sizeGb: message } });
      }
      await extendVolume(cloud, volume.id, input.sizeGb).catch(refusedByCloud);
      published(session, volume.id, volume.projectId);
    },

    async retype(session: SessionData, volumeId: string, input: RetypeVolumeRequest): Promise<void> {
      const cloud = cloudFor(session);
      const volume = await getVolume(cloud, volumeId);
      await retypeVolume(cloud, volume.id, input.type, input.migrationPolicy).catch((err: unknown) => {
        // Cinder's 404 here names the type the form chose: a mistake in the request.
        if (err instanceof OpenStackFault && err.status === 404) {
          throw badRequest('unknown_reference', err.message, { service: err.service });
        }
        refusedByCloud(err);
      });
      published(session, volume.id, volume.projectId);
    },

    async setBootable(session: SessionData, volumeId: string, input: SetBootableRequest): Promise<void> {
      const cloud = cloudFor(session);
      const volume = await getVolume(cloud, volumeId);
      await setVolumeBootable(cloud, volume.id, input.bootable).catch(refusedByCloud);
      published(session, volume.id, volume.projectId);
    },
  };
}
export type VolumeActionsService = ReturnType<typeof volumeActionsService>;
