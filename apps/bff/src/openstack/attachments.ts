import type { CloudClient } from './cloud-client.js';
import { OpenStackFault } from './fault.js';
import { type CinderAttachment, type CinderVolume, findVolume, listVolumeAttachments } from './cinder.js';
import {
  type AttachMode,
  findServer,
  listServerAttachments,
  type NovaAttachment,
  type NovaServer,
  supportsAttachModes,
} from './nova.js';

/**
 * One server's hold on one volume, joined from what Nova and Cinder each know:
 * Nova the device and (2.105) the mode, Cinder the state, time and (3.54) its own record of the mode.
 */
export interface Hold {
  attachmentId: string | null;
  serverId: string;
  serverName: string | null;
  volumeId: string;
  volumeName: string | null;
  device: string | null;
  mode: AttachMode;
  state: string;
  /** Compute host; null unless `withHosts`. */
  host: string | null;
  since: string | null;
}

export interface HoldSources {
  cinderAttachments?: readonly CinderAttachment[];
  volumes?: readonly CinderVolume[];
  servers?: readonly NovaServer[];
  novaAttachments?: readonly NovaAttachment[];
  /** Admins see hosts; members get null. */
  withHosts: boolean;
}

/** States in which an attachment no longer holds its volume. */
const GONE = new Set(['detached', 'deleted']);

/**
 * Joins every source into one record per attachment. Each source may be partial (a member does
 * not see another project's Cinder records, a real cloud below 2.105 reports no mode), so each
 * field takes the most authoritative value present: the mode is Nova's at 2.105, else Cinder's,
 * else read-only only for a volume carrying Cinder's readonly flag.
 */
export function joinHolds(src: HoldSources): Hold[] {
  const volumes = new Map((src.volumes ?? []).map((v) => [v.id, v]));
  const servers = new Map((src.servers ?? []).map((s) => [s.id, s]));
  interface Parts {
    serverId: string;
    volumeId: string;
    attachmentId: string | null;
    cinder?: CinderAttachment;
    nova?: NovaAttachment;
    volumeEntry?: CinderVolume['attachments'][number];
  }
  const byKey = new Map<string, Parts>();
  // Attachment ids join the sources; a record without one is keyed by server and volume.
  const pairKey = (serverId: string, volumeId: string) => `${serverId}/${volumeId}`;
  const keyOf = (attachmentId: string | null, serverId: string, volumeId: string) => {
    if (attachmentId) return attachmentId;
    return pairKey(serverId, volumeId);
  };
  const upsert = (attachmentId: string | null, serverId: string, volumeId: string): Parts => {
    const key = keyOf(attachmentId, serverId, volumeId);
    let parts = byKey.get(key);
    if (!parts && attachmentId) {
      // A record seen first without an id (or later with one) is the same hold.
      const loose = byKey.get(pairKey(serverId, volumeId));
      if (loose && !loose.attachmentId) {
        byKey.delete(pairKey(serverId, volumeId));
        loose.attachmentId = attachmentId;
        byKey.set(key, loose);
        parts = loose;
      }
    }
    if (!parts) {
      parts = { serverId, volumeId, attachmentId };
      byKey.set(key, parts);
    }
    return parts;
  };

  for (const c of src.cinderAttachments ?? []) {
    if (!c.serverId || GONE.has(c.status)) continue;
    upsert(c.id, c.serverId, c.volumeId).cinder = c;
  }
  for (const v of src.volumes ?? []) {
    for (const a of v.attachments) upsert(a.attachmentId, a.serverId, v.id).volumeEntry = a;
  }
  for (const n of src.novaAttachments ?? []) upsert(n.attachmentId, n.serverId, n.volumeId).nova = n;

  return [...byKey.values()].map((p) => {
    const volume = volumes.get(p.volumeId);
    const server = servers.get(p.serverId);
    return {
      attachmentId: p.attachmentId,
      serverId: p.serverId,
      serverName: server?.name ?? null,
      volumeId: p.volumeId,
      volumeName: volume ? volume.name : null,
      device: p.nova?.device ?? p.volumeEntry?.device ?? null,
      mode: p.nova?.mode ?? p.cinder?.mode ?? (volume?.readonly ? 'ro' : 'rw'),
      state: p.cinder?.status ?? (p.volumeEntry ? 'attached' : 'unknown'),
      host: src.withHosts ? (server?.host ?? p.volumeEntry?.hostName ?? null) : null,
      since: p.cinder?.attachedAt ?? p.volumeEntry?.attachedAt ?? null,
    };
  });
}

/** Nova's attachment list for a server, or [] when the server is not visible (404). */
async function novaHoldsOf(cloud: CloudClient, serverId: string): Promise<NovaAttachment[]> {
  try {
    return await listServerAttachments(cloud, serverId);
  } catch (err) {
    if (err instanceof OpenStackFault && err.status === 404) return [];
    throw err;
  }
}

/** Cinder's attachment records of one volume (every project's for an admin). */
export const attachmentRecordsOf = (cloud: CloudClient, volumeId: string): Promise<CinderAttachment[]> =>
  listVolumeAttachments(cloud, { volumeId, allProjects: cloud.session.isAdmin });

/**
 * Every hold on one volume, from every source (the volume's holders may be in other projects:
 * their names stay null for a member). Nova is asked per holder only where it adds the mode (2.105).
 * A caller that fetched the volume's attachment records alongside the volume passes them in.
 */
export async function holdsOfVolume(
  cloud: CloudClient,
  volume: CinderVolume,
  records?: readonly CinderAttachment[],
): Promise<Hold[]> {
  const isAdmin = cloud.session.isAdmin;
  const cinderAttachments = records ?? (await attachmentRecordsOf(cloud, volume.id));
  const serverIds = new Set<string>([
    ...volume.attachments.map((a) => a.serverId),
    ...cinderAttachments.flatMap((a) => (a.serverId && !GONE.has(a.status) ? [a.serverId] : [])),
  ]);
  // Each holder and its Nova attachments at once: one round trip, not two.
  const withModes = supportsAttachModes(cloud);
  const perServer = await Promise.all(
    [...serverIds].map((id) => Promise.all([findServer(cloud, id), withModes ? novaHoldsOf(cloud, id) : []])),
  );
  const servers = perServer.map(([s]) => s).filter((s): s is NovaServer => s !== null);
  // Only the holders the caller may see, as if Nova had been asked for those alone.
  const novaAttachments = perServer
    .flatMap(([s, attachments]) => (s ? attachments : []))
    .filter((a) => a.volumeId === volume.id);
  return joinHolds({ cinderAttachments, volumes: [volume], servers, novaAttachments, withHosts: isAdmin });
}

/** Every hold of one server: Nova's list is complete for it; Cinder adds states and times. */
export async function holdsOfServer(cloud: CloudClient, server: NovaServer): Promise<Hold[]> {
  const isAdmin = cloud.session.isAdmin;
  const [novaAttachments, cinderAttachments] = await Promise.all([
    listServerAttachments(cloud, server.id),
    listVolumeAttachments(cloud, { serverId: server.id, allProjects: isAdmin }),
  ]);
  const volumeIds = new Set([
    ...novaAttachments.map((a) => a.volumeId),
    ...cinderAttachments.filter((a) => !GONE.has(a.status)).map((a) => a.volumeId),
  ]);
  const volumes = (await Promise.all([...volumeIds].map((id) => findVolume(cloud, id)))).filter(
    (v): v is CinderVolume => v !== null,
  );
  // A volume's list of attached servers covers other servers too: keep only this one's.
  const own = volumes.map((v) => ({
    ...v,
    attachments: v.attachments.filter((a) => a.serverId === server.id),
  }));
  return joinHolds({
    cinderAttachments,
    volumes: own,
    servers: [server],
    novaAttachments,
    withHosts: isAdmin,
  });
}
