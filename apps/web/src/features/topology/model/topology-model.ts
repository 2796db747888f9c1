import { type AttachMode, isTransitionalHoldState, type Topology } from '@sv/shared';

export type TopologyHost = Topology['hosts'][number];
export type TopologyServer = Topology['servers'][number];
export type TopologyVolume = Topology['volumes'][number];
export type TopologyEdge = Topology['edges'][number];
export type TopologyRisk = Topology['risks'][number];

/** The group for servers Nova has not placed (BUILD, shelved offloaded) or whose host is not listed. */
export const NO_HOST = '\u0000no-host';
export const NO_HOST_LABEL = 'Not on a host';

export const isPending = isTransitionalHoldState;

export const nodeId = {
  host: (id: string) => `host:${id}`,
  server: (id: string) => `server:${id}`,
  volume: (id: string) => `volume:${id}`,
};

export const edgeKey = (serverId: string, volumeId: string) => `${serverId}\u0000${volumeId}`;

/** Lookups the graph, the table and the risk panel all need, built once per response. */
export interface TopologyIndex {
  hosts: Map<string, TopologyHost>;
  servers: Map<string, TopologyServer>;
  volumes: Map<string, TopologyVolume>;
  /** Server id -> the host group it is drawn in (a host id, or NO_HOST). */
  hostOf: Map<string, string>;
  /** Volume ids flagged with several read-write attachments. */
  multipleWriters: Set<string>;
  /** edgeKey(server, volume) -> the stuck risk for that attachment. */
  stuck: Map<string, TopologyRisk>;
  /** Server and volume ids with at least one stuck attachment. */
  stuckServers: Set<string>;
  stuckVolumes: Set<string>;
}

export function indexTopology(t: Topology): TopologyIndex {
  const hosts = new Map(t.hosts.map((h) => [h.id, h]));
  const servers = new Map(t.servers.map((s) => [s.id, s]));
  const volumes = new Map(t.volumes.map((v) => [v.id, v]));
  const hostOf = new Map<string, string>();
  for (const h of t.hosts) for (const id of h.serverIds) if (servers.has(id)) hostOf.set(id, h.id);
  for (const s of t.servers) {
    if (!hostOf.has(s.id)) hostOf.set(s.id, s.hostId && hosts.has(s.hostId) ? s.hostId : NO_HOST);
  }
  const multipleWriters = new Set<string>();
  const stuck = new Map<string, TopologyRisk>();
  const stuckServers = new Set<string>();
  const stuckVolumes = new Set<string>();
  for (const r of t.risks) {
    if (r.kind === 'multiple_writers') multipleWriters.add(r.volumeId);
    else {
      stuckVolumes.add(r.volumeId);
      for (const s of r.serverIds) {
        stuck.set(edgeKey(s, r.volumeId), r);
        stuckServers.add(s);
      }
    }
  }
  return { hosts, servers, volumes, hostOf, multipleWriters, stuck, stuckServers, stuckVolumes };
}

export const hostLabel = (index: TopologyIndex, hostId: string) =>
  hostId === NO_HOST ? NO_HOST_LABEL : (index.hosts.get(hostId)?.name ?? hostId);

export const modeLabel = (mode: AttachMode) => (mode === 'rw' ? 'read-write' : 'read-only');

/** Case-insensitive search over names and ids of hosts, servers and volumes; returns node ids. */
export function searchTopology(t: Topology, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hit = (...fields: (string | null | undefined)[]) => fields.some((f) => f?.toLowerCase().includes(q));
  const out: string[] = [];
  for (const h of t.hosts) if (hit(h.name, h.id)) out.push(nodeId.host(h.id));
  for (const s of t.servers) if (hit(s.name, s.id)) out.push(nodeId.server(s.id));
  for (const v of t.volumes) if (hit(v.name, v.id)) out.push(nodeId.volume(v.id));
  return out;
}
