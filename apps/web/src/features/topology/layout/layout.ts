import type { ElkNode } from 'elkjs/lib/elk-api';
import {
  COLUMN_GAP,
  HOST_EMPTY_H,
  HOST_GAP,
  HOST_HEADER_H,
  HOST_PAD,
  MAX_SERVER_COLUMNS,
  SERVER_GAP_X,
  SERVER_GAP_Y,
  SERVER_H,
  SERVER_W,
  SERVERS_PER_COLUMN,
  VOLUME_GAP,
  VOLUME_H,
  VOLUME_W,
} from './dimensions';
import type { Box, LayoutInput, LayoutResult } from './layout-types';

/** The part of elkjs the layout uses, so tests can pass the real bundled ELK and the worker its own. */
export interface ElkLike {
  layout(graph: ElkNode): Promise<ElkNode>;
}

/**
 * elk lays out the host-volume graph (see toElkGraph), whose cost grows with its edges: measured in
 * Node on a 2-core box, 0.2 s at 53 nodes / 150 edges, 0.4 s at 105 / 497, 1.3 s at 210 / 1,817,
 * 3.4 s at 420 / 5,643 (docs/benchmarks.md). Past about a second the sweeps alone (milliseconds at
 * any size, and within 1% of elk's crossings there) are the better deal.
 */
export const ELK_MAX_NODES = 400;
export const ELK_MAX_EDGES = 1500;

/** Nodes (hosts and volumes) and edges (host-volume pairs) of the graph elk would lay out. */
export function elkSize(input: LayoutInput): { nodes: number; edges: number } {
  return { nodes: input.hosts.length + input.volumes.length, edges: hostVolumePairs(input).length };
}

export function shouldUseElk(input: LayoutInput): boolean {
  const size = elkSize(input);
  return size.nodes <= ELK_MAX_NODES && size.edges <= ELK_MAX_EDGES;
}

/** Hosts, then servers, then volumes, the order every layout starts from. */
export interface Order {
  hosts: string[];
  serversByHost: Map<string, string[]>;
  volumes: string[];
}

const byName = <T extends { id: string; name: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** The starting order: hosts as given, servers and volumes by name. */
export function initialOrder(input: LayoutInput): Order {
  const serversByHost = new Map<string, string[]>(input.hosts.map((h) => [h.id, []]));
  for (const s of [...input.servers].sort(byName)) {
    const list = serversByHost.get(s.host);
    if (list) list.push(s.id);
    else serversByHost.set(s.host, [s.id]);
  }
  return {
    hosts: [...serversByHost.keys()],
    serversByHost,
    volumes: [...input.volumes].sort(byName).map((v) => v.id),
  };
}

const serverColumns = (n: number) =>
  Math.min(MAX_SERVER_COLUMNS, Math.max(1, Math.ceil(n / SERVERS_PER_COLUMN)));

interface Placed {
  hosts: Box[];
  servers: LayoutResult['servers'];
  /** Absolute centre y of every server, for the volumes' barycentres. */
  serverY: Map<string, number>;
  volumes: LayoutResult['volumes'];
  volumeY: Map<string, number>;
  width: number;
  height: number;
}

/** Host boxes stacked in one column, their servers in a grid inside, row by row. */
function placeHosts(order: Order): Pick<Placed, 'hosts' | 'servers' | 'serverY'> & { width: number } {
  const hosts: Box[] = [];
  const servers: LayoutResult['servers'] = [];
  const serverY = new Map<string, number>();
  let y = 0;
  let width = 0;
  for (const host of order.hosts) {
    const ids = order.serversByHost.get(host) ?? [];
    const cols = serverColumns(ids.length);
    const rows = Math.ceil(ids.length / cols);
    const w = HOST_PAD * 2 + cols * SERVER_W + (cols - 1) * SERVER_GAP_X;
    const h =
      HOST_HEADER_H + HOST_PAD + (rows === 0 ? HOST_EMPTY_H : rows * SERVER_H + (rows - 1) * SERVER_GAP_Y);
    ids.forEach((id, i) => {
      const sx = HOST_PAD + (i % cols) * (SERVER_W + SERVER_GAP_X);
      const sy = HOST_HEADER_H + Math.floor(i / cols) * (SERVER_H + SERVER_GAP_Y);
      servers.push({ id, host, x: sx, y: sy });
      serverY.set(id, y + sy + SERVER_H / 2);
    });
    hosts.push({ id: host, x: 0, y, width: w, height: h });
    width = Math.max(width, w);
    y += h + HOST_GAP;
  }
  return { hosts, servers, serverY, width };
}

/**
 * Each volume as near the mean height of its servers as the others allow, in the given order, and
 * (when `limit` is given) no lower than it unless they cannot all fit above it.
 */
function placeVolumes(
  volumes: readonly string[],
  x: number,
  serversOf: Map<string, string[]>,
  serverY: Map<string, number>,
  limit?: number,
): Pick<Placed, 'volumes' | 'volumeY'> & { bottom: number } {
  const step = VOLUME_H + VOLUME_GAP;
  const ys: number[] = [];
  let next = 0;
  for (const id of volumes) {
    const target = barycentre(serversOf.get(id), serverY);
    const y = Math.max(next, target === undefined ? next : target - VOLUME_H / 2);
    ys.push(y);
    next = y + step;
  }
  if (limit !== undefined && ys.length > 0) {
    // Pushed past the bottom by crowding: pull the tail back up, then re-space from the top.
    let ceiling = Math.max(limit, ys.length * step) - VOLUME_H;
    for (let i = ys.length - 1; i >= 0; i--) {
      const y = Math.min(ys[i] ?? 0, ceiling);
      ys[i] = y;
      ceiling = y - step;
    }
    let floor = 0;
    for (let i = 0; i < ys.length; i++) {
      const y = Math.max(ys[i] ?? 0, floor);
      ys[i] = y;
      floor = y + step;
    }
  }
  const out: LayoutResult['volumes'] = [];
  const volumeY = new Map<string, number>();
  volumes.forEach((id, i) => {
    const y = ys[i] ?? 0;
    out.push({ id, x, y });
    volumeY.set(id, y + VOLUME_H / 2);
  });
  const last = ys[ys.length - 1];
  return { volumes: out, volumeY, bottom: last === undefined ? 0 : last + step };
}

function barycentre(ids: readonly string[] | undefined, y: Map<string, number>): number | undefined {
  if (!ids || ids.length === 0) return undefined;
  let sum = 0;
  let n = 0;
  for (const id of ids) {
    const v = y.get(id);
    if (v !== undefined) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? undefined : sum / n;
}

/** Stable sort by barycentre; items without one keep their place relative to each other, at the end. */
function sortByBarycentre(ids: readonly string[], neighbours: Map<string, string[]>, y: Map<string, number>) {
  const keyed = ids.map((id, i) => ({ id, i, b: barycentre(neighbours.get(id), y) }));
  keyed.sort((a, b) => {
    if (a.b === undefined || b.b === undefined) {
      return a.b === undefined && b.b === undefined ? a.i - b.i : a.b === undefined ? 1 : -1;
    }
    return a.b - b.b || a.i - b.i;
  });
  return keyed.map((k) => k.id);
}

function adjacency(input: LayoutInput) {
  const volumesOf = new Map<string, string[]>();
  const serversOf = new Map<string, string[]>();
  for (const e of input.edges) {
    const v = volumesOf.get(e.server);
    if (v) v.push(e.volume);
    else volumesOf.set(e.server, [e.volume]);
    const s = serversOf.get(e.volume);
    if (s) s.push(e.server);
    else serversOf.set(e.volume, [e.server]);
  }
  return { volumesOf, serversOf };
}

/** Past this height the columns wrap into bands side by side, so a big cloud is about as wide as tall. */
export const WRAP_HEIGHT = 4000;
const BAND_GAP = 200;
/** Width over height of a wrapped drawing: roughly a screen's. */
const TARGET_ASPECT = 1.6;

/** Cuts the host sequence into `bands` runs of about equal height, keeping the order. */
function bandOf(hosts: readonly Box[], bands: number): number[] {
  const total = hosts.reduce((sum, h) => sum + h.height + HOST_GAP, 0);
  const target = total / bands;
  let acc = 0;
  let band = 0;
  return hosts.map((h) => {
    if (band < bands - 1 && acc > 0 && acc + h.height / 2 > target * (band + 1)) band++;
    acc += h.height + HOST_GAP;
    return band;
  });
}

/**
 * Positions for a given order: each band is a column of host boxes and, to its right, the column of
 * volumes whose servers are mostly in that band; each volume sits as near its servers as it can.
 */
export function place(order: Order, input: LayoutInput): Placed {
  const { serversOf } = adjacency(input);
  const column = placeHosts(order);
  const tall = column.hosts.reduce((m, h) => Math.max(m, h.y + h.height), 0);
  const bandWidth = column.width + COLUMN_GAP + VOLUME_W + BAND_GAP;
  const bands =
    tall <= WRAP_HEIGHT
      ? 1
      : Math.min(column.hosts.length, Math.max(1, Math.round(Math.sqrt((tall * TARGET_ASPECT) / bandWidth))));
  const bandIndex = bandOf(column.hosts, bands);

  // Restack each band from the top, at its own x.
  const hostBand = new Map<string, number>();
  const bandHostWidth = new Array<number>(bands).fill(0);
  column.hosts.forEach((h, i) => {
    const b = bandIndex[i] ?? 0;
    hostBand.set(h.id, b);
    bandHostWidth[b] = Math.max(bandHostWidth[b] ?? 0, h.width);
  });
  const bandX: number[] = [];
  let x = 0;
  for (let b = 0; b < bands; b++) {
    bandX.push(x);
    x += (bandHostWidth[b] ?? 0) + COLUMN_GAP + VOLUME_W + BAND_GAP;
  }
  const nextY = new Array<number>(bands).fill(0);
  const hosts = column.hosts.map((h) => {
    const b = hostBand.get(h.id) ?? 0;
    const y = nextY[b] ?? 0;
    nextY[b] = y + h.height + HOST_GAP;
    return { ...h, x: bandX[b] ?? 0, y };
  });
  const hostAt = new Map(hosts.map((h) => [h.id, h]));
  const serverY = new Map<string, number>();
  const serverBand = new Map<string, number>();
  for (const s of column.servers) {
    const box = hostAt.get(s.host);
    if (!box) continue;
    serverY.set(s.id, box.y + s.y + SERVER_H / 2);
    serverBand.set(s.id, hostBand.get(s.host) ?? 0);
  }

  // A volume goes to the band holding most of its servers, and follows only those.
  const perBand: string[][] = Array.from({ length: bands }, () => []);
  const localServers = new Map<string, string[]>();
  for (const id of order.volumes) {
    const servers = serversOf.get(id) ?? [];
    const count = new Array<number>(bands).fill(0);
    for (const s of servers) {
      const b = serverBand.get(s);
      if (b !== undefined) count[b] = (count[b] ?? 0) + 1;
    }
    // Ties go to the band with the fewest volumes so far, so no band's column overflows.
    let best = 0;
    for (let b = 1; b < bands; b++) {
      const more = (count[b] ?? 0) - (count[best] ?? 0);
      if (more > 0 || (more === 0 && (perBand[b]?.length ?? 0) < (perBand[best]?.length ?? 0))) best = b;
    }
    perBand[best]?.push(id);
    localServers.set(
      id,
      servers.filter((s) => serverBand.get(s) === best),
    );
  }
  const volumes: LayoutResult['volumes'] = [];
  const volumeY = new Map<string, number>();
  let height = Math.max(0, ...nextY.map((y) => y - HOST_GAP));
  perBand.forEach((ids, b) => {
    const vx = (bandX[b] ?? 0) + (bandHostWidth[b] ?? 0) + COLUMN_GAP;
    const bandBottom = (nextY[b] ?? 0) - HOST_GAP;
    const placed = placeVolumes(
      sortByBarycentre(ids, localServers, serverY),
      vx,
      localServers,
      serverY,
      bandBottom,
    );
    volumes.push(...placed.volumes);
    for (const [k, v] of placed.volumeY) volumeY.set(k, v);
    height = Math.max(height, placed.bottom - VOLUME_GAP);
  });
  return {
    hosts,
    servers: column.servers,
    serverY,
    volumes,
    volumeY,
    width: Math.max(0, x - BAND_GAP),
    height: Math.max(0, height),
  };
}

/**
 * Barycentre sweeps (the classic layered-crossing heuristic, without elk): volumes sorted by where
 * their servers sit, then each host's servers by where their volumes sit. Linear in the edges, so it
 * handles 20,000 attachments in milliseconds.
 */
export function refineOrder(order: Order, input: LayoutInput, sweeps = 2): Order {
  const { volumesOf, serversOf } = adjacency(input);
  let current = order;
  for (let i = 0; i < sweeps; i++) {
    const hosts = placeHosts(current);
    const volumes = sortByBarycentre(current.volumes, serversOf, hosts.serverY);
    const vols = placeVolumes(volumes, 0, serversOf, hosts.serverY);
    const serversByHost = new Map<string, string[]>();
    for (const [host, ids] of current.serversByHost) {
      serversByHost.set(host, sortByBarycentre(ids, volumesOf, vols.volumeY));
    }
    const replaced: Order = { hosts: current.hosts, serversByHost, volumes };
    const again = placeHosts(replaced);
    current = { ...replaced, volumes: sortByBarycentre(volumes, serversOf, again.serverY) };
  }
  return current;
}

const ELK_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  // One layered drawing, not components packed side by side: the order is all we read back.
  'elk.separateConnectedComponents': 'false',
  // These keep elk's time in crossing minimisation, the part we use (measured 5-30x faster).
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  'elk.layered.mergeEdges': 'true',
  'elk.spacing.nodeNode': '10',
  'elk.layered.spacing.nodeNodeBetweenLayers': '100',
};

/** Hosts and volumes joined by one edge per (host, volume) pair: what elk orders. */
function hostVolumePairs(input: LayoutInput): [string, string][] {
  const hostOf = new Map(input.servers.map((s) => [s.id, s.host]));
  const pairs = new Map<string, [string, string]>();
  for (const e of input.edges) {
    const host = hostOf.get(e.server);
    if (host !== undefined) pairs.set(`${host}\u0000${e.volume}`, [host, e.volume]);
  }
  return [...pairs.values()];
}

/**
 * The graph elk lays out: two layers, host boxes (sized as drawn) and volumes, one edge per pair.
 * Laying out every server inside its host (elk's hierarchy handling) took 46 s at 500 servers, and
 * elk's order for a flat host -> server -> volume graph drew more crossings once servers were packed
 * back into their hosts than the sweeps alone (measured), so elk orders the hosts and volumes and the
 * sweeps order each host's servers.
 */
export function toElkGraph(input: LayoutInput): ElkNode {
  const hostIds = new Map(input.hosts.map((h, i) => [h.id, `h${i}`]));
  const volumeIds = new Map(input.volumes.map((v, i) => [v.id, `v${i}`]));
  const edges: NonNullable<ElkNode['edges']> = [];
  hostVolumePairs(input).forEach(([host, volume], i) => {
    const h = hostIds.get(host);
    const v = volumeIds.get(volume);
    if (h && v) edges.push({ id: `e${i}`, sources: [h], targets: [v] });
  });
  const box = placeHosts(initialOrder(input));
  const height = new Map(box.hosts.map((h) => [h.id, h.height]));
  return {
    id: 'root',
    layoutOptions: ELK_OPTIONS,
    children: [
      ...input.hosts.map((h, i) => ({ id: `h${i}`, width: SERVER_W, height: height.get(h.id) ?? SERVER_H })),
      ...input.volumes.map((_, i) => ({ id: `v${i}`, width: VOLUME_W, height: VOLUME_H })),
    ],
    edges,
  };
}

/** elk's vertical order of hosts and volumes; servers start by name and are ordered by the sweeps. */
export function orderFromElk(input: LayoutInput, laid: ElkNode): Order {
  const y = new Map((laid.children ?? []).map((c) => [c.id, c.y ?? 0]));
  const at = (prefix: string, i: number) => y.get(`${prefix}${i}`) ?? 0;
  const start = initialOrder(input);
  const hosts = input.hosts.map((h, i) => ({ id: h.id, y: at('h', i), i }));
  hosts.sort((a, b) => a.y - b.y || a.i - b.i);
  const volumes = input.volumes.map((v, i) => ({ id: v.id, y: at('v', i), i }));
  volumes.sort((a, b) => a.y - b.y || a.i - b.i);
  return {
    hosts: hosts.map((h) => h.id),
    serversByHost: new Map(hosts.map((h) => [h.id, start.serversByHost.get(h.id) ?? []])),
    volumes: volumes.map((v) => v.id),
  };
}

/**
 * Edge crossings of an order drawn in one band (one column of hosts, one of volumes): inversions
 * of the volume heights once edges are sorted by server height (merge sort, O(E log E)).
 */
export function countCrossings(order: Order, input: LayoutInput): number {
  // The same drawing as place() gives an unwrapped graph (volumes follow their servers).
  const { serversOf } = adjacency(input);
  const hosts = placeHosts(order);
  const bottom = hosts.hosts.reduce((m, h) => Math.max(m, h.y + h.height), 0);
  const volumes = sortByBarycentre(order.volumes, serversOf, hosts.serverY);
  const vols = placeVolumes(volumes, 0, serversOf, hosts.serverY, bottom);
  const pairs = input.edges
    .map((e) => [hosts.serverY.get(e.server) ?? 0, vols.volumeY.get(e.volume) ?? 0] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let ys = pairs.map((p) => p[1]);
  let crossings = 0;
  // Bottom-up merge sort counting pairs with a higher volume before a lower one.
  for (let width = 1; width < ys.length; width *= 2) {
    const next: number[] = [];
    for (let lo = 0; lo < ys.length; lo += 2 * width) {
      const mid = Math.min(lo + width, ys.length);
      const hi = Math.min(lo + 2 * width, ys.length);
      let i = lo;
      let j = mid;
      while (i < mid && j < hi) {
        const a = ys[i] ?? 0;
        const b = ys[j] ?? 0;
        if (a <= b) {
          next.push(a);
          i++;
        } else {
          next.push(b);
          crossings += mid - i;
          j++;
        }
      }
      while (i < mid) next.push(ys[i++] ?? 0);
      while (j < hi) next.push(ys[j++] ?? 0);
    }
    ys = next;
  }
  return crossings;
}

function result(
  placed: Placed,
  algorithm: LayoutResult['algorithm'],
  reason: string,
  started: number,
): LayoutResult {
  return {
    algorithm,
    reason,
    ms: Math.round(performance.now() - started),
    hosts: placed.hosts,
    servers: placed.servers,
    volumes: placed.volumes,
    width: placed.width,
    height: placed.height,
  };
}

/** The deterministic layout for any size: host boxes in a column, volumes in the next. */
export function columnsLayout(input: LayoutInput, reason = 'chosen'): LayoutResult {
  const started = performance.now();
  const order = refineOrder(initialOrder(input), input);
  return result(place(order, input), 'columns', reason, started);
}

/**
 * elk's layered algorithm orders hosts and volumes, the sweeps then order each host's servers; the
 * drawing keeps whichever of that and the sweeps alone crosses fewer lines.
 */
export async function elkLayout(input: LayoutInput, elk: ElkLike): Promise<LayoutResult> {
  const started = performance.now();
  const laid = await elk.layout(toElkGraph(input));
  const withElk = refineOrder(orderFromElk(input, laid), input);
  const sweeps = refineOrder(initialOrder(input), input);
  const a = countCrossings(withElk, input);
  const b = countCrossings(sweeps, input);
  const n = (x: number) => x.toLocaleString('en');
  return a <= b
    ? result(place(withElk, input), 'elk-layered', `${n(a)} crossings, ${n(b)} without elk`, started)
    : result(place(sweeps, input), 'columns', `${n(b)} crossings, ${n(a)} with elk's order`, started);
}

export type LayoutPhase = 'elk-layered' | 'columns';

function budgetReason(input: LayoutInput): string {
  const { nodes, edges } = elkSize(input);
  const n = (x: number) => x.toLocaleString('en');
  return `${n(nodes)} hosts and volumes, ${n(edges)} host-volume links: over elk's budget`;
}

/** elk for graphs it handles quickly, the columns layout otherwise (or if elk fails). */
export async function layoutTopology(
  input: LayoutInput,
  options: { elk?: ElkLike; mode?: 'auto' | 'columns'; onPhase?: (phase: LayoutPhase) => void } = {},
): Promise<LayoutResult> {
  const { elk, mode = 'auto', onPhase } = options;
  if (mode === 'auto' && elk && shouldUseElk(input)) {
    onPhase?.('elk-layered');
    try {
      return await elkLayout(input, elk);
    } catch (err) {
      onPhase?.('columns');
      return columnsLayout(input, `elk failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  onPhase?.('columns');
  const reason =
    mode === 'columns'
      ? 'elk took too long'
      : !shouldUseElk(input)
        ? budgetReason(input)
        : 'elk is not available';
  return columnsLayout(input, reason);
}
