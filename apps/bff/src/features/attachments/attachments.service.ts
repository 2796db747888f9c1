import type { Attachment, AttachVolumeRequest } from '@sv/shared';
import { holdsOfServer, holdsOfVolume } from '../../openstack/attachments.js';
import { findVolume, getVolume } from '../../openstack/cinder.js';
import { type CloudClient, cloudFor } from '../../openstack/cloud-client.js';
import { attachVolume, detachVolume, getServer, type NovaServer } from '../../openstack/nova.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';

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
}

/** Attaching and detaching volumes, with the rules a shared volume needs. */
export function attachmentsService(changes: ChangeBus, opts: AttachmentsServiceOptions = {}) {
  const poll = opts.poll ?? POLL;

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
      if (volume.multiattach && input.mode === 'rw' && !input.acknowledgeMultipleWriters) {
        const writers = (await holdsOfVolume(cloud, volume)).filter(
          (h) => h.mode === 'rw' && h.serverId !== server.id && !h.state.startsWith('error'),
        );
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

      const result = await attachVolume(cloud, server.id, volume.id, input.mode);
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
