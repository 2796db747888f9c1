import type { AttachMode, Topology } from '@sv/shared';
import { type Edge, type Node, Position } from '@xyflow/react';
import type { PlacedNode, ViewLayout } from '../layout/view-layout';
import { hostLabel, modeLabel, NO_HOST, type TopologyIndex } from './topology-model';
import {
  type FoldItem,
  type FoldMode,
  type HostItem,
  type RiskCount,
  type TopologySummary,
  type ViewEdge,
  type ViewGraph,
  type VolumeGroupItem,
  type ZoneItem,
  zoneLabel,
} from './view-model';

/** Flags the graph both draws and says in words; `matches`/`active` are set by emphasise(). */
type Marks = {
  /** How many search matches this node draws (itself, or inside it when folded). */
  matches: number;
  active: boolean;
};

export type HostFlag = {
  label: string;
  title: string;
};

export type ZoneNodeData = Marks & {
  label: string;
  mode: FoldMode;
  hosts: number;
  servers: number;
  volumes: number;
  risks: RiskCount;
};
export type HostNodeData = Marks & {
  hostId: string;
  name: string;
  zone: string | null;
  mode: FoldMode;
  serverCount: number;
  withVolumes: number;
  shown: number;
  /** Servers not drawn one by one: in a partial host, the host box stands for them. */
  hidden: number;
  hiddenRisks: RiskCount;
  risks: RiskCount;
  flags: HostFlag[];
};
export type ServerNodeData = Marks & {
  serverId: string;
  name: string;
  status: string;
  volumeCount: number;
  stuck: boolean;
  writer: boolean;
};
export type FoldNodeData = Marks & {
  /** The zone or host node it belongs to, and that node's name. */
  owner: string;
  ownerName: string;
  /** What clicking it does: open the owner, or show the servers without volumes too. */
  opens: 'zone' | 'host' | 'unfold';
  hosts: number;
  servers: number;
  withVolumes: number;
  risks: RiskCount;
};
export type VolumeNodeData = Marks & {
  volumeId: string;
  name: string;
  status: string;
  shared: boolean;
  rw: number;
  ro: number;
  multipleWriters: boolean;
  stuck: boolean;
};
export type VolumeGroupNodeData = Marks & {
  owner: string | null;
  ownerName: string;
  count: number;
  risks: RiskCount;
};
export type AttachmentEdgeData = {
  /** The mode of every attachment on the line, or 'mixed'. */
  mode: AttachMode | 'mixed';
  /** A single attachment's state; null on a merged line. */
  state: string | null;
  count: number;
  /** Attachments on the line stuck in a transitional state (BFF's limit), or still in one. */
  stuck: number;
  pending: number;
  /** Read-write attachments onto volumes with several writers. */
  writerRisk: number;
  /** Drawn light because the graph has thousands of lines; hovering a node brings its own back. */
  faint: boolean;
  active: boolean;
  /**
   * Where the line starts: the right border of the host column, at its server's height. Lines from
   * servers deep in a host's grid would otherwise bend through the gaps between the boxes below.
   */
  fromX: number;
};

export type ZoneNode = Node<ZoneNodeData, 'zone'>;
export type HostNode = Node<HostNodeData, 'host'>;
export type ServerNode = Node<ServerNodeData, 'server'>;
export type FoldNode = Node<FoldNodeData, 'fold'>;
export type VolumeNode = Node<VolumeNodeData, 'volume'>;
export type VolumeGroupNode = Node<VolumeGroupNodeData, 'volumes'>;
export type TopologyNode = ZoneNode | HostNode | ServerNode | FoldNode | VolumeNode | VolumeGroupNode;
export type AttachmentEdge = Edge<AttachmentEdgeData, 'attachment'>;

export interface FlowElements {
  nodes: TopologyNode[];
  edges: AttachmentEdge[];
  /** Node id -> indexes into `edges` of the lines it takes part in (a box's include its children's). */
  edgesOf: Map<string, number[]>;
}

const HANDLE = 6;
const sourceHandle = (p: PlacedNode) => [
  {
    type: 'source' as const,
    position: Position.Right,
    x: p.w - HANDLE / 2,
    y: p.h / 2 - HANDLE / 2,
    width: HANDLE,
    height: HANDLE,
  },
];
const targetHandle = (p: PlacedNode) => [
  {
    type: 'target' as const,
    position: Position.Left,
    x: -HANDLE / 2,
    y: p.h / 2 - HANDLE / 2,
    width: HANDLE,
    height: HANDLE,
  },
];

function hostFlags(index: TopologyIndex, hostId: string): HostFlag[] {
  const h = index.hosts.get(hostId);
  if (!h) return [];
  const flags: HostFlag[] = [];
  if (h.state === 'down')
    flags.push({ label: 'down', title: 'The nova-compute service on this host is down.' });
  if (h.status === 'disabled') flags.push({ label: 'disabled', title: 'The compute service is disabled.' });
  if (h.supportsMultiattach === false) {
    flags.push({
      label: 'no sharing',
      title: "This host's driver cannot attach a volume to several servers.",
    });
  }
  if (h.supportsAttachModes === false) {
    flags.push({ label: 'no read-only', title: 'This host is too old for per-attachment read-only mode.' });
  }
  return flags;
}

const unmarked: Marks = { matches: 0, active: false };
const n = (x: number) => x.toLocaleString('en');
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

/** "3 servers write to a volume with several writers, 2 stuck attachments", or ''. */
export function riskWords(r: RiskCount, what: 'servers' | 'volumes' = 'servers'): string {
  const parts: string[] = [];
  if (what === 'servers') {
    if (r.writers) parts.push(`${plural(r.writers, 'server')} writing to a volume with several writers`);
    if (r.stuck) parts.push(plural(r.stuck, 'stuck attachment'));
  } else {
    if (r.writers) parts.push(`${plural(r.writers, 'volume')} with several writers`);
    if (r.stuck) parts.push(`${plural(r.stuck, 'volume')} with a stuck attachment`);
  }
  return parts.join(', ');
}

const withRisk = (text: string, r: RiskCount, what?: 'servers' | 'volumes') => {
  const w = riskWords(r, what);
  return w ? `${text}; risks: ${w}` : text;
};

/** Above this many lines, ordinary ones are drawn light so nodes and risks stay readable. */
export const FAINT_EDGES_ABOVE = 1500;

/** React Flow nodes and edges for a view laid out by layoutView. */
export function buildFlowElements(
  t: Topology,
  index: TopologyIndex,
  summary: TopologySummary,
  view: ViewGraph,
  layout: ViewLayout,
): FlowElements {
  const nodes: TopologyNode[] = [];
  const zones = new Map<string, ZoneItem>();
  const hosts = new Map<string, HostItem>();
  const folds = new Map<string, { fold: FoldItem; opens: FoldNodeData['opens']; ownerName: string }>();
  for (const item of view.left) {
    const hostOf = (h: HostItem) => {
      hosts.set(h.id, h);
      if (h.fold) {
        folds.set(h.fold.id, {
          fold: h.fold,
          opens: h.mode === 'expanded' ? 'unfold' : 'host',
          ownerName: hostLabel(index, h.host.id),
        });
      }
    };
    if (item.kind === 'host') hostOf(item);
    else {
      zones.set(item.id, item);
      item.hosts.forEach(hostOf);
      if (item.fold) folds.set(item.fold.id, { fold: item.fold, opens: 'zone', ownerName: item.zone.label });
    }
  }
  const groups = new Map<string, VolumeGroupItem>();
  for (const r of view.right) if (r.kind === 'volumes') groups.set(r.id, r);
  const nameOfNode = (id: string | null): string => {
    if (id === null) return '';
    const z = zones.get(id);
    if (z) return z.zone.label.replace(/^Zone/, 'zone');
    const h = hosts.get(id);
    if (h) return hostLabel(index, h.host.id);
    const f = folds.get(id);
    if (f) return `other hosts of ${f.ownerName.replace(/^Zone/, 'zone')}`;
    return id;
  };

  for (const p of layout.nodes) {
    const base = {
      id: p.id,
      position: { x: p.x, y: p.y },
      width: p.w,
      height: p.h,
      // Sizes are known up front, so nodes count as measured: fitting and lines need no DOM pass
      // over nodes that onlyRenderVisibleElements never renders.
      measured: { width: p.w, height: p.h },
      ...(p.parent ? { parentId: p.parent } : {}),
    };
    const z = zones.get(p.id);
    if (z) {
      const label = zoneLabel(z.zone.key);
      const volumes = z.zone.homed;
      const what = `${label}: ${plural(z.zone.hosts.length, 'host')}, ${plural(z.zone.servers, 'server')}, ${plural(volumes, 'volume')} beside it`;
      nodes.push({
        ...base,
        type: 'zone',
        ...(z.mode === 'collapsed' ? { handles: sourceHandle(p) } : {}),
        ariaLabel: `${withRisk(what, z.zone.risks)}. ${z.mode === 'expanded' ? 'Open: press Enter to fold it.' : 'Folded: press Enter to show its hosts.'}`,
        data: {
          label,
          mode: z.mode,
          hosts: z.zone.hosts.length,
          servers: z.zone.servers,
          volumes,
          risks: z.zone.risks,
          ...unmarked,
        },
      });
      continue;
    }
    const h = hosts.get(p.id);
    if (h) {
      const name = hostLabel(index, h.host.id);
      const zone = index.hosts.get(h.host.id)?.zone ?? null;
      const flags = hostFlags(index, h.host.id);
      const count = h.host.servers.length;
      const what = `Host ${name}${zone ? `, zone ${zone}` : ''}, ${plural(count, 'server')} (${n(h.host.withVolumes)} with volumes)${flags.length ? `, ${flags.map((f) => f.label).join(', ')}` : ''}`;
      const how =
        h.mode === 'collapsed'
          ? 'Folded: press Enter to show its servers.'
          : h.mode === 'partial'
            ? `${n(h.servers.length)} shown. Press Enter to show the others.`
            : `${n(h.servers.length)} shown. Press Enter to fold it.`;
      nodes.push({
        ...base,
        type: 'host',
        ...(h.mode !== 'expanded' ? { handles: sourceHandle(p) } : {}),
        ariaLabel: `${withRisk(what, h.host.risks)}. ${how}`,
        data: {
          hostId: h.host.id,
          name,
          zone,
          mode: h.mode,
          serverCount: count,
          withVolumes: h.host.withVolumes,
          shown: h.servers.length,
          hidden: h.hidden?.servers.length ?? 0,
          hiddenRisks: h.hidden?.risks ?? { writers: 0, stuck: 0 },
          risks: h.host.risks,
          flags,
          ...unmarked,
        },
      });
      continue;
    }
    const f = folds.get(p.id);
    if (f) {
      const { fold, opens, ownerName } = f;
      const what =
        fold.hosts.length > 0
          ? `${plural(fold.hosts.length, 'more host')} in ${ownerName.replace(/^Zone/, 'zone')}, with ${plural(fold.servers.length, 'server')}`
          : `${plural(fold.servers.length, 'more server')} on ${ownerName}, ${fold.withVolumes ? `${n(fold.withVolumes)} with volumes` : 'none with volumes'}`;
      nodes.push({
        ...base,
        type: 'fold',
        handles: sourceHandle(p),
        ariaLabel: `${withRisk(what, fold.risks)}. Press Enter to show them.`,
        data: {
          owner: fold.owner,
          ownerName,
          opens,
          hosts: fold.hosts.length,
          servers: fold.servers.length,
          withVolumes: fold.withVolumes,
          risks: fold.risks,
          ...unmarked,
        },
      });
      continue;
    }
    const g = groups.get(p.id);
    if (g) {
      const ownerName = nameOfNode(g.owner);
      const what =
        g.owner === null
          ? `${plural(g.volumeIds.length, 'volume')} with no attachment`
          : `${plural(g.volumeIds.length, 'volume')} beside ${ownerName}`;
      nodes.push({
        ...base,
        type: 'volumes',
        handles: targetHandle(p),
        ariaLabel: `${withRisk(what, g.risks, 'volumes')}. Press Enter to show them.`,
        data: { owner: g.owner, ownerName, count: g.volumeIds.length, risks: g.risks, ...unmarked },
      });
      continue;
    }
    if (p.id.startsWith('server:')) {
      const s = index.servers.get(p.id.slice(7));
      if (!s) continue;
      const stuck = index.stuckServers.has(s.id);
      const count = summary.volumesOf.get(s.id)?.length ?? 0;
      const writer = (summary.serverRisk.get(s.id)?.writers ?? 0) > 0;
      nodes.push({
        ...base,
        type: 'server',
        handles: sourceHandle(p),
        ariaLabel: `Server ${s.name}, ${s.status}, on ${hostLabel(index, index.hostOf.get(s.id) ?? NO_HOST)}, ${plural(count, 'volume')}${stuck ? ', has a stuck attachment' : ''}${writer ? ', writes to a volume with several writers' : ''}. Press Enter to open.`,
        data: {
          serverId: s.id,
          name: s.name,
          status: s.status,
          volumeCount: count,
          stuck,
          writer,
          ...unmarked,
        },
      });
      continue;
    }
    if (p.id.startsWith('volume:')) {
      const v = index.volumes.get(p.id.slice(7));
      if (!v) continue;
      const multipleWriters = index.multipleWriters.has(v.id);
      const stuck = index.stuckVolumes.has(v.id);
      nodes.push({
        ...base,
        type: 'volume',
        handles: targetHandle(p),
        ariaLabel: `Volume ${v.name || v.id}, ${v.status}${v.shared ? ', shared' : ''}, ${v.rw} read-write and ${v.ro} read-only attachment${v.rw + v.ro === 1 ? '' : 's'}${multipleWriters ? ', warning: several writers' : ''}${stuck ? ', has a stuck attachment' : ''}. Press Enter to open.`,
        data: {
          volumeId: v.id,
          name: v.name,
          status: v.status,
          shared: v.shared,
          rw: v.rw,
          ro: v.ro,
          multipleWriters,
          stuck,
          ...unmarked,
        },
      });
    }
  }

  const label = (id: string) => {
    if (id.startsWith('server:')) return index.servers.get(id.slice(7))?.name ?? id;
    if (id.startsWith('volume:')) {
      const v = index.volumes.get(id.slice(7));
      return v?.name || id.slice(7);
    }
    const g = groups.get(id);
    if (g) return `${plural(g.volumeIds.length, 'volume')} beside ${nameOfNode(g.owner)}`;
    const f = folds.get(id);
    if (f) return f.fold.hosts.length ? nameOfNode(id) : `the other servers of ${f.ownerName}`;
    return nameOfNode(id);
  };
  const faint = view.edges.length > FAINT_EDGES_ABOVE;
  const edges: AttachmentEdge[] = view.edges.map((e) => toEdge(t, e, label, faint, layout.leftWidth));

  // A box's emphasis covers every line of what it holds.
  const parentOf = new Map(layout.nodes.map((p) => [p.id, p.parent]));
  const edgesOf = new Map<string, number[]>();
  const link = (node: string, i: number) => {
    const list = edgesOf.get(node);
    if (list) list.push(i);
    else edgesOf.set(node, [i]);
  };
  edges.forEach((e, i) => {
    link(e.target, i);
    for (let id: string | null | undefined = e.source; id; id = parentOf.get(id)) link(id, i);
  });
  return { nodes, edges, edgesOf };
}

function toEdge(
  t: Topology,
  e: ViewEdge,
  label: (id: string) => string,
  faint: boolean,
  fromX: number,
): AttachmentEdge {
  const single = e.edgeIndex === null ? null : t.edges[e.edgeIndex];
  const mode: AttachmentEdgeData['mode'] = e.rw === e.count ? 'rw' : e.rw === 0 ? 'ro' : 'mixed';
  const kind =
    e.count > 1 ? ' sv-edge-merged' : e.stuck ? ' sv-edge-stuck' : e.pending ? ' sv-edge-pending' : '';
  let ariaLabel: string;
  if (single) {
    ariaLabel = `${label(e.source)} to ${label(e.target)}, ${modeLabel(single.mode)}, ${single.state}${e.stuck ? ', stuck' : ''}`;
  } else {
    const parts = [`${n(e.rw)} read-write`, `${n(e.count - e.rw)} read-only`];
    if (e.stuck) parts.push(`${n(e.stuck)} stuck`);
    else if (e.pending) parts.push(`${n(e.pending)} attaching or detaching`);
    ariaLabel = `${label(e.source)} to ${label(e.target)}: ${plural(e.count, 'attachment')} (${parts.join(', ')})`;
  }
  return {
    id: e.id,
    type: 'attachment',
    source: e.source,
    target: e.target,
    className: `sv-edge sv-edge-${mode}${kind}`,
    ariaLabel,
    data: {
      mode,
      state: single?.state ?? null,
      count: e.count,
      stuck: e.stuck,
      pending: e.pending,
      writerRisk: e.writerRisk,
      faint,
      active: false,
      fromX,
    },
  };
}

/**
 * Marks search matches and the focused node's lines. Only the elements whose marks change get new
 * objects, so React Flow re-renders those and skips the rest.
 */
export function emphasise(
  base: FlowElements,
  matches: ReadonlyMap<string, number>,
  focus: string | null,
): Pick<FlowElements, 'nodes' | 'edges'> {
  const activeEdges = new Set(focus ? (base.edgesOf.get(focus) ?? []) : []);
  const activeNodes = new Set<string>();
  if (focus) activeNodes.add(focus);
  for (const i of activeEdges) {
    const e = base.edges[i];
    if (e) {
      activeNodes.add(e.source);
      activeNodes.add(e.target);
    }
  }
  if (matches.size === 0 && activeNodes.size === 0) return base;
  const nodes = base.nodes.map((node) => {
    const m = matches.get(node.id) ?? 0;
    const a = activeNodes.has(node.id);
    if (!m && !a) return node;
    return { ...node, data: { ...node.data, matches: m, active: a } } as TopologyNode;
  });
  const edges = activeEdges.size
    ? base.edges.map((e, i) =>
        activeEdges.has(i) && e.data ? { ...e, data: { ...e.data, active: true } } : e,
      )
    : base.edges;
  return { nodes, edges };
}
