import type { HostItem, LeftItem, RightItem, ViewGraph, ZoneItem } from '../model/view-model';
import { nodeId } from '../model/topology-model';
import {
  EDGE_GAP,
  FOLD_H,
  HOST_COLLAPSED_H,
  HOST_EMPTY_H,
  HOST_HEADER_H,
  HOST_PAD,
  LEFT_MAX_W,
  LEFT_MIN_W,
  MAX_SERVER_COLUMNS,
  PARTIAL_LABEL_W,
  PARTIAL_PAD,
  SERVER_GAP,
  SERVER_H,
  SERVER_MAX_W,
  SERVER_MIN_W,
  STACK_GAP,
  VOLUME_GAP,
  VOLUME_H,
  VOLUME_W,
  ZONE_COLLAPSED_H,
  ZONE_HEADER_H,
  ZONE_PAD,
} from './dimensions';

/**
 * Where everything goes: zones and hosts stacked in one column on the left (servers in a grid inside
 * their host), volumes and groups of volumes in one column on the right, each as near the middle
 * of what it is attached to as the others allow. Synchronous and linear in what is drawn: the fold
 * rule keeps that small, so no worker is needed.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacedNode extends Rect {
  id: string;
  /** Positions are relative to the parent (a zone or host box), as React Flow wants. */
  parent: string | null;
}

export interface ViewLayout {
  /** Parents before children. */
  nodes: PlacedNode[];
  /** Absolute boxes, for framing and panning. */
  abs: Map<string, Rect>;
  width: number;
  height: number;
  leftWidth: number;
}

/** The host column's width for a drawing that must be `width` wide at most (with the volumes). */
export function leftWidthFor(width: number): number {
  return Math.round(Math.min(LEFT_MAX_W, Math.max(LEFT_MIN_W, width - EDGE_GAP - VOLUME_W)));
}

/** Columns and chip width of a host's server grid. */
export function serverGrid(hostWidth: number): { cols: number; w: number } {
  const inner = hostWidth - 2 * HOST_PAD;
  const cols = Math.max(
    1,
    Math.min(MAX_SERVER_COLUMNS, Math.floor((inner + SERVER_GAP) / (SERVER_MIN_W + SERVER_GAP))),
  );
  return { cols, w: (inner - (cols - 1) * SERVER_GAP) / cols };
}

/** The chips beside a partial host's name. */
export function partialGrid(hostWidth: number): { cols: number; w: number } {
  const inner = hostWidth - PARTIAL_LABEL_W - HOST_PAD;
  const cols = Math.max(1, Math.floor((inner + SERVER_GAP) / (SERVER_MIN_W + SERVER_GAP)));
  return { cols, w: Math.min(SERVER_MAX_W, (inner - (cols - 1) * SERVER_GAP) / cols) };
}

function hostHeight(h: HostItem, width: number): number {
  if (h.mode === 'collapsed') return HOST_COLLAPSED_H;
  if (h.mode === 'partial') {
    const rows = Math.max(1, Math.ceil(h.servers.length / partialGrid(width).cols));
    return 2 * PARTIAL_PAD + rows * SERVER_H + (rows - 1) * SERVER_GAP;
  }
  const rows = Math.ceil(h.servers.length / serverGrid(width).cols);
  const grid = rows > 0 ? rows * SERVER_H + (rows - 1) * SERVER_GAP : h.fold ? 0 : HOST_EMPTY_H;
  const fold = h.fold ? (rows > 0 ? SERVER_GAP : 0) + FOLD_H : 0;
  return HOST_HEADER_H + grid + fold + HOST_PAD;
}

function zoneHeight(z: ZoneItem, width: number): number {
  if (z.mode === 'collapsed') return ZONE_COLLAPSED_H;
  const inner = width - 2 * ZONE_PAD;
  const hosts = z.hosts.reduce((sum, h) => sum + hostHeight(h, inner) + STACK_GAP, 0);
  return ZONE_HEADER_H + hosts + (z.fold ? FOLD_H : hosts > 0 ? -STACK_GAP : 0) + ZONE_PAD;
}

const itemHeight = (item: LeftItem, width: number) =>
  item.kind === 'zone' ? zoneHeight(item, width) : hostHeight(item, width);

function leftHeight(left: readonly LeftItem[], width: number): number {
  if (left.length === 0) return 0;
  return left.reduce((sum, item) => sum + itemHeight(item, width), 0) + (left.length - 1) * STACK_GAP;
}

const rightHeight = (n: number) => (n === 0 ? 0 : n * (VOLUME_H + VOLUME_GAP) - VOLUME_GAP);

/** The size layoutView will give, without placing anything (the fit rule tries many expansions). */
export function viewSize(
  view: Pick<ViewGraph, 'left' | 'right'>,
  leftWidth: number,
): { width: number; height: number } {
  return {
    width: leftWidth + EDGE_GAP + VOLUME_W,
    height: Math.max(leftHeight(view.left, leftWidth), rightHeight(view.right.length)),
  };
}

/** Places a host's servers and fold chip in the given order. */
function placeHostChildren(h: HostItem, width: number, order: readonly string[], out: PlacedNode[]) {
  if (h.mode === 'partial') {
    const { cols, w } = partialGrid(width);
    order.forEach((s, i) => {
      out.push({
        id: nodeId.server(s),
        parent: h.id,
        x: PARTIAL_LABEL_W + (i % cols) * (w + SERVER_GAP),
        y: PARTIAL_PAD + Math.floor(i / cols) * (SERVER_H + SERVER_GAP),
        w,
        h: SERVER_H,
      });
    });
    return;
  }
  const { cols, w } = serverGrid(width);
  order.forEach((s, i) => {
    out.push({
      id: nodeId.server(s),
      parent: h.id,
      x: HOST_PAD + (i % cols) * (w + SERVER_GAP),
      y: HOST_HEADER_H + Math.floor(i / cols) * (SERVER_H + SERVER_GAP),
      w,
      h: SERVER_H,
    });
  });
  if (h.fold) {
    const rows = Math.ceil(order.length / cols);
    out.push({
      id: h.fold.id,
      parent: h.id,
      x: HOST_PAD,
      y: HOST_HEADER_H + (rows > 0 ? rows * (SERVER_H + SERVER_GAP) : 0),
      w: width - 2 * HOST_PAD,
      h: FOLD_H,
    });
  }
}

function placeLeft(left: readonly LeftItem[], width: number, serverOrder: Map<string, string[]>) {
  const out: PlacedNode[] = [];
  let y = 0;
  const host = (h: HostItem, parent: string | null, x: number, top: number, w: number) => {
    out.push({ id: h.id, parent, x, y: top, w, h: hostHeight(h, w) });
    if (h.mode !== 'collapsed') placeHostChildren(h, w, serverOrder.get(h.id) ?? h.servers, out);
  };
  for (const item of left) {
    const height = itemHeight(item, width);
    if (item.kind === 'host') host(item, null, 0, y, width);
    else {
      out.push({ id: item.id, parent: null, x: 0, y, w: width, h: height });
      let inner = ZONE_HEADER_H;
      for (const h of item.hosts) {
        host(h, item.id, ZONE_PAD, inner, width - 2 * ZONE_PAD);
        inner += hostHeight(h, width - 2 * ZONE_PAD) + STACK_GAP;
      }
      if (item.fold) {
        out.push({
          id: item.fold.id,
          parent: item.id,
          x: ZONE_PAD,
          y: inner,
          w: width - 2 * ZONE_PAD,
          h: FOLD_H,
        });
      }
    }
    y += height + STACK_GAP;
  }
  return { nodes: out, height: leftHeight(left, width) };
}

function absolute(nodes: readonly PlacedNode[]): Map<string, Rect> {
  const abs = new Map<string, Rect>();
  for (const n of nodes) {
    const p = n.parent ? abs.get(n.parent) : undefined;
    abs.set(n.id, { x: n.x + (p?.x ?? 0), y: n.y + (p?.y ?? 0), w: n.w, h: n.h });
  }
  return abs;
}

/** Weighted mean of the centres of `ends`; undefined when none is placed. */
function barycentre(
  ends: readonly { id: string; weight: number }[] | undefined,
  y: (id: string) => number | undefined,
) {
  if (!ends) return undefined;
  let sum = 0;
  let n = 0;
  for (const e of ends) {
    const v = y(e.id);
    if (v === undefined) continue;
    sum += v * e.weight;
    n += e.weight;
  }
  return n === 0 ? undefined : sum / n;
}

/**
 * The right column: sorted by where their lines come from, each as near that height as the ones
 * above allow, and pulled back up so the column ends no lower than `limit` or its own packed height.
 */
function placeRight(
  right: readonly RightItem[],
  x: number,
  limit: number,
  centreOf: (id: string) => number | undefined,
): PlacedNode[] {
  const keyed = right.map((r, i) => ({ r, i, b: centreOf(r.id) }));
  keyed.sort((a, b) => {
    if (a.b === undefined || b.b === undefined) {
      return a.b === undefined && b.b === undefined ? a.i - b.i : a.b === undefined ? 1 : -1;
    }
    return a.b - b.b || a.i - b.i;
  });
  const step = VOLUME_H + VOLUME_GAP;
  const ys: number[] = [];
  let next = 0;
  for (const k of keyed) {
    const y = Math.max(next, k.b === undefined ? next : k.b - VOLUME_H / 2);
    ys.push(y);
    next = y + step;
  }
  let ceiling = Math.max(limit, rightHeight(keyed.length)) - VOLUME_H;
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
  return keyed.map((k, i) => ({ id: k.r.id, parent: null, x, y: ys[i] ?? 0, w: VOLUME_W, h: VOLUME_H }));
}

function hostItems(left: readonly LeftItem[]): HostItem[] {
  return left.flatMap((item) => (item.kind === 'host' ? [item] : item.hosts));
}

/** Positions for a view: the left column, then the right by barycentre, then one sweep of each host's servers. */
export function layoutView(view: ViewGraph, leftWidth: number): ViewLayout {
  const sources = new Map<string, { id: string; weight: number }[]>();
  const targets = new Map<string, { id: string; weight: number }[]>();
  for (const e of view.edges) {
    const s = sources.get(e.target);
    if (s) s.push({ id: e.source, weight: e.count });
    else sources.set(e.target, [{ id: e.source, weight: e.count }]);
    const t = targets.get(e.source);
    if (t) t.push({ id: e.target, weight: e.count });
    else targets.set(e.source, [{ id: e.target, weight: e.count }]);
  }
  const rightX = leftWidth + EDGE_GAP;
  const order = new Map<string, string[]>();

  const pass = () => {
    const left = placeLeft(view.left, leftWidth, order);
    const leftAbs = absolute(left.nodes);
    const centre = (id: string) => {
      const r = leftAbs.get(id);
      return r ? r.y + r.h / 2 : undefined;
    };
    const right = placeRight(view.right, rightX, left.height, (id) => barycentre(sources.get(id), centre));
    return { left, right };
  };

  let placed = pass();
  // One sweep: each host's servers by where their volumes sit, then the volumes again.
  const rightY = new Map(placed.right.map((r) => [r.id, r.y + r.h / 2]));
  let reordered = false;
  for (const h of hostItems(view.left)) {
    if (h.servers.length < 2) continue;
    const keyed = h.servers.map((s, i) => ({
      s,
      i,
      b: barycentre(targets.get(nodeId.server(s)), (id) => rightY.get(id)),
    }));
    keyed.sort((a, b) => {
      if (a.b === undefined || b.b === undefined) {
        return a.b === undefined && b.b === undefined ? a.i - b.i : a.b === undefined ? 1 : -1;
      }
      return a.b - b.b || a.i - b.i;
    });
    const next = keyed.map((k) => k.s);
    if (next.some((s, i) => s !== h.servers[i])) reordered = true;
    order.set(h.id, next);
  }
  if (reordered) placed = pass();

  const nodes = [...placed.left.nodes, ...placed.right];
  const size = viewSize(view, leftWidth);
  return { nodes, abs: absolute(nodes), width: size.width, height: size.height, leftWidth };
}
