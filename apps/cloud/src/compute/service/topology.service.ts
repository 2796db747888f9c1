import type { AuthContext } from '../../platform/http/context.js';
import { policyForbidden } from '../../platform/http/errors.js';
import type { AttachmentState, VolumeSummary } from '../clients/volume-client.js';
import type { ComputeDeps } from '../deps.js';
import type { TopologyQuery } from '../schemas/topology.schemas.js';
import { novaHostId } from '../host-id.js';
import { ATTACH_MODE_MIN_SERVICE_VERSION } from '../hosts.js';
import {
  type TopologyFilter,
  type TopologyHostRow,
  type TopologyMappingRow,
  type TopologyServerRow,
  topologyStore,
} from '../store/topology.store.js';

/** Cinder attachment states that should pass within seconds; sitting in one is a risk. */
const TRANSITIONAL_STATUSES = new Set(['reserved', 'attaching', 'detaching']);

export type AttachMode = 'rw' | 'ro';

export interface HostService {
  state: 'up' | 'down';
  status: string;
  serviceVersion: number;
  supportsMultiattach: boolean | null;
  supportsAttachModes: boolean;
}

export interface HostNode {
  /** The host name, or for members Nova's hostId (hashed per project). */
  name: string;
  availabilityZone: string | null;
  /** null for members, and for a host no nova-compute service reports. */
  service: HostService | null;
  serverIds: string[];
}

export interface ServerNode {
  id: string;
  name: string;
  projectId: string;
  vmState: string;
  taskState: string | null;
  host: string | null;
  availabilityZone: string | null;
  attachmentIds: string[];
}

export interface AttachmentEdge {
  /** The Cinder attachment id; null when the mapping has none yet. */
  id: string | null;
  bdmUuid: string;
  serverId: string;
  volumeId: string;
  device: string | null;
  mode: AttachMode;
  /** Cinder's attach_status; null when the Cinder attachment is missing. */
  status: string | null;
  bootIndex: number | null;
  deleteOnTermination: boolean;
  createdAt: string;
  attachedAt: string | null;
  updatedAt: string | null;
}

export interface VolumeNode {
  id: string;
  name: string | null;
  projectId: string;
  status: string;
  size: number;
  multiattach: boolean;
  volumeType: string | null;
  attachmentCount: number;
  rwCount: number;
  roCount: number;
}

export type TopologyRisk =
  | { kind: 'multiple_writers'; volumeId: string; volumeName: string | null; serverIds: string[] }
  | {
      kind: 'stuck_attachment';
      attachmentId: string | null;
      bdmUuid: string;
      volumeId: string;
      serverId: string;
      status: string | null;
      since: string;
      stuckAfterSeconds: number;
    };

export interface Topology {
  /** The one project shown, or null for the whole cloud. */
  projectId: string | null;
  /** True when host names are replaced by Nova's hostId (non-admin callers). */
  hashedHosts: boolean;
  hosts: HostNode[];
  servers: ServerNode[];
  attachments: AttachmentEdge[];
  volumes: VolumeNode[];
  risks: TopologyRisk[];
  generatedAt: string;
}

/** The mapping's own mode (2.105) wins; then the Cinder attachment's; Cinder's default is rw. */
export function effectiveMode(bdmMode: string | null, cinderMode: string | null): AttachMode {
  if (bdmMode === 'rw' || bdmMode === 'ro') return bdmMode;
  if (cinderMode === 'rw' || cinderMode === 'ro') return cinderMode;
  return 'rw';
}

/**
 * Decides whose data the caller may see. Mirrors Nova's servers list: admins see every project
 * (here by default), a non-admin asking for all tenants gets the policy 403, and admin-only
 * filters (project_id, host) from a non-admin are dropped rather than refused.
 */
function scopeFor(auth: AuthContext, q: TopologyQuery): TopologyFilter {
  if (auth.isAdmin) {
    const projectId = q.projectId ?? (q.allTenants === false ? auth.projectId : null);
    return { projectId, host: q.host, serverId: q.serverId, volumeId: q.volumeId };
  }
  if (q.allTenants === true || auth.projectId === null) {
    throw policyForbidden('os_compute_api:os-emulator-topology:all_tenants');
  }
  return { projectId: auth.projectId, host: null, serverId: q.serverId, volumeId: q.volumeId };
}

const narrowsServers = (f: TopologyFilter) =>
  f.projectId !== null || f.serverId !== null || f.volumeId !== null;

/** Hosts -> servers -> attachments -> volumes for the caller, with the risks an operator must see. */
export async function buildTopology(
  deps: ComputeDeps,
  auth: AuthContext,
  q: TopologyQuery,
  now: Date = new Date(),
): Promise<Topology> {
  const filter = scopeFor(auth, q);
  const admin = auth.isAdmin;
  const unfiltered = !narrowsServers(filter) && filter.host === null;
  const { db, engine } = deps.store;

  // Independent reads: PostgreSQL runs them on parallel connections; SQLite queues them.
  const [hostRows, serverRows, mappingRows] = await Promise.all([
    admin ? topologyStore.computeHosts(db, filter.host) : Promise.resolve([] as TopologyHostRow[]),
    topologyStore.servers(db, engine, filter),
    topologyStore.mappings(db, engine, filter),
  ]);
  // Unfiltered, every attachment is wanted: one read of them all beats a thousand ids at a time.
  const cinder = unfiltered
    ? new Map((await deps.volumes.attachmentStates('all')).map((a) => [a.id, a]))
    : await attachmentStatesOf(deps, mappingRows);

  const servers = new Map<string, ServerNode>();
  const hostNameOf = hostNamer(admin);
  for (const row of serverRows) servers.set(row.id, serverNode(row, hostNameOf));
  const { attachments, stuck } = linkAttachments(mappingRows, cinder, servers, q.stuckAfterSeconds, now);

  const volumeIds = [...new Set(attachments.map((a) => a.volumeId))];
  const [volumeRows, modeRows] = await Promise.all([
    deps.volumes.summaries(volumeIds, admin ? null : filter.projectId),
    // Unfiltered, the listed attachments are already every attachment of every volume.
    unfiltered ? Promise.resolve(null) : topologyStore.modesOfVolumes(db, engine, volumeIds),
  ]);
  const usage = new Map<string, VolumeUsage>();
  if (modeRows) {
    const modes = await attachmentStatesOf(deps, modeRows, cinder);
    for (const r of modeRows) {
      const cinderMode = r.attachment_id ? (modes.get(r.attachment_id)?.attach_mode ?? null) : null;
      addUse(usage, r.volume_id, r.server_id, effectiveMode(r.attach_mode, cinderMode));
    }
  } else {
    for (const a of attachments) addUse(usage, a.volumeId, a.serverId, a.mode);
  }
  const { volumes, writers } = volumeNodes(volumeRows, usage);

  return {
    projectId: filter.projectId,
    hashedHosts: !admin,
    hosts: hostNodes(hostRows, servers, admin, narrowsServers(filter)),
    servers: [...servers.values()],
    attachments,
    volumes,
    risks: [...writers, ...stuck],
    generatedAt: now.toISOString(),
  };
}

/** Cinder's side of these mappings' attachments, by attachment id; `known` ones are not read again. */
async function attachmentStatesOf(
  deps: ComputeDeps,
  rows: readonly { attachment_id: string | null }[],
  known: ReadonlyMap<string, AttachmentState> = new Map(),
): Promise<Map<string, AttachmentState>> {
  const ids = new Set<string>();
  for (const r of rows) if (r.attachment_id && !known.has(r.attachment_id)) ids.add(r.attachment_id);
  const states = new Map(known);
  for (const a of await deps.volumes.attachmentStates([...ids])) states.set(a.id, a);
  return states;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type StuckRisk = Extract<TopologyRisk, { kind: 'stuck_attachment' }>;
type WritersRisk = Extract<TopologyRisk, { kind: 'multiple_writers' }>;

/**
 * Turns mapping rows into edges listed in server order, then attach order within a server
 * (cheaper here than a SQL sort of every row), fills each server's attachment ids, and picks
 * out the stuck ones, oldest first.
 */
function linkAttachments(
  rows: TopologyMappingRow[],
  cinder: Map<string, AttachmentState>,
  servers: Map<string, ServerNode>,
  stuckAfterSeconds: number,
  now: Date,
): { attachments: AttachmentEdge[]; stuck: StuckRisk[] } {
  const cutoff = now.getTime() - stuckAfterSeconds * 1000;
  const byServer = new Map<string, AttachmentEdge[]>();
  const stuck: StuckRisk[] = [];
  for (const row of rows) {
    const server = servers.get(row.server_id);
    // Reads are not one snapshot: skip a mapping whose server appeared after the servers query.
    if (!server) continue;
    const edge = attachmentEdge(row, row.attachment_id ? cinder.get(row.attachment_id) : undefined);
    const list = byServer.get(edge.serverId);
    if (list) list.push(edge);
    else byServer.set(edge.serverId, [edge]);
    const since = stuckSince(edge, server.vmState);
    if (since !== null && Date.parse(since) < cutoff) {
      stuck.push({
        kind: 'stuck_attachment',
        attachmentId: edge.id,
        bdmUuid: edge.bdmUuid,
        volumeId: edge.volumeId,
        serverId: edge.serverId,
        status: edge.status,
        since,
        stuckAfterSeconds,
      });
    }
  }
  const attachments: AttachmentEdge[] = [];
  for (const server of servers.values()) {
    const list = byServer.get(server.id);
    if (!list) continue;
    if (list.length > 1) list.sort((a, b) => cmp(a.createdAt, b.createdAt) || cmp(a.bdmUuid, b.bdmUuid));
    for (const edge of list) {
      attachments.push(edge);
      if (edge.id !== null) server.attachmentIds.push(edge.id);
    }
  }
  stuck.sort((a, b) => cmp(a.since, b.since));
  return { attachments, stuck };
}

/** Volumes by id with their whole-cloud counts, and a risk for each with several writers. */
function volumeNodes(
  rows: VolumeSummary[],
  usage: Map<string, VolumeUsage>,
): { volumes: VolumeNode[]; writers: WritersRisk[] } {
  const volumes: VolumeNode[] = [];
  const writers: WritersRisk[] = [];
  for (const v of [...rows].sort((a, b) => cmp(a.id, b.id))) {
    const u = usage.get(v.id) ?? { rw: [], ro: 0 };
    volumes.push({
      id: v.id,
      name: v.name,
      projectId: v.project_id,
      status: v.status,
      size: Number(v.size),
      multiattach: Number(v.multiattach) === 1,
      volumeType: v.volume_type,
      attachmentCount: u.rw.length + u.ro,
      rwCount: u.rw.length,
      roCount: u.ro,
    });
    if (u.rw.length > 1) {
      writers.push({
        kind: 'multiple_writers',
        volumeId: v.id,
        volumeName: v.name,
        serverIds: [...u.rw].sort(),
      });
    }
  }
  return { volumes, writers };
}

/** Admins see host names; members see Nova's per-project hostId, cached per host. */
function hostNamer(admin: boolean): (projectId: string, host: string | null) => string | null {
  if (admin) return (_projectId, host) => host;
  const cache = new Map<string, string>();
  return (projectId, host) => {
    if (host === null) return null;
    const key = `${projectId}\u0000${host}`;
    let id = cache.get(key);
    if (id === undefined) {
      id = novaHostId(projectId, host);
      cache.set(key, id);
    }
    return id;
  };
}

function serverNode(row: TopologyServerRow, hostNameOf: ReturnType<typeof hostNamer>): ServerNode {
  return {
    id: row.id,
    name: row.name,
    projectId: row.project_id,
    vmState: row.vm_state,
    taskState: row.task_state,
    host: hostNameOf(row.project_id, row.host),
    availabilityZone: row.availability_zone,
    attachmentIds: [],
  };
}

/**
 * A mapping and its Cinder attachment (missing when Cinder has none: the edge still shows, which
 * is what an operator needs to see). Where both sides know a value, Cinder's wins.
 */
function attachmentEdge(row: TopologyMappingRow, cinder: AttachmentState | undefined): AttachmentEdge {
  return {
    id: row.attachment_id,
    bdmUuid: row.uuid,
    serverId: row.server_id,
    volumeId: row.volume_id,
    device: row.device_name ?? cinder?.mountpoint ?? null,
    mode: effectiveMode(row.attach_mode, cinder?.attach_mode ?? null),
    status: cinder?.attach_status ?? null,
    bootIndex: row.boot_index === null ? null : Number(row.boot_index),
    deleteOnTermination: Number(row.delete_on_termination) === 1,
    createdAt: cinder?.created_at ?? row.created_at,
    attachedAt: cinder?.attached_at ?? null,
    updatedAt: cinder?.updated_at ?? row.updated_at,
  };
}

/**
 * When a mapping entered a state it should have left by now, or null when it is settled.
 * A mapping with no Cinder attachment counts (it never connected); a shelved-offloaded
 * server keeps its attachments `reserved` on purpose (Nova does so until unshelve).
 */
function stuckSince(edge: AttachmentEdge, vmState: string): string | null {
  const status = edge.status;
  if (status !== null && !TRANSITIONAL_STATUSES.has(status)) return null;
  if (vmState === 'shelved_offloaded' && (status === null || status === 'reserved')) return null;
  return edge.updatedAt ?? edge.createdAt;
}

interface VolumeUsage {
  rw: string[];
  ro: number;
}

function addUse(usage: Map<string, VolumeUsage>, volumeId: string, serverId: string, mode: AttachMode): void {
  let u = usage.get(volumeId);
  if (!u) {
    u = { rw: [], ro: 0 };
    usage.set(volumeId, u);
  }
  if (mode === 'rw') u.rw.push(serverId);
  else u.ro += 1;
}

/**
 * Admins: every nova-compute host (empty ones too, so capacity is visible) unless the servers
 * were narrowed, then only the hosts holding them. Members: only hosts holding their servers.
 * A server on a host no service reports still gets a host entry, without service facts.
 */
function hostNodes(
  rows: TopologyHostRow[],
  servers: Map<string, ServerNode>,
  admin: boolean,
  narrowed: boolean,
): HostNode[] {
  const hosts = new Map<string, HostNode>();
  if (admin) {
    for (const r of rows) {
      hosts.set(r.host, {
        name: r.host,
        availabilityZone: r.zone,
        service: {
          state: Number(r.forced_down) === 1 ? 'down' : 'up',
          status: r.status,
          serviceVersion: Number(r.version),
          supportsMultiattach: r.supports_multiattach === null ? null : Number(r.supports_multiattach) === 1,
          supportsAttachModes: Number(r.version) >= ATTACH_MODE_MIN_SERVICE_VERSION,
        },
        serverIds: [],
      });
    }
  }
  for (const s of servers.values()) {
    if (s.host === null) continue;
    let h = hosts.get(s.host);
    if (!h) {
      h = { name: s.host, availabilityZone: s.availabilityZone, service: null, serverIds: [] };
      hosts.set(s.host, h);
    }
    h.serverIds.push(s.id);
  }
  const list = [...hosts.values()];
  const shown = admin && !narrowed ? list : list.filter((h) => h.serverIds.length > 0);
  return shown.sort((a, b) => cmp(a.name, b.name));
}
