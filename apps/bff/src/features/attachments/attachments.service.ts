import type { Attachment, AttachVolumeRequest } from '@sv/shared';
import { writersOf } from '../../openstack/attachments.js';
import { getVolume } from '../../openstack/cinder.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { attachVolume, detachVolume } from '../../openstack/nova.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';
import { MemoryVolumeLock, type VolumeLock } from '../../platform/volume-lock.js';

export const MULTIPLE_WRITERS_MESSAGE = (volume: string, holders: string[]) =>
  `Volume ${volume} is already attached read-write to ${holders.join(', ')}. ` +
  'Two servers writing to one volume corrupt its data unless both run a cluster file system ' +
  '(such as GFS2 or OCFS2) that coordinates their writes. Attach it read-only, or confirm that ' +
  'the servers use a cluster file system.';

export interface AttachmentsServiceOptions {
  /** Shared by every path that adds a holder (the app passes one; alone, the service keeps its own). */
  volumeLock?: VolumeLock;
}

/** Attaching and detaching volumes, with the rules a shared volume needs. */
export function attachmentsService(changes: ChangeBus, opts: AttachmentsServiceOptions = {}) {
  const volumeLock = opts.volumeLock ?? new MemoryVolumeLock();

  /** This project's streams at once; other projects' (an admin's attach) see it at their next look. */
  const publish = (session: SessionData, ids: string[]) =>
    changes.publish(session.project.id, 'attachments', ids);

  return {
    async attach(session: SessionData, serverId: string, input: AttachVolumeRequest): Promise<Attachment> {
      const caps = session.capabilities;
      // Decided from the session alone, before asking the cloud anything.
      if (input.mode === 'ro' && !caps.readOnlyAttach.available) {
        throw badRequest(
          'read_only_unavailable',
          caps.readOnlyAttach.reason ?? 'This cloud cannot attach volumes read-only.',
        );
      }
      const cloud = cloudFor(session);
      const volumeId = input.volumeId;
      // Below 2.60 a shared volume cannot be attached at all: the one case worth a read first.
      if (!caps.multiattach && (await getVolume(cloud, volumeId)).multiattach) {
        throw conflict(
          'shared_attach_unavailable',
          `This cloud's compute API stops at ${caps.compute.maxVersion}; attaching a shared volume needs 2.60.`,
        );
      }
      // The two-writer rule (the product's own) reads the volume's holders and then adds one: both
      // happen inside the volume's section, so no other attach through the dashboard (this process
      // or another) slips between. Acknowledged writers take the section too, or an unacknowledged
      // one could read "no writer" just before they land. Everything else is the cloud's to
      // decide: its refusal comes back as the typed error with its own message.
      const addsWriter = input.mode === 'rw';
      const checkAndAttach = async () => {
        if (addsWriter && !input.acknowledgeMultipleWriters) {
          const writers = await writersOf(cloud, volumeId, serverId);
          // Another live writer on a volume that is not shared: the cloud refuses it, in its words.
          const volume = writers.length > 0 ? await getVolume(cloud, volumeId) : null;
          if (volume?.multiattach) {
            throw conflict(
              'multiple_writers_unacknowledged',
              MULTIPLE_WRITERS_MESSAGE(
                volume.name || volume.id,
                writers.map((w) => w.serverName ?? w.serverId),
              ),
              { writers: writers.map((w) => ({ serverId: w.serverId, serverName: w.serverName })) },
            );
          }
        }
        return attachVolume(cloud, serverId, volumeId, input.mode);
      };
      const result = addsWriter ? await volumeLock.hold([volumeId], checkAndAttach) : await checkAndAttach();
      publish(session, [serverId, volumeId]);
      // What the cloud accepted, as it answered: the names and the settled state reach the pages
      // through the change just published (no reading the server's volumes again here).
      return {
        attachmentId: result.attachmentId,
        serverId,
        serverName: null,
        volumeId,
        volumeName: null,
        device: result.device,
        mode: input.mode,
        state: 'reserved',
        host: null,
        since: null,
        knownToCompute: true,
      };
    },

    async detach(session: SessionData, serverId: string, volumeId: string): Promise<void> {
      // One call: Nova's 404 (server or attachment) and 409 (state) are its own answers.
      await detachVolume(cloudFor(session), serverId, volumeId);
      publish(session, [serverId, volumeId]);
    },
  };
}
