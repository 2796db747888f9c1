import type { Attachment, Server } from '@sv/shared';
import {
  holdsOfServer,
  holdsOnServer,
  joinHolds,
  serverAttachmentLists,
} from '../../openstack/attachments.js';
import { listVolumeAttachments, listVolumes } from '../../openstack/cinder.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { findImage, listImages } from '../../openstack/glance.js';
import { deleteServer, getServer, listServers, type NovaServer } from '../../openstack/nova.js';
import { forbidden } from '../../platform/errors.js';
import type { ChangeBus } from '../../platform/events.js';
import type { SessionData } from '../../platform/session-store.js';

export function toServerView(
  s: NovaServer,
  attachments: Attachment[],
  imageNames: Map<string, string>,
  isAdmin: boolean,
): Server {
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    task: s.taskState,
    flavor: { id: s.flavor.id, name: s.flavor.name },
    image: s.imageId ? { id: s.imageId, name: imageNames.get(s.imageId) ?? null } : null,
    availabilityZone: s.availabilityZone,
    host: isAdmin ? s.host : null,
    projectId: s.projectId,
    fault: s.fault,
    createdAt: s.createdAt,
    attachments,
    addresses: s.addresses,
    keyName: s.keyName,
    securityGroups: s.securityGroups,
  };
}

/** Servers and the volumes they hold. */
export function serversService(changes: ChangeBus) {
  return {
    async list(session: SessionData, opts: { all: boolean }): Promise<Server[]> {
      if (opts.all && !session.isAdmin) throw forbidden('Only administrators can list every project.');
      const allProjects = opts.all;
      const cloud = cloudFor(session);
      const [servers, cinderAttachments, volumes, images] = await Promise.all([
        listServers(cloud, { allProjects }),
        listVolumeAttachments(cloud, { allProjects }),
        listVolumes(cloud, { allProjects }),
        listImages(cloud),
      ]);
      const holds = joinHolds({ cinderAttachments, volumes, servers, withHosts: session.isAdmin });
      const imageNames = new Map(images.map((i) => [i.id, i.name]));
      // A server's volumes are the ones Nova lists on it; Cinder's records only describe them.
      return servers.map((s) => toServerView(s, holdsOnServer(holds, s), imageNames, session.isAdmin));
    },

    async get(session: SessionData, serverId: string): Promise<Server> {
      const cloud = cloudFor(session);
      // Two round trips: the server and both attachment lists (each needs only the id), then the
      // held volumes and the image (each needs an id from the first).
      const [serverAnswer, listsAnswer] = await Promise.allSettled([
        getServer(cloud, serverId),
        serverAttachmentLists(cloud, serverId),
      ]);
      // A server that is not there (or not this user's) is the server's own 404.
      if (serverAnswer.status === 'rejected') throw serverAnswer.reason;
      if (listsAnswer.status === 'rejected') throw listsAnswer.reason;
      const server = serverAnswer.value;
      const [holds, image] = await Promise.all([
        holdsOfServer(cloud, server, listsAnswer.value),
        server.imageId ? findImage(cloud, server.imageId) : null,
      ]);
      const imageNames = new Map(image ? [[image.id, image.name]] : []);
      return toServerView(server, holds, imageNames, session.isAdmin);
    },

    async remove(session: SessionData, serverId: string): Promise<void> {
      const cloud = cloudFor(session);
      const server = await getServer(cloud, serverId);
      await deleteServer(cloud, server.id);
      const projects = new Set([session.project.id, server.projectId ?? session.project.id]);
      for (const p of projects) changes.publish(p, 'servers', [server.id]);
    },
  };
}
