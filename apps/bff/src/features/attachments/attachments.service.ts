import type { Attachment, AttachVolumeRequest } from '@sv/shared';
import { holdsOfServer, writersOf } from '../../openstack/attachments.js';
import { findVolume, getVolume } from '../../openstack/cinder.js';
import { type CloudClient, cloudFor } from '../../openstack/cloud-client.js';
import { attachVolume, detachVolume, getServer, type NovaServer } from '../../openstack/nova.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';
import { MemoryVolumeLock, type VolumeLock } from '../../platform/volume-lock.js';

export const MULTIPLE_WRITERS_MESSAGE = (volume: string, holders: string[]) =>
  `Volume ${volume} is already attached read-write to ${holders.join(', ')}. ` +
  'Two servers writing to one volume corrupt its data unless both run a cluster file system ' +
  '(such as GFS2 or OCFS2) that coordinates their writes. Attach it read-only, or confirm that ' +
  'the servers use a cluster file system.';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long to look for an attachment Nova accepted in the background (2.101+), and how often. */
const POLL = { attempts: 20, intervalMs: 150 };

export interface AttachmentsServiceOptions {
  poll?: { attempts: number; intervalMs: number };
  /** Shared by every path that adds a holder (the app passes one; alone, the service keeps its own). */
  volumeLock?: VolumeLock;
}

/** Attaching and detaching volumes, with the rules a shared volume needs. */
export function attachmentsService(changes: ChangeBus, opts: AttachmentsServiceOptions = {}) {
  const poll = opts.poll ?? POLL;
  const volumeLock = opts.volumeLock ?? new MemoryVolumeLock();

  const publish = (session: SessionData, ids: string[], ...projects: (string | null)[]) => {
    for (const p of new Set([session.project.id, ...projects])) {
      if (p) changes.publish(p, 'attachments', ids);
    }
  };

  /** The new hold as Nova and Cinder report it, waiting briefly when Nova attaches in the background. */
  async function findNewHold(
    cloud: CloudClient,
    server: NovaServer,
    volumeId: string,
    accepted: boolean,
  ): Promise<Attachment | null> {
    for (let i = 0; i < (accepted ? poll.attempts : 1); i++) {
      if (i > 0) await sleep(poll.intervalMs);
      const hold = (await holdsOfServer(cloud, server)).find((h) => h.volumeId === volumeId);
      if (hold) return hold;
    }
    return null;
  }

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
      const [server, volume] = await Promise.all([
        getServer(cloud, serverId),
        getVolume(cloud, input.volumeId),
      ]);
      if (volume.multiattach && !caps.multiattach) {
        throw conflict(
          'shared_attach_unavailable',
          `This cloud's compute API stops at ${caps.compute.maxVersion}; attaching a shared volume needs 2.60.`,
        );
      }
      // The two-writer rule reads the holders and then adds one: both happen inside the volume's
      // section, so no other attach through the dashboard (this process or another) slips between.
      // Acknowledged writers take the section too, or an unacknowledged one could read "no
      // writer" just before they land.
      const addsWriter = volume.multiattach && input.mode === 'rw';
      const checkAndAttach = async () => {
        if (addsWriter && !input.acknowledgeMultipleWriters) {
          const writers = await writersOf(cloud, volume.id, server.id);
          if (writers.length > 0) {
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
        return attachVolume(cloud, server.id, volume.id, input.mode);
      };
      const result = addsWriter ? await volumeLock.hold([volume.id], checkAndAttach) : await checkAndAttach();
      publish(session, [server.id, volume.id], server.projectId, volume.projectId);
      const hold = await findNewHold(cloud, server, volume.id, result.accepted);
      return (
        hold ?? {
          // Nova took the request but has not listed it yet: report what was asked.
          attachmentId: null,
          serverId: server.id,
          serverName: server.name,
          volumeId: volume.id,
          volumeName: volume.name,
          device: result.device,
          mode: input.mode,
          state: 'reserved',
          host: null,
          since: null,
          knownToCompute: true,
        }
      );
    },

    async detach(session: SessionData, serverId: string, volumeId: string): Promise<void> {
      const cloud = cloudFor(session);
      const [server, volume] = await Promise.all([getServer(cloud, serverId), findVolume(cloud, volumeId)]);
      await detachVolume(cloud, server.id, volumeId);
      publish(session, [server.id, volumeId], server.projectId, volume?.projectId ?? null);
    },
  };
}
