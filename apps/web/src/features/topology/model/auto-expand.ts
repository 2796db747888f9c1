import { CONTROLS_GUTTER_PX, FIT_PADDING_PX, LEGIBLE_ZOOM } from '../layout/dimensions';
import { leftWidthFor, viewSize } from '../layout/view-layout';
import { NO_HOST } from './topology-model';
import {
  collapsedAll,
  type Expansion,
  hasRisk,
  type HostSummary,
  type TopologySummary,
  viewItems,
} from './view-model';

/** The graph's canvas on screen, in CSS pixels. */
export interface Canvas {
  width: number;
  height: number;
}

/** How much drawing (at zoom 1) fits on the canvas at the smallest zoom that keeps text legible. */
export function legibleBudget(canvas: Canvas): Canvas {
  return {
    width: Math.max(0, canvas.width - CONTROLS_GUTTER_PX - 2 * FIT_PADDING_PX) / LEGIBLE_ZOOM,
    height: Math.max(0, canvas.height - 2 * FIT_PADDING_PX) / LEGIBLE_ZOOM,
  };
}

/** The host column's width on this canvas. */
export const leftWidthOn = (canvas: Canvas) => leftWidthFor(legibleBudget(canvas).width);

export function fitsLegibly(s: TopologySummary, e: Expansion, canvas: Canvas): boolean {
  const budget = legibleBudget(canvas);
  const size = viewSize(viewItems(s, e), leftWidthOn(canvas));
  return size.width <= budget.width + 0.5 && size.height <= budget.height + 0.5;
}

const riskFirst = <T>(items: readonly T[], risk: (x: T) => number): T[] =>
  items
    .map((x, i) => ({ x, i, r: risk(x) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .map((k) => k.x);

const hostRisk = (h: HostSummary) => h.risks.writers + h.risks.stuck;

/**
 * The first view: as much opened as still fits the canvas at a legible zoom. Hosts start folded
 * (grouped into zones when even folded hosts do not fit); then, while the drawing still fits, zones
 * open, hosts open to show their servers with volumes (risky ones first, then in drawing order),
 * and last their servers without volumes. Whatever stays folded shows its counts and risks.
 */
export function autoExpansion(
  s: TopologySummary,
  canvas: Canvas,
  pinned: ReadonlySet<string> = new Set(),
): Expansion {
  let e: Expansion = { ...collapsedAll(false), pinned };
  if (!fitsLegibly(s, e, canvas) && s.zones.length > 0) e = { ...e, groupZones: true };
  const tryWith = (next: Expansion) => {
    if (fitsLegibly(s, next, canvas)) {
      e = next;
      return true;
    }
    return false;
  };

  if (e.groupZones) {
    for (const z of riskFirst(s.zones, (z) => (hasRisk(z.risks) ? z.risks.writers + z.risks.stuck : 0))) {
      tryWith({ ...e, zones: new Set([...e.zones, z.key]) });
    }
  }
  const visible = s.hosts.filter((h) => !e.groupZones || h.id === NO_HOST || e.zones.has(h.zone));
  // Opening a host without servers that hold volumes would only show a fold chip: those open last,
  // with every server shown.
  const withVolumes = riskFirst(
    visible.filter((h) => h.withVolumes > 0),
    hostRisk,
  );
  for (const h of withVolumes) tryWith({ ...e, hosts: new Set([...e.hosts, h.id]) });
  for (const h of withVolumes) {
    if (e.hosts.has(h.id) && h.withVolumes < h.servers.length) {
      tryWith({ ...e, unfolded: new Set([...e.unfolded, h.id]) });
    }
  }
  for (const h of visible) {
    if (h.withVolumes === 0 && h.servers.length > 0) {
      tryWith({ ...e, hosts: new Set([...e.hosts, h.id]), unfolded: new Set([...e.unfolded, h.id]) });
    }
  }
  if (s.unattached.length) tryWith({ ...e, unattachedShown: true });
  return e;
}
