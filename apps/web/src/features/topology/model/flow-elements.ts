import type { AttachMode, Topology } from '@sv/shared';
import { type Edge, type Node, Position } from '@xyflow/react';
import { SERVER_H, SERVER_W, VOLUME_H, VOLUME_W } from '../layout/dimensions';
import type { LayoutResult } from '../layout/layout-types';
import { edgeKey, hostLabel, isPending, modeLabel, nodeId, type TopologyIndex } from './topology-model';

/** Flags the graph both draws and says in words; `matched`/`active` are set by emphasise(). */
type Marks = {
  matched: boolean;
  active: boolean;
};

export type HostFlag = {
  label: string;
  title: string;
};

export type HostNodeData = Marks & {
  hostId: string;
  name: string;
  zone: string | null;
  serverCount: number;
  /** Servers with a stuck attachment, for the zoomed-out view where servers are not drawn. */
  stuckServers: number;
  flags: HostFlag[];
};
export type ServerNodeData = Marks & {
  serverId: string;
  name: string;
  status: string;
  volumeCount: number;
  stuck: boolean;
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
export type AttachmentEdgeData = {
  mode: AttachMode;
  state: string;
  /** Reserved/attaching/detaching for longer than the BFF's limit. */
  stuck: boolean;
  /** In a transitional state, not (yet) stuck. */
  pending: boolean;
  /** Read-write onto a volume that has other writers. */
  writerRisk: boolean;
  /** Drawn light because the graph has thousands of lines; hovering a node brings its own back. */
  faint: boolean;
  active: boolean;
};

export type HostNode = Node<HostNodeData, 'host'>;
export type ServerNode = Node<ServerNodeData, 'server'>;
export type VolumeNode = Node<VolumeNodeData, 'volume'>;
export type TopologyNode = HostNode | ServerNode | VolumeNode;
export type AttachmentEdge = Edge<AttachmentEdgeData, 'attachment'>;

export interface FlowElements {
  nodes: TopologyNode[];
  edges: AttachmentEdge[];
  /** Absolute centre of every node, to pan to it. */
  centres: Map<string, { x: number; y: number }>;
  /** Node id -> indexes into `edges` of the attachments it takes part in. */
  edgesOf: Map<string, number[]>;
}

// Sizes are known up front, so nodes count as measured: fitView and edges need no DOM pass over
// nodes that onlyRenderVisibleElements never renders.
const SERVER_SIZE = { width: SERVER_W, height: SERVER_H };
const VOLUME_SIZE = { width: VOLUME_W, height: VOLUME_H };
const HANDLE = 6;
const serverHandles = [
  {
    type: 'source' as const,
    position: Position.Right,
    x: SERVER_W - HANDLE / 2,
    y: SERVER_H / 2 - HANDLE / 2,
    width: HANDLE,
    height: HANDLE,
  },
];
const volumeHandles = [
  {
    type: 'target' as const,
    position: Position.Left,
    x: -HANDLE / 2,
    y: VOLUME_H / 2 - HANDLE / 2,
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

const unmarked: Marks = { matched: false, active: false };

/** Above this many attachments, ordinary lines are drawn light so nodes and risks stay readable. */
export const FAINT_EDGES_ABOVE = 1500;

/** React Flow nodes and edges for a topology laid out by the worker. */
export function buildFlowElements(t: Topology, index: TopologyIndex, layout: LayoutResult): FlowElements {
  const nodes: TopologyNode[] = [];
  const centres = new Map<string, { x: number; y: number }>();
  const hostBox = new Map(layout.hosts.map((h) => [h.id, h]));
  const volumeCount = new Map<string, number>();
  for (const e of t.edges) volumeCount.set(e.serverId, (volumeCount.get(e.serverId) ?? 0) + 1);
  const serversIn = new Map<string, number>();
  const stuckIn = new Map<string, number>();
  for (const s of layout.servers) {
    serversIn.set(s.host, (serversIn.get(s.host) ?? 0) + 1);
    if (index.stuckServers.has(s.id)) stuckIn.set(s.host, (stuckIn.get(s.host) ?? 0) + 1);
  }

  // Parents before children, as React Flow requires.
  for (const box of layout.hosts) {
    const name = hostLabel(index, box.id);
    const host = index.hosts.get(box.id);
    const serverCount = serversIn.get(box.id) ?? 0;
    const id = nodeId.host(box.id);
    const flags = hostFlags(index, box.id);
    nodes.push({
      id,
      type: 'host',
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      measured: { width: box.width, height: box.height },
      ariaLabel: `Host ${name}${host?.zone ? `, zone ${host.zone}` : ''}, ${serverCount} server${serverCount === 1 ? '' : 's'}${flags.length ? `, ${flags.map((f) => f.label).join(', ')}` : ''}`,
      data: {
        hostId: box.id,
        name,
        zone: host?.zone ?? null,
        serverCount,
        stuckServers: stuckIn.get(box.id) ?? 0,
        flags,
        ...unmarked,
      },
    });
    centres.set(id, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  }
  for (const p of layout.servers) {
    const s = index.servers.get(p.id);
    const box = hostBox.get(p.host);
    if (!s || !box) continue;
    const id = nodeId.server(s.id);
    const stuck = index.stuckServers.has(s.id);
    const count = volumeCount.get(s.id) ?? 0;
    nodes.push({
      id,
      type: 'server',
      parentId: nodeId.host(p.host),
      position: { x: p.x, y: p.y },
      width: SERVER_W,
      height: SERVER_H,
      measured: SERVER_SIZE,
      handles: serverHandles,
      ariaLabel: `Server ${s.name}, ${s.status}, on ${hostLabel(index, p.host)}, ${count} volume${count === 1 ? '' : 's'}${stuck ? ', has a stuck attachment' : ''}. Press Enter to open.`,
      data: { serverId: s.id, name: s.name, status: s.status, volumeCount: count, stuck, ...unmarked },
    });
    centres.set(id, { x: box.x + p.x + SERVER_W / 2, y: box.y + p.y + SERVER_H / 2 });
  }
  for (const p of layout.volumes) {
    const v = index.volumes.get(p.id);
    if (!v) continue;
    const id = nodeId.volume(v.id);
    const multipleWriters = index.multipleWriters.has(v.id);
    const stuck = index.stuckVolumes.has(v.id);
    nodes.push({
      id,
      type: 'volume',
      position: { x: p.x, y: p.y },
      width: VOLUME_W,
      height: VOLUME_H,
      measured: VOLUME_SIZE,
      handles: volumeHandles,
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
    centres.set(id, { x: p.x + VOLUME_W / 2, y: p.y + VOLUME_H / 2 });
  }

  const edges: AttachmentEdge[] = [];
  const edgesOf = new Map<string, number[]>();
  const faint = t.edges.length > FAINT_EDGES_ABOVE;
  const link = (node: string, i: number) => {
    const list = edgesOf.get(node);
    if (list) list.push(i);
    else edgesOf.set(node, [i]);
  };
  t.edges.forEach((e, i) => {
    const source = nodeId.server(e.serverId);
    const target = nodeId.volume(e.volumeId);
    if (!centres.has(source) || !centres.has(target)) return;
    const stuck = index.stuck.has(edgeKey(e.serverId, e.volumeId));
    const pending = !stuck && isPending(e.state);
    const server = index.servers.get(e.serverId)?.name ?? e.serverId;
    const volume = index.volumes.get(e.volumeId)?.name || e.volumeId;
    const at = edges.length;
    edges.push({
      id: `att:${i}`,
      type: 'attachment',
      source,
      target,
      className: `sv-edge sv-edge-${e.mode}${stuck ? ' sv-edge-stuck' : pending ? ' sv-edge-pending' : ''}`,
      ariaLabel: `${server} to ${volume}, ${modeLabel(e.mode)}, ${e.state}${stuck ? ', stuck' : ''}`,
      data: {
        mode: e.mode,
        state: e.state,
        stuck,
        pending,
        writerRisk: e.mode === 'rw' && index.multipleWriters.has(e.volumeId),
        faint,
        active: false,
      },
    });
    link(source, at);
    link(target, at);
  });
  // A host's emphasis covers every attachment of its servers.
  for (const p of layout.servers) {
    for (const i of edgesOf.get(nodeId.server(p.id)) ?? []) link(nodeId.host(p.host), i);
  }
  return { nodes, edges, centres, edgesOf };
}

/**
 * Marks search matches and the focused node's attachments. Only the elements whose marks change
 * get new objects, so React Flow re-renders those and skips the rest (20,000 edges stay cheap).
 */
export function emphasise(
  base: FlowElements,
  matched: ReadonlySet<string>,
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
  if (matched.size === 0 && activeNodes.size === 0) return base;
  const nodes = base.nodes.map((n) => {
    const m = matched.has(n.id);
    const a = activeNodes.has(n.id);
    if (!m && !a) return n;
    return { ...n, data: { ...n.data, matched: m, active: a } } as TopologyNode;
  });
  const edges = activeEdges.size
    ? base.edges.map((e, i) =>
        activeEdges.has(i) && e.data ? { ...e, data: { ...e.data, active: true } } : e,
      )
    : base.edges;
  return { nodes, edges };
}
