import { isServerHold, isTransitionalHoldState, type Topology, type TopologyQuery } from '@sv/shared';
import { type Hold, joinHolds } from '../../openstack/attachments.js';
import { type CinderVolume, listVolumeAttachments, listVolumes } from '../../openstack/cinder.js';
import { type CloudClient, cloudFor } from '../../openstack/cloud-client.js';
import { type ComputeHost, listComputeHosts, listServers, type NovaServer } from '../../openstack/nova.js';
import { OpenStackFault } from '../../openstack/fault.js';
import { type ExtTopology, getTopologyExtension } from '../../openstack/topology.js';
import { forbidden } from '../../platform/errors.js';
import type { SessionData } from '../../platform/session-store.js';
import { projectNamesFor } from '../../openstack/project-names.js';

/** How long an attachment may sit in a transitional state before it is flagged (the extension's default). */
export const STUCK_AFTER_SECONDS = 300;

type Host = Topology['hosts'][number];
type Risk = Topology['risks'][number];

/** A member sees Nova's per-project hostId; a short form of it is enough to tell hosts apart. */
const hiddenHostName = (hostId: string) => `host ${hostId.slice(0, 8)}`;

const writersMessage = (name: string, count: number) =>
  `Volume ${name} is attached read-write to ${count} servers; without a cluster file system or fencing, concurrent writes can corrupt it.`;

const stuckMessage = (volumeId: string, serverId: string, state: string, since: string, seconds: number) =>
  `Attachment of volume ${volumeId} to server ${serverId} has been in state '${state}' since ${since} (over ${seconds} seconds).`;

/** Members may only look at their own project; admins see the whole cloud unless they filter. */
function checkScope(session: SessionData, q: TopologyQuery): void {
  if (!session.isAdmin && q.project !== undefined && q.project !== session.project.id) {
    throw forbidden('You can only see the topology of your own project.');
  }
}

// --- From the bundled cloud's extension ---------------------------------------------------------

export async function extensionTopology(cloud: CloudClient, q: TopologyQuery): Promise<Topology> {
  const admin = cloud.session.isAdmin;
  const ext = await getTopologyExtension(cloud, {
    ...(admin && q.project ? { projectId: q.project } : {}),
    ...(admin && q.host ? { host: q.host } : {}),
    ...(q.volume ? { volumeId: q.volume } : {}),
    stuckAfterSeconds: STUCK_AFTER_SECONDS,
  });
  // The extension ignores a member's host filter; theirs names a hashed hostId, applied here.
  return fromExtension(!admin && q.host ? narrowToHost(ext, q.host) : ext);
}

function narrowToHost(ext: ExtTopology, hostId: string): ExtTopology {
  const servers = ext.servers.filter((s) => s.host === hostId);
  const ids = new Set(servers.map((s) => s.id));
  const attachments = ext.attachments.filter((a) => ids.has(a.serverId));
  const volumeIds = new Set(attachments.map((a) => a.volumeId));
  return {
    ...ext,
    hosts: ext.hosts.filter((h) => h.name === hostId),
    servers,
    attachments,
    volumes: ext.volumes.filter((v) => volumeIds.has(v.id)),
    risks: ext.risks.filter((r) => volumeIds.has(r.volumeId)),
  };
}

function fromExtension(ext: ExtTopology): Topology {
  const hashed = ext.hostIdsHashed;
  return {
    source: 'extension',
    hostNamesHidden: hashed,
    hosts: ext.hosts.map(
      (h): Host => ({
        id: h.name,
        name: hashed ? hiddenHostName(h.name) : h.name,
        zone: h.zone,
        serverIds: h.serverIds,
        ...(hashed
          ? {}
          : {
              state: h.state,
              status: h.status,
              supportsMultiattach: h.supportsMultiattach,
              supportsAttachModes: h.supportsAttachModes,
            }),
      }),
    ),
    servers: ext.servers.map((s) => ({
      id: s.id,
      name: s.name,
      status: s.status,
      hostId: s.host,
      projectId: s.projectId,
    })),
    volumes: ext.volumes.map((v) => ({
      id: v.id,
      name: v.name,
      status: v.status,
      shared: v.multiattach,
      projectId: v.projectId,
      rw: v.rw,
      ro: v.ro,
    })),
    edges: ext.attachments.map((a) => ({
      serverId: a.serverId,
      volumeId: a.volumeId,
      mode: a.mode,
      state: a.state ?? 'unknown',
      device: a.device,
      since: a.updatedAt ?? a.attachedAt ?? a.createdAt,
      attachmentId: a.id,
    })),
    risks: ext.risks.map(
      (r): Risk =>
        r.kind === 'multiple_writers'
          ? r
          : {
              kind: r.kind,
              volumeId: r.volumeId,
              serverIds: [r.serverId],
              message: r.message,
              attachmentId: r.attachmentId,
              state: r.state,
              since: r.since,
            },
    ),
    generatedAt: ext.generatedAt,
  };
}

// --- Composed from standard APIs (a real cloud) -------------------------------------------------

/**
 * Servers detail, volumes detail and Cinder's attachment records (3.27+), joined here; an edge is
 * a volume Nova lists on the server (servers detail), with Cinder's record for its details. Cinder's
 * records carry no update time, so an attachment's time in a transitional state is measured from
 * its volume's `updated_at`: a lower bound, so a stuck flag is never raised too early.
 */
export async function composedTopology(
  cloud: CloudClient,
  q: TopologyQuery,
  now = new Date(),
): Promise<Topology> {
  const admin = cloud.session.isAdmin;
  const [allServers, volumes, attachments, computeHosts] = await Promise.all([
    listServers(
      cloud,
      admin
        ? {
            allProjects: true,
            ...(q.project ? { projectId: q.project } : {}),
            ...(q.host ? { host: q.host } : {}),
          }
        : {},
    ),
    // Every visible volume: a listed server may hold another project's shared volume.
    listVolumes(cloud, admin ? { allProjects: true } : {}),
    listVolumeAttachments(cloud, { allProjects: admin }),
    admin ? visibleHosts(cloud) : Promise.resolve<ComputeHost[]>([]),
  ]);
  const volumeById = new Map(volumes.map((v) => [v.id, v]));
  // A record Nova does not list on its server is nobody's (anyone can create one naming any
  // server): neither an edge nor a count. One naming a server the caller cannot see stays in the counts.
  const holds = joinHolds({
    cinderAttachments: attachments,
    volumes,
    servers: allServers,
    withHosts: admin,
  }).filter(isServerHold);

  let servers = admin || !q.host ? allServers : allServers.filter((s) => s.hostId === q.host);
  const listed = new Set(servers.map((s) => s.id));
  let edges = holds.filter((h) => listed.has(h.serverId));
  if (q.volume) {
    edges = edges.filter((h) => h.volumeId === q.volume);
    const holders = new Set(edges.map((h) => h.serverId));
    servers = servers.filter((s) => holders.has(s.id));
  }
  const listedVolumes = [...new Set(edges.map((h) => h.volumeId))]
    .map((id) => volumeById.get(id))
    .filter((v): v is CinderVolume => v !== undefined);

  // Counts cover every hold in view, not just the filtered ones, so a filter never hides a second writer.
  const holdsOf = new Map<string, Hold[]>();
  for (const h of holds) {
    const list = holdsOf.get(h.volumeId);
    if (list) list.push(h);
    else holdsOf.set(h.volumeId, [h]);
  }

  const hosts = admin
    ? adminHosts(servers, q.host ? computeHosts.filter((h) => h.host === q.host) : computeHosts, narrowed(q))
    : memberHosts(servers);

  const cutoff = now.getTime() - STUCK_AFTER_SECONDS * 1000;
  const stateOf = new Map(servers.map((s) => [s.id, s.status]));
  const sinceOf = (h: Hold) => volumeById.get(h.volumeId)?.updatedAt ?? h.since;
  const writers: Risk[] = listedVolumes.flatMap((v) => {
    const rw = (holdsOf.get(v.id) ?? []).filter((h) => h.mode === 'rw');
    if (rw.length < 2) return [];
    const serverIds = [...new Set(rw.map((h) => h.serverId))];
    return [
      {
        kind: 'multiple_writers',
        volumeId: v.id,
        serverIds,
        message: writersMessage(v.name || v.id, rw.length),
      },
    ];
  });
  const stuck = edges
    .filter((h) => isTransitionalHoldState(h.state))
    // A shelved-offloaded server keeps its reservations on purpose until unshelve.
    .filter((h) => !(h.state === 'reserved' && stateOf.get(h.serverId) === 'SHELVED_OFFLOADED'))
    .flatMap((h) => {
      const since = sinceOf(h);
      if (!since || Date.parse(since) >= cutoff) return [];
      return [{ h, since }];
    })
    .sort((a, b) => a.since.localeCompare(b.since))
    .map(
      ({ h, since }): Risk => ({
        kind: 'stuck_attachment',
        volumeId: h.volumeId,
        serverIds: [h.serverId],
        message: stuckMessage(h.volumeId, h.serverId, h.state, since, STUCK_AFTER_SECONDS),
        attachmentId: h.attachmentId,
        state: h.state,
        since,
      }),
    );

  return {
    source: 'composed',
    hostNamesHidden: !admin,
    hosts,
    servers: servers.map((s) => ({
      id: s.id,
      name: s.name,
      status: s.status,
      hostId: admin ? s.host : s.hostId,
      projectId: s.projectId,
    })),
    volumes: listedVolumes.map((v) => {
      const all = holdsOf.get(v.id) ?? [];
      return {
        id: v.id,
        name: v.name,
        status: v.status,
        shared: v.multiattach,
        projectId: v.projectId,
        rw: all.filter((h) => h.mode === 'rw').length,
        ro: all.filter((h) => h.mode === 'ro').length,
      };
    }),
    edges: edges.map((h) => ({
      serverId: h.serverId,
      volumeId: h.volumeId,
      mode: h.mode,
      state: h.state,
      device: h.device,
      since: h.since ?? sinceOf(h),
      attachmentId: h.attachmentId,
    })),
    risks: [...writers.sort((a, b) => a.volumeId.localeCompare(b.volumeId)), ...stuck],
    generatedAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** Host facts for admins; a cloud whose policy hides them still gets a graph, hosts taken from the servers. */
async function visibleHosts(cloud: CloudClient): Promise<ComputeHost[]> {
  try {
    return await listComputeHosts(cloud);
  } catch (err) {
    if (err instanceof OpenStackFault && (err.status === 403 || err.status === 404)) return [];
    throw err;
  }
}

/** As the extension: a project or volume filter narrows the servers, and so the hosts shown. */
const narrowed = (q: TopologyQuery) => q.project !== undefined || q.volume !== undefined;

/** Every compute host (or the one asked for) unless the view is narrowed, then only those holding a listed server. */
function adminHosts(
  servers: readonly NovaServer[],
  computeHosts: readonly ComputeHost[],
  narrowed: boolean,
): Host[] {
  const out = new Map<string, Host>();
  for (const h of computeHosts) {
    out.set(h.host, {
      id: h.host,
      name: h.host,
      zone: h.zone,
      serverIds: [],
      state: h.state,
      status: h.status,
      supportsMultiattach: h.supportsMultiattach,
      supportsAttachModes: h.supportsAttachModes,
    });
  }
  for (const s of servers) {
    if (!s.host) continue;
    const host = out.get(s.host) ?? { id: s.host, name: s.host, zone: s.availabilityZone, serverIds: [] };
    host.serverIds.push(s.id);
    out.set(s.host, host);
  }
  const hosts = [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
  return narrowed ? hosts.filter((h) => h.serverIds.length > 0) : hosts;
}

/** Members: hosts are the hostIds of their own servers, with the servers' zones. */
function memberHosts(servers: readonly NovaServer[]): Host[] {
  const out = new Map<string, Host>();
  for (const s of servers) {
    if (!s.hostId) continue;
    const host = out.get(s.hostId) ?? {
      id: s.hostId,
      name: hiddenHostName(s.hostId),
      zone: s.availabilityZone,
      serverIds: [],
    };
    host.serverIds.push(s.id);
    out.set(s.hostId, host);
  }
  return [...out.values()].sort((a, b) => a.id.localeCompare(b.id));
}

// --- The feature -------------------------------------------------------------------------------

/**
 * The cloud's own topology when it offers it, else composed from standard APIs; with the names of
 * the projects for the filter (admins see project ids in the answer, Horizon shows names).
 */
export async function getTopology(
  session: SessionData,
  q: TopologyQuery,
  identity: { authUrl: string },
): Promise<Topology> {
  checkScope(session, q);
  const cloud = cloudFor(session);
  const [topology, projects] = await Promise.all([
    session.capabilities.topologyExtension ? extensionTopology(cloud, q) : composedTopology(cloud, q),
    projectNamesFor(session, identity.authUrl),
  ]);
  return { ...topology, projects };
}
