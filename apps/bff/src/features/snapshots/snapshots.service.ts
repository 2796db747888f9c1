import type {
  CreateSnapshotRequest,
  CreateVolumeFromSnapshotRequest,
  CreatedVolume,
  Snapshot,
} from '@sv/shared';
import { getVolume, listVolumes } from '../../openstack/cinder.js';
import {
  type CinderSnapshot,
  createSnapshot,
  createVolumeFromSnapshot,
  deleteSnapshot,
  getSnapshot,
  listSnapshots,
} from '../../openstack/cinder-snapshots.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { ApiError, badRequest, forbidden } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';

/** The cloud's 400 for the snapshot or volume as they stand keeps its words under the typed code. */
function refusedByCloud(err: unknown): never {
  if (err instanceof OpenStackFault && err.status === 400) {
    throw new ApiError(400, 'snapshot_refused', err.message, {
      service: err.service,
      status: err.status,
      fault: err.faultName,
      requestId: err.requestId,
    });
  }
  throw err;
}

export const IN_USE_NEEDS_FORCE =
  'The volume is attached to a server: a snapshot taken now holds only what has reached the disk, as after a power cut. Confirm to snapshot it anyway.';

function toView(s: CinderSnapshot, volumeNames: Map<string, string>): Snapshot {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    status: s.status,
    sizeGb: s.sizeGb,
    volumeId: s.volumeId,
    volumeName: volumeNames.get(s.volumeId) ?? null,
    projectId: s.projectId,
    createdAt: s.createdAt,
  };
}

/** Snapshots: listed per volume and per project, taken, deleted, and made into new volumes. */
export function snapshotsService(changes: ChangeBus) {
  // A snapshot changes what its volume's page shows: the web refreshes snapshots with volumes.
  const published = (session: SessionData, volumeId: string, projectId: string | null) => {
    for (const p of new Set([session.project.id, projectId])) {
      if (p) changes.publish(p, 'volumes', [volumeId]);
    }
  };

  return {
    async listForProject(session: SessionData, opts: { all: boolean }): Promise<Snapshot[]> {
      if (opts.all && !session.isAdmin) throw forbidden('Only administrators can list every project.');
      const cloud = cloudFor(session);
      const [snapshots, volumes] = await Promise.all([
        listSnapshots(cloud, { allProjects: opts.all }),
        listVolumes(cloud, { allProjects: opts.all }),
      ]);
      const names = new Map(volumes.map((v) => [v.id, v.name]));
      return snapshots.map((s) => toView(s, names));
    },

    async listForVolume(session: SessionData, volumeId: string): Promise<Snapshot[]> {
      const cloud = cloudFor(session);
      // The volume first: its 404 says the volume does not exist rather than "no snapshots".
      const volume = await getVolume(cloud, volumeId);
      // An admin sees snapshots of another project's volume only with all_tenants.
      const snapshots = await listSnapshots(cloud, {
        volumeId: volume.id,
        allProjects: session.isAdmin && volume.projectId !== session.project.id,
      });
      return snapshots.map((s) => toView(s, new Map([[volume.id, volume.name]])));
    },

    async create(session: SessionData, volumeId: string, input: CreateSnapshotRequest): Promise<Snapshot> {
      const cloud = cloudFor(session);
      const volume = await getVolume(cloud, volumeId);
      if (volume.status === 'in-use' && !input.force) {
        throw badRequest('snapshot_refused', IN_USE_NEEDS_FORCE, { fields: { force: IN_USE_NEEDS_FORCE } });
      }
      const snapshot = await createSnapshot(cloud, {
        volumeId: volume.id,
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        force: input.force,
      }).catch(refusedByCloud);
      published(session, volume.id, volume.projectId);
      return toView(snapshot, new Map([[volume.id, volume.name]]));
    },

    async remove(session: SessionData, snapshotId: string): Promise<void> {
      const cloud = cloudFor(session);
      const snapshot = await getSnapshot(cloud, snapshotId);
      await deleteSnapshot(cloud, snapshot.id).catch(refusedByCloud);
      published(session, snapshot.volumeId, snapshot.projectId);
    },

    async createVolume(
      session: SessionData,
      snapshotId: string,
      input: CreateVolumeFromSnapshotRequest,
    ): Promise<CreatedVolume> {
      const cloud = cloudFor(session);
      const snapshot = await getSnapshot(cloud, snapshotId);
      const sizeGb = input.sizeGb ?? snapshot.sizeGb;
      if (sizeGb < snapshot.sizeGb) {
        const message = `Size must be at least the snapshot's ${snapshot.sizeGb} GB.`;
        throw badRequest('invalid_request', message, { fields: { sizeGb: message } });
      }
      const created = await createVolumeFromSnapshot(cloud, {
        snapshotId: snapshot.id,
        name: input.name,
        sizeGb,
        ...(input.type !== undefined ? { type: input.type } : {}),
      }).catch((err: unknown) => {
        // Cinder's 404 here names the type the form chose: a mistake in the request.
        if (err instanceof OpenStackFault && err.status === 404) {
          throw badRequest('unknown_reference', err.message, { service: err.service });
        }
        refusedByCloud(err);
      });
      changes.publish(session.project.id, 'volumes', [created.id]);
      return { volumeId: created.id };
    },
  };
}
export type SnapshotsService = ReturnType<typeof snapshotsService>;
