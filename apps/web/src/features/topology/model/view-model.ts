import type { Topology } from '@sv/shared';
import { edgeKey, isPending, NO_HOST, nodeId, type TopologyIndex } from './topology-model';

/**
 * What the graph draws: the topology folded into zones, hosts, servers and volumes, as far as the
 * user (or the fit rule, model/auto-expand.ts) opened it. Whatever is folded still counts: every
 * group says how many servers, volumes and risks it holds, and every attachment is drawn, alone or
 * merged into one line between the two groups it joins.
 */

/** Risky things inside a group: servers writing to a volume with several writers, stuck attachments. */
export interface RiskCount {
  writers: number;
  stuck: number;
}

const noRisk = (): RiskCount => ({ writers: 0, stuck: 0 });
const addRisk = (to: RiskCount, r: RiskCount) => {
  to.writers += r.writers;
  to.stuck += r.stuck;
};
export const hasRisk = (r: RiskCount) => r.writers > 0 || r.stuck > 0;

export interface HostSummary {
  /** A host id, or NO_HOST for servers not on a listed host. */
  id: string;
  /** The zone key it is grouped under (ZONELESS when the cloud gives none). */
  zone: string;
  /** Its servers, by name. */
  servers: string[];
  /** How many of them hold at least one volume. */
  withVolumes: number;
  /** Volumes most of whose attachments are on this host's servers: they sit beside it. */
  homed: string[];
  risks: RiskCount;
}

export interface ZoneSummary {
  key: string;
  label: string;
  hosts: string[];
  servers: number;
  homed: number;
  risks: RiskCount;
}

/** Everything about the topology the folding needs, computed once per answer (linear in its size). */
export interface TopologySummary {
  /** In drawing order: by zone, then name; NO_HOST last. */
  hosts: HostSummary[];
  host: Map<string, HostSummary>;
  /** Zones in drawing order (NO_HOST is in none). */
  zones: ZoneSummary[];
  zone: Map<string, ZoneSummary>;
  /** Volume id -> the host it sits beside; volumes without attachments have none. */
  homeOf: Map<string, string>;
  /** Volumes with no attachment in view, by name. */
  unattached: string[];
  /** Server id -> its risks (writer on a several-writers volume, stuck attachments). */
  serverRisk: Map<string, RiskCount>;
  hasVolumes: Set<string>;
  /** Volume id -> its holders; server id -> its volumes. */
  holders: Map<string, string[]>;
  volumesOf: Map<string, string[]>;
}

/** The zone key of hosts whose zone the cloud does not say. */
export const ZONELESS = '\u0000zoneless';
export const zoneLabel = (key: string) => (key === ZONELESS ? 'No zone' : `Zone ${key}`);

// One collator for every sort: String#localeCompare builds one per call, which made sorting 5,000
// servers take tens of milliseconds. Numeric, so web-2 comes before web-10.
const collator = new Intl.Collator(undefined, { numeric: true });
export const compareNames = collator.compare;
const byName = (a: { name: string; id: string }, b: { name: string; id: string }) =>
  compareNames(a.name, b.name) || compareNames(a.id, b.id);

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

export function summarise(t: Topology, index: TopologyIndex): TopologySummary {
  const holders = new Map<string, string[]>();
  const volumesOf = new Map<string, string[]>();
  const serverRisk = new Map<string, RiskCount>();
  const riskOf = (id: string) => {
    let r = serverRisk.get(id);
    if (!r) {
      r = noRisk();
      serverRisk.set(id, r);
    }
    return r;
  };
  for (const e of t.edges) {
    if (!index.servers.has(e.serverId) || !index.volumes.has(e.volumeId)) continue;
    push(holders, e.volumeId, e.serverId);
    push(volumesOf, e.serverId, e.volumeId);
    if (e.mode === 'rw' && index.multipleWriters.has(e.volumeId)) riskOf(e.serverId).writers = 1;
    // Most volumes have no stuck attachment: skip building the key for them.
    if (index.stuckVolumes.has(e.volumeId) && index.stuck.has(edgeKey(e.serverId, e.volumeId))) {
      riskOf(e.serverId).stuck++;
    }
  }

  const serversByHost = new Map<string, string[]>();
  for (const s of [...t.servers].sort(byName)) push(serversByHost, index.hostOf.get(s.id) ?? NO_HOST, s.id);
  const listed = [...t.hosts].sort(
    (a, b) =>
      Number(a.zone === null) - Number(b.zone === null) ||
      compareNames(a.zone ?? '', b.zone ?? '') ||
      byName(a, b),
  );
  const hosts: HostSummary[] = listed.map((h) => ({
    id: h.id,
    zone: h.zone ?? ZONELESS,
    servers: serversByHost.get(h.id) ?? [],
    withVolumes: 0,
    homed: [],
    risks: noRisk(),
  }));
  const unplaced = serversByHost.get(NO_HOST);
  if (unplaced) {
    hosts.push({
      id: NO_HOST,
      zone: ZONELESS,
      servers: unplaced,
      withVolumes: 0,
      homed: [],
      risks: noRisk(),
    });
  }
  const host = new Map(hosts.map((h) => [h.id, h]));
  const hasVolumes = new Set(volumesOf.keys());
  for (const h of hosts) {
    for (const s of h.servers) {
      if (hasVolumes.has(s)) h.withVolumes++;
      const r = serverRisk.get(s);
      if (r) addRisk(h.risks, r);
    }
  }

  // A volume sits beside the host holding most of its attachments (the first such host on a tie).
  const order = new Map(hosts.map((h, i) => [h.id, i]));
  const homeOf = new Map<string, string>();
  const unattached: string[] = [];
  for (const v of [...t.volumes].sort(byName)) {
    const on = new Map<string, number>();
    for (const s of holders.get(v.id) ?? []) {
      const h = index.hostOf.get(s) ?? NO_HOST;
      on.set(h, (on.get(h) ?? 0) + 1);
    }
    let best: string | null = null;
    for (const [h, n] of on) {
      const b = best === null ? 0 : (on.get(best) ?? 0);
      if (best === null || n > b || (n === b && (order.get(h) ?? 0) < (order.get(best) ?? 0))) best = h;
    }
    if (best === null) unattached.push(v.id);
    else {
      homeOf.set(v.id, best);
      host.get(best)?.homed.push(v.id);
    }
  }

  const zones: ZoneSummary[] = [];
  const zone = new Map<string, ZoneSummary>();
  for (const h of hosts) {
    if (h.id === NO_HOST) continue;
    let z = zone.get(h.zone);
    if (!z) {
      z = { key: h.zone, label: zoneLabel(h.zone), hosts: [], servers: 0, homed: 0, risks: noRisk() };
      zone.set(h.zone, z);
      zones.push(z);
    }
    z.hosts.push(h.id);
    z.servers += h.servers.length;
    z.homed += h.homed.length;
    addRisk(z.risks, h.risks);
  }
  return { hosts, host, zones, zone, homeOf, unattached, serverRisk, hasVolumes, holders, volumesOf };
}

/** What is open. Sets are never mutated: every change makes a new Expansion. */
export interface Expansion {
  /** Hosts are grouped into zones (when there are too many to list). */
  groupZones: boolean;
  /** Zones showing every host. */
  zones: ReadonlySet<string>;
  /** Hosts showing their servers that hold volumes. */
  hosts: ReadonlySet<string>;
  /** Expanded hosts also showing their servers without volumes. */
  unfolded: ReadonlySet<string>;
  /** Server and volume node ids drawn whatever is folded (a found item, a volume and its holders). */
  pinned: ReadonlySet<string>;
  /** The volumes with no attachment, one by one instead of as one group. */
  unattachedShown: boolean;
}

export const collapsedAll = (groupZones = false): Expansion => ({
  groupZones,
  zones: new Set(),
  hosts: new Set(),
  unfolded: new Set(),
  pinned: new Set(),
  unattachedShown: false,
});

export type FoldMode = 'collapsed' | 'partial' | 'expanded';

export interface FoldItem {
  kind: 'fold';
  id: string;
  /** The zone or host node it belongs to. */
  owner: string;
  /** Hosts folded away (zone folds) and servers folded away (both). */
  hosts: string[];
  servers: string[];
  /** Of the folded servers, how many hold volumes. */
  withVolumes: number;
  risks: RiskCount;
}

export interface HostItem {
  kind: 'host';
  id: string;
  host: HostSummary;
  mode: FoldMode;
  /** Servers drawn one by one, in order. */
  servers: string[];
  /** The servers not drawn, counted (any mode but collapsed). */
  hidden: FoldItem | null;
  /**
   * The chip drawing them, in an expanded host. A partial host (one showing only pinned servers)
   * is one compact row and stands for its other servers itself.
   */
  fold: FoldItem | null;
}

export interface ZoneItem {
  kind: 'zone';
  id: string;
  zone: ZoneSummary;
  mode: FoldMode;
  hosts: HostItem[];
  fold: FoldItem | null;
}

export type LeftItem = ZoneItem | HostItem;

export interface VolumeItem {
  kind: 'volume';
  id: string;
  volumeId: string;
}

export interface VolumeGroupItem {
  kind: 'volumes';
  id: string;
  /** The left node the volumes sit beside, or null for the volumes with no attachment. */
  owner: string | null;
  volumeIds: string[];
  /** Volumes with several writers, and with a stuck attachment. */
  risks: RiskCount;
}

export type RightItem = VolumeItem | VolumeGroupItem;

/** One line: a single attachment, or every attachment between two groups merged. */
export interface ViewEdge {
  id: string;
  source: string;
  target: string;
  count: number;
  rw: number;
  stuck: number;
  pending: number;
  /** Read-write attachments onto volumes with several writers. */
  writerRisk: number;
  /** For a single attachment between a drawn server and a drawn volume: its index in topology.edges. */
  edgeIndex: number | null;
}

export interface ViewGraph {
  left: LeftItem[];
  right: RightItem[];
  edges: ViewEdge[];
  /** Server id -> the node that draws it (itself, a fold, a host or a zone). */
  serverNode: Map<string, string>;
  /** Volume id -> the node that draws it (itself or a group). */
  volumeNode: Map<string, string>;
}

export const foldId = (owner: string) => `fold:${owner}`;
export const zoneNodeId = (key: string) => `zone:${key}`;
export const volumeGroupId = (owner: string | null) => `volumes:${owner ?? 'unattached'}`;

function pinnedIn(servers: readonly string[], pinned: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  if (pinned.size === 0) return out;
  for (const s of servers) if (pinned.has(nodeId.server(s))) out.add(s);
  return out;
}

function hostItem(h: HostSummary, s: TopologySummary, e: Expansion): HostItem {
  const id = nodeId.host(h.id);
  const pins = pinnedIn(h.servers, e.pinned);
  const mode: FoldMode = e.hosts.has(h.id) ? 'expanded' : pins.size > 0 ? 'partial' : 'collapsed';
  if (mode === 'collapsed') return { kind: 'host', id, host: h, mode, servers: [], hidden: null, fold: null };
  const all = mode === 'expanded' && e.unfolded.has(h.id);
  const shown = h.servers.filter(
    (sv) => pins.has(sv) || (mode === 'expanded' && (all || s.hasVolumes.has(sv))),
  );
  const drawn = new Set(shown);
  const rest = h.servers.filter((sv) => !drawn.has(sv));
  const hidden = rest.length ? fold(id, [], rest, s) : null;
  return {
    kind: 'host',
    id,
    host: h,
    mode,
    servers: shown,
    hidden,
    fold: mode === 'expanded' ? hidden : null,
  };
}

function fold(owner: string, hosts: string[], servers: string[], s: TopologySummary): FoldItem {
  const risks = noRisk();
  let withVolumes = 0;
  for (const sv of servers) {
    if (s.hasVolumes.has(sv)) withVolumes++;
    const r = s.serverRisk.get(sv);
    if (r) addRisk(risks, r);
  }
  return { kind: 'fold', id: foldId(owner), owner, hosts, servers, withVolumes, risks };
}

/**
 * The left column (zones, hosts, servers) and the right one (volumes, groups of volumes) for an
 * expansion, without the lines: cheap enough for the fit rule to try many expansions.
 */
export function viewItems(
  s: TopologySummary,
  e: Expansion,
): Pick<ViewGraph, 'left' | 'right' | 'serverNode' | 'volumeNode'> {
  const left: LeftItem[] = [];
  const serverNode = new Map<string, string>();
  /** Host id -> the node its volumes are grouped under, or null when the host is expanded. */
  const volumeOwner = new Map<string, string | null>();

  const placeHost = (item: HostItem) => {
    const shown = new Set(item.servers);
    for (const sv of item.host.servers) {
      serverNode.set(sv, shown.has(sv) ? nodeId.server(sv) : (item.fold?.id ?? item.id));
    }
    volumeOwner.set(item.host.id, item.mode === 'expanded' ? null : item.id);
  };

  if (e.groupZones) {
    for (const z of s.zones) {
      const id = zoneNodeId(z.key);
      const hostsIn = z.hosts.map((h) => s.host.get(h)).filter((h): h is HostSummary => h !== undefined);
      const pinnedHosts = hostsIn.filter((h) => pinnedIn(h.servers, e.pinned).size > 0);
      const mode: FoldMode = e.zones.has(z.key) ? 'expanded' : pinnedHosts.length ? 'partial' : 'collapsed';
      if (mode === 'collapsed') {
        for (const h of hostsIn) {
          for (const sv of h.servers) serverNode.set(sv, id);
          volumeOwner.set(h.id, id);
        }
        left.push({ kind: 'zone', id, zone: z, mode, hosts: [], fold: null });
        continue;
      }
      const shownHosts = mode === 'expanded' ? hostsIn : pinnedHosts;
      const hidden = hostsIn.filter((h) => !shownHosts.includes(h));
      const items = shownHosts.map((h) => hostItem(h, s, e));
      items.forEach(placeHost);
      // A zone narrowed to a few hosts (a found server, a volume's holders) keeps the volumes of
      // those hosts in one group of its own: one group per host would crowd the volume column.
      if (mode === 'partial') {
        for (const h of items) if (h.mode !== 'expanded') volumeOwner.set(h.host.id, id);
      }
      const zoneFold = hidden.length
        ? fold(
            id,
            hidden.map((h) => h.id),
            hidden.flatMap((h) => h.servers),
            s,
          )
        : null;
      for (const h of hidden) {
        for (const sv of h.servers) serverNode.set(sv, zoneFold?.id ?? id);
        volumeOwner.set(h.id, id);
      }
      left.push({ kind: 'zone', id, zone: z, mode, hosts: items, fold: zoneFold });
    }
    const unplaced = s.host.get(NO_HOST);
    if (unplaced) {
      const item = hostItem(unplaced, s, e);
      placeHost(item);
      left.push(item);
    }
  } else {
    for (const h of s.hosts) {
      const item = hostItem(h, s, e);
      placeHost(item);
      left.push(item);
    }
  }

  // Volumes: one by one beside an expanded host (or when pinned), else one group per left node.
  const right: RightItem[] = [];
  const volumeNode = new Map<string, string>();
  const groups = new Map<string, VolumeGroupItem>();
  for (const h of s.hosts) {
    const owner = volumeOwner.get(h.id);
    for (const v of h.homed) {
      if (owner === null || owner === undefined || e.pinned.has(nodeId.volume(v))) {
        const id = nodeId.volume(v);
        right.push({ kind: 'volume', id, volumeId: v });
        volumeNode.set(v, id);
        continue;
      }
      const gid = volumeGroupId(owner);
      let g = groups.get(gid);
      if (!g) {
        g = { kind: 'volumes', id: gid, owner, volumeIds: [], risks: noRisk() };
        groups.set(gid, g);
        right.push(g);
      }
      g.volumeIds.push(v);
      volumeNode.set(v, gid);
    }
  }
  if (s.unattached.length) {
    const shown = e.unattachedShown
      ? s.unattached
      : s.unattached.filter((v) => e.pinned.has(nodeId.volume(v)));
    for (const v of shown) {
      right.push({ kind: 'volume', id: nodeId.volume(v), volumeId: v });
      volumeNode.set(v, nodeId.volume(v));
    }
    const rest = s.unattached.filter((v) => !volumeNode.has(v));
    if (rest.length) {
      const g: VolumeGroupItem = {
        kind: 'volumes',
        id: volumeGroupId(null),
        owner: null,
        volumeIds: rest,
        risks: noRisk(),
      };
      right.push(g);
      for (const v of rest) volumeNode.set(v, g.id);
    }
  }
  return { left, right, serverNode, volumeNode };
}

/** viewItems plus the lines, each attachment on the line between the two nodes that draw its ends. */
export function buildView(t: Topology, index: TopologyIndex, s: TopologySummary, e: Expansion): ViewGraph {
  const items = viewItems(s, e);
  const edges = new Map<string, ViewEdge>();
  t.edges.forEach((edge, i) => {
    const source = items.serverNode.get(edge.serverId);
    const target = items.volumeNode.get(edge.volumeId);
    if (!source || !target) return;
    const key = `${source}\u0000${target}`;
    let v = edges.get(key);
    if (!v) {
      v = {
        id: `e:${edges.size}`,
        source,
        target,
        count: 0,
        rw: 0,
        stuck: 0,
        pending: 0,
        writerRisk: 0,
        edgeIndex: i,
      };
      edges.set(key, v);
    }
    v.count++;
    if (edge.mode === 'rw') {
      v.rw++;
      if (index.multipleWriters.has(edge.volumeId)) v.writerRisk++;
    }
    if (index.stuckVolumes.has(edge.volumeId) && index.stuck.has(edgeKey(edge.serverId, edge.volumeId)))
      v.stuck++;
    else if (isPending(edge.state)) v.pending++;
  });
  const out = [...edges.values()];
  for (const v of out) {
    const single = v.count === 1 && v.source.startsWith('server:') && v.target.startsWith('volume:');
    if (!single) v.edgeIndex = null;
  }
  // Group risks: volumes with several writers, and with a stuck attachment.
  for (const r of items.right) {
    if (r.kind !== 'volumes') continue;
    for (const v of r.volumeIds) {
      if (index.multipleWriters.has(v)) r.risks.writers++;
      if (index.stuckVolumes.has(v)) r.risks.stuck++;
    }
  }
  return { ...items, edges: out };
}

/** Every node id drawn, in the order React Flow needs (parents before children). */
export function drawnIds(v: Pick<ViewGraph, 'left' | 'right'>): string[] {
  const out: string[] = [];
  const host = (h: HostItem) => {
    out.push(h.id);
    for (const s of h.servers) out.push(nodeId.server(s));
    if (h.fold) out.push(h.fold.id);
  };
  for (const item of v.left) {
    if (item.kind === 'host') host(item);
    else {
      out.push(item.id);
      item.hosts.forEach(host);
      if (item.fold) out.push(item.fold.id);
    }
  }
  for (const r of v.right) out.push(r.id);
  return out;
}
