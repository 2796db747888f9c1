import { type AttachMode, isLiveHoldState } from '@sv/shared';
import type { CloudClient } from './cloud-client.js';
import { OpenStackFault } from './fault.js';
import { COMPUTE } from './microversions.js';
import {
  type CinderAttachment,
  type CinderVolume,
  findVolume,
  hasAttachmentsApi,
  listVolumeAttachments,
} from './cinder.js';
import { findServer, listServerAttachments, type NovaAttachment, type NovaServer } from './nova.js';

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
  /**
   * Whether Nova lists this attachment on its server. Cinder takes any server id on
   * `POST /attachments`, so a record Nova does not know (false) is nobody's volume; null when
   * the caller cannot see the server and so cannot ask.
   */
  knownToCompute: boolean | null;
}

export interface HoldSources {
  cinderAttachments?: readonly CinderAttachment[];
  volumes?: readonly CinderVolume[];
  /** The servers the caller can see; their `volumeIds` are Nova's word on which volumes they hold. */
  servers?: readonly NovaServer[];
  novaAttachments?: readonly NovaAttachment[];
  /** Servers whose whole `os-volume_attachments` list is in `novaAttachments`. */
  novaListed?: Iterable<string>;
  /** Admins see hosts; members get null. */
  withHosts: boolean;
}

/** Records that have ended: they join nothing (a failed one, error_*, is still shown, as not live). */
const GONE = new Set(['detached', 'deleted']);

/**
 * Joins every source into one record per attachment. Each source may be partial (a member does
 * not see another project's Cinder records, a real cloud below 2.105 reports no mode), so each
 * field takes the most authoritative value present: the mode is Nova's at 2.105, else Cinder's,
 * else read-only only for a volume carrying Cinder's readonly flag. Whether Nova knows the hold
 * comes from Nova's attachment list where it was read, else from the server's volume list.
 */
export function joinHolds(src: HoldSources): Hold[] {
  const volumes = new Map((src.volumes ?? []).map((v) => [v.id, v]));
  const servers = new Map((src.servers ?? []).map((s) => [s.id, s]));
  const novaListed = new Set(src.novaListed ?? []);
  interface Parts {
    serverId: string;
    volumeId: string;
    attachmentId: string | null;
    cinder?: CinderAttachment;
    nova?: NovaAttachment;
    volumeEntry?: CinderVolume['attachments'][number];
  }
  const all: Parts[] = [];
  const byId = new Map<string, Parts>();
  const byPair = new Map<string, Parts[]>();
  const pairKey = (serverId: string, volumeId: string) => `${serverId}/${volumeId}`;
  /** Attachment ids join the sources; a record without one joins its server and volume's first. */
  const upsert = (attachmentId: string | null, serverId: string, volumeId: string): Parts => {
    const pair = byPair.get(pairKey(serverId, volumeId)) ?? [];
    let parts = attachmentId ? byId.get(attachmentId) : pair[0];
    if (!parts && attachmentId) {
      // A record seen first without an id is the same hold.
      parts = pair.find((p) => p.attachmentId === null);
      if (parts) parts.attachmentId = attachmentId;
    }
    if (!parts) {
      parts = { serverId, volumeId, attachmentId };
      all.push(parts);
      pair.push(parts);
      byPair.set(pairKey(serverId, volumeId), pair);
    }
    if (attachmentId) byId.set(attachmentId, parts);
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

  const knownToCompute = (p: Parts): boolean | null => {
    if (p.nova) return true;
    if (novaListed.has(p.serverId)) return false;
    const server = servers.get(p.serverId);
    return server ? server.volumeIds.includes(p.volumeId) : null;
  };

  return all.map((p) => {
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
      knownToCompute: knownToCompute(p),
    };
  });
}

/**
 * A server's volumes as a list page shows them: the ones Nova lists on the server, each with
 * one Cinder record for its details (the one on the volume's own list first). A Cinder record
 * naming the server for a volume Nova does not list is not the server's.
 */
export function holdsOnServer(holds: readonly Hold[], server: NovaServer): Hold[] {
  const out = new Map<string, Hold>();
  for (const h of holds) {
    if (h.serverId !== server.id || h.knownToCompute === false) continue;
    if (!server.volumeIds.includes(h.volumeId)) continue;
    const seen = out.get(h.volumeId);
    if (!seen || (seen.state !== 'attached' && h.state === 'attached')) out.set(h.volumeId, h);
  }
  return [...out.values()];
}

/** Nova's attachment list for a server, or null when the server is not visible (404). */
async function novaHoldsOf(cloud: CloudClient, serverId: string): Promise<NovaAttachment[] | null> {
  try {
    return await listServerAttachments(cloud, serverId);
  } catch (err) {
    if (err instanceof OpenStackFault && err.status === 404) return null;
    throw err;
  }
}

/** Whether Nova's attachment list names Cinder's attachment ids (2.89), so records join exactly. */
const novaNamesAttachments = (cloud: CloudClient) => cloud.computeHas(COMPUTE.attachmentIds);

/** Cinder's attachment records of one volume (every project's for an admin). */
export const attachmentRecordsOf = (cloud: CloudClient, volumeId: string): Promise<CinderAttachment[]> =>
  listVolumeAttachments(cloud, { volumeId, allProjects: cloud.session.isAdmin });

/**
 * Nova's word on each of these servers: the server (null when the caller cannot see it) and,
 * where Nova names attachment ids, its attachment list. One round trip whatever the count.
 */
async function askNova(cloud: CloudClient, serverIds: Iterable<string>) {
  const withList = novaNamesAttachments(cloud);
  const answers = await Promise.all(
    [...new Set(serverIds)].map((id) =>
      Promise.all([findServer(cloud, id), withList ? novaHoldsOf(cloud, id) : null]),
    ),
  );
  const servers: NovaServer[] = [];
  const novaAttachments: NovaAttachment[] = [];
  const novaListed: string[] = [];
  for (const [server, list] of answers) {
    if (!server) continue;
    servers.push(server);
    if (list) {
      novaAttachments.push(...list);
      novaListed.push(server.id);
    }
  }
  return { servers, novaAttachments, novaListed };
}

/**
 * Every hold on one volume, from every source, each marked with whether Nova knows it (the
 * volume's holders may be in other projects: their names, and Nova's word, stay null for a
 * member). A caller that fetched the volume's attachment records alongside the volume passes them in.
 */
export async function holdsOfVolume(
  cloud: CloudClient,
  volume: CinderVolume,
  records?: readonly CinderAttachment[],
): Promise<Hold[]> {
  const cinderAttachments = records ?? (await attachmentRecordsOf(cloud, volume.id));
  const nova = await askNova(cloud, [
    ...volume.attachments.map((a) => a.serverId),
    ...cinderAttachments.flatMap((a) => (a.serverId && !GONE.has(a.status) ? [a.serverId] : [])),
  ]);
  return joinHolds({
    cinderAttachments,
    volumes: [volume],
    ...nova,
    // Only this volume's: the holders' other attachments are not this page's business.
    novaAttachments: nova.novaAttachments.filter((a) => a.volumeId === volume.id),
    withHosts: cloud.session.isAdmin,
  });
}

/**
 * Every hold of one server: Nova's list is the server's volumes; Cinder's records are joined for
 * states and times only, so a record Nova does not list (anyone can create one naming any
 * server) is not shown as this server's.
 */
export async function holdsOfServer(
  cloud: CloudClient,
  server: NovaServer,
  lists?: { novaAttachments: NovaAttachment[]; cinderAttachments: CinderAttachment[] },
): Promise<Hold[]> {
  const isAdmin = cloud.session.isAdmin;
  const { novaAttachments, cinderAttachments } = lists ?? (await serverAttachmentLists(cloud, server.id));
  const volumes = (
    await Promise.all([...new Set(novaAttachments.map((a) => a.volumeId))].map((id) => findVolume(cloud, id)))
  ).filter((v): v is CinderVolume => v !== null);
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
    novaListed: [server.id],
    withHosts: isAdmin,
  }).filter((h) => h.knownToCompute === true);
}

/**
 * Nova's and Cinder's lists of one server's attachments, both asked by the server's id alone, so
 * a caller can ask them alongside the server itself (one round trip for the three).
 */
export async function serverAttachmentLists(
  cloud: CloudClient,
  serverId: string,
): Promise<{ novaAttachments: NovaAttachment[]; cinderAttachments: CinderAttachment[] }> {
  const [novaAttachments, cinderAttachments] = await Promise.all([
    listServerAttachments(cloud, serverId),
    listVolumeAttachments(cloud, { serverId, allProjects: cloud.session.isAdmin }),
  ]);
  return { novaAttachments, cinderAttachments };
}

/** A read-write holder of a volume, as the two-writer rule counts them. */
export interface Writer {
  serverId: string;
  serverName: string | null;
  attachmentId: string | null;
}

/**
 * The volume's live read-write holders other than `exceptServerId`, read as they are now: one
 * call to Cinder, and Nova asked only about records that may be writers (to learn the mode of an
 * attachment Cinder has not connected yet, and to drop records Nova does not know). A holder the
 * caller cannot ask Nova about counts as Cinder says: better one acknowledgement too many.
 */
export async function writersOf(
  cloud: CloudClient,
  volumeId: string,
  exceptServerId: string | null = null,
): Promise<Writer[]> {
  const others = (c: { serverId: string | null }) => c.serverId !== null && c.serverId !== exceptServerId;
  let records: CinderAttachment[];
  if (hasAttachmentsApi(cloud)) {
    records = (await attachmentRecordsOf(cloud, volumeId)).filter(
      (c) => others(c) && isLiveHoldState(c.status) && c.mode !== 'ro',
    );
  } else {
    // Below 3.27 only the volume's attached list exists (and no shared volume: Nova needs 3.48 for that).
    const volume = await findVolume(cloud, volumeId);
    records = (volume?.attachments ?? []).filter(others).map((a) => ({
      id: a.attachmentId ?? `${a.serverId}/${volumeId}`,
      volumeId,
      serverId: a.serverId,
      status: 'attached',
      mode: volume?.readonly ? 'ro' : null,
      attachedAt: a.attachedAt,
      detachedAt: null,
    }));
  }
  if (records.length === 0) return [];
  const nova = await askNova(
    cloud,
    records.map((r) => r.serverId!),
  );
  return joinHolds({
    cinderAttachments: records,
    ...nova,
    novaAttachments: nova.novaAttachments.filter((a) => a.volumeId === volumeId),
    withHosts: false,
  })
    .filter((h) => h.knownToCompute !== false && h.mode === 'rw')
    .map((h) => ({ serverId: h.serverId, serverName: h.serverName, attachmentId: h.attachmentId }));
}
