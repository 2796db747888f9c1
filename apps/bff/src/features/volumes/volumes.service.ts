import type { Attachment, CreateVolumeRequest, Volume } from '@sv/shared';
import { attachmentRecordsOf, holdsOfVolume, joinHolds } from '../../openstack/attachments.js';
import {
  type CinderVolume,
  createVolume,
  deleteVolume,
  getVolume,
  listVolumeAttachments,
  listVolumes,
  setVolumeBootable,
} from '../../openstack/cinder.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { listServers } from '../../openstack/nova.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';

export function toVolumeView(v: CinderVolume, attachments: Attachment[]): Volume {
  return {
    id: v.id,
    name: v.name,
    description: v.description,
    sizeGb: v.sizeGb,
    status: v.status,
    type: v.typeName,
    shared: v.multiattach,
    bootable: v.bootable,
    readonly: v.readonly,
    availabilityZone: v.availabilityZone,
    projectId: v.projectId,
    createdAt: v.createdAt,
    attachments,
  };
}

/** Members may only look at their own project; `?all=1` is an admin's view of the whole cloud. */
export function allProjectsAllowed(session: SessionData, all: boolean): boolean {
  if (all && !session.isAdmin) throw forbidden('Only administrators can list every project.');
  return all;
}

const projectsOf = (session: SessionData, ...others: (string | null)[]) =>
  [...new Set([session.project.id, ...others])].filter((p): p is string => !!p);

/** Volumes and their holders, as the dashboard shows them. */
export function volumesService(changes: ChangeBus) {
  return {
    async list(session: SessionData, opts: { all: boolean }): Promise<Volume[]> {
      const allProjects = allProjectsAllowed(session, opts.all);
      const cloud = cloudFor(session);
      // Three calls whatever the count: the modes and states come from Cinder's attachment records.
      const [volumes, cinderAttachments, servers] = await Promise.all([
        listVolumes(cloud, { allProjects }),
        listVolumeAttachments(cloud, { allProjects }),
        listServers(cloud, { allProjects }),
      ]);
      const holds = joinHolds({ cinderAttachments, volumes, servers, withHosts: session.isAdmin });
      return volumes.map((v) =>
        toVolumeView(
          v,
          holds.filter((h) => h.volumeId === v.id),
        ),
      );
    },

    async get(session: SessionData, volumeId: string): Promise<Volume> {
      const cloud = cloudFor(session);
      // The volume and its attachment records at once: the records need only the id.
      const [volume, records] = await Promise.all([
        getVolume(cloud, volumeId),
        attachmentRecordsOf(cloud, volumeId),
      ]);
      return toVolumeView(volume, await holdsOfVolume(cloud, volume, records));
    },

    async create(session: SessionData, input: CreateVolumeRequest): Promise<Volume> {
      const cloud = cloudFor(session);
      const volume = await createVolume(cloud, {
        name: input.name,
        sizeGb: input.sizeGb,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...(input.imageId !== undefined ? { imageId: input.imageId } : {}),
      }).catch((err: unknown) => {
        // Cinder's 404 here names the type or image the form chose: a mistake in the request.
        if (err instanceof OpenStackFault && err.status === 404) {
          throw badRequest('unknown_reference', err.message, { service: err.service });
        }
        throw err;
      });
      // A volume made from an image is bootable already; an empty one only when asked.
      if (input.bootable && !volume.bootable && !input.imageId) {
        await setVolumeBootable(cloud, volume.id, true);
        volume.bootable = true;
      }
      changes.publish(session.project.id, 'volumes', [volume.id]);
      return toVolumeView(volume, []);
    },

    async remove(session: SessionData, volumeId: string): Promise<void> {
      const cloud = cloudFor(session);
      const volume = await getVolume(cloud, volumeId);
      await deleteVolume(cloud, volume.id);
      for (const p of projectsOf(session, volume.projectId)) changes.publish(p, 'volumes', [volume.id]);
    },
  };
}
export type VolumesService = ReturnType<typeof volumesService>;
