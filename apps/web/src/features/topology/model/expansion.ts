import { NO_HOST, nodeId } from './topology-model';
import type { Expansion, TopologySummary, ViewGraph } from './view-model';

/** What the user can open and fold, as pure changes of an Expansion (the page keeps the state). */

const without = <T>(set: ReadonlySet<T>, drop: (x: T) => boolean): Set<T> =>
  new Set([...set].filter((x) => !drop(x)));
const withAdded = <T>(set: ReadonlySet<T>, x: T): Set<T> => new Set([...set, x]);

/** Drops the pins of servers on these hosts (folding a box folds what was pinned in it too). */
function unpinHosts(e: Expansion, s: TopologySummary, hosts: readonly string[]): ReadonlySet<string> {
  const servers = new Set(hosts.flatMap((h) => s.host.get(h)?.servers ?? []).map(nodeId.server));
  return servers.size ? without(e.pinned, (id) => servers.has(id)) : e.pinned;
}

/**
 * A click (or Enter) on a zone, host, fold chip or group of volumes: open it, or fold it when it is
 * open. Servers and volumes are not toggled: they open their own pages.
 */
export function toggle(e: Expansion, s: TopologySummary, id: string): Expansion {
  if (id.startsWith('zone:')) {
    const key = id.slice(5);
    if (!e.zones.has(key)) return { ...e, zones: withAdded(e.zones, key) };
    return {
      ...e,
      zones: without(e.zones, (z) => z === key),
      pinned: unpinHosts(e, s, s.zone.get(key)?.hosts ?? []),
    };
  }
  if (id.startsWith('host:')) {
    const host = id.slice(5);
    if (!e.hosts.has(host)) return { ...e, hosts: withAdded(e.hosts, host) };
    return {
      ...e,
      hosts: without(e.hosts, (h) => h === host),
      unfolded: without(e.unfolded, (h) => h === host),
      pinned: unpinHosts(e, s, [host]),
    };
  }
  if (id.startsWith('fold:')) {
    const owner = id.slice(5);
    if (owner.startsWith('zone:')) return { ...e, zones: withAdded(e.zones, owner.slice(5)) };
    const host = owner.slice(5);
    return e.hosts.has(host)
      ? { ...e, unfolded: withAdded(e.unfolded, host) }
      : { ...e, hosts: withAdded(e.hosts, host) };
  }
  if (id.startsWith('volumes:')) {
    const owner = id.slice(8);
    if (owner === 'unattached') return { ...e, unattachedShown: !e.unattachedShown };
    return toggle(e, s, owner);
  }
  return e;
}

/** The node that stays put on screen while `id` opens or folds (the box it belongs to). */
export function anchorOf(id: string): string | null {
  if (id.startsWith('fold:')) return id.slice(5);
  if (id.startsWith('volumes:')) return id === 'volumes:unattached' ? null : id.slice(8);
  return id;
}

/**
 * "Show in graph": the volume and every server holding it drawn one by one, whatever is folded,
 * and the zones and hosts they are in narrowed to them (a box showing all its servers or hosts
 * would spread the holders too far apart to frame legibly). Replaces the previous pins.
 */
export function focusVolume(
  e: Expansion,
  s: TopologySummary,
  volumeId: string,
  hostOf: Map<string, string>,
): Expansion {
  const holders = s.holders.get(volumeId) ?? [];
  const hosts = new Set(holders.map((h) => hostOf.get(h) ?? NO_HOST));
  const zones = new Set([...hosts].map((h) => s.host.get(h)?.zone));
  return {
    ...e,
    zones: without(e.zones, (z) => zones.has(z)),
    hosts: without(e.hosts, (h) => hosts.has(h)),
    unfolded: without(e.unfolded, (h) => hosts.has(h)),
    pinned: new Set([nodeId.volume(volumeId), ...holders.map(nodeId.server)]),
  };
}

/** The node ids a focused volume is framed with: itself and its holders. */
export const focusIds = (s: TopologySummary, volumeId: string): string[] => [
  nodeId.volume(volumeId),
  ...(s.holders.get(volumeId) ?? []).map(nodeId.server),
];

/** Find: makes a match visible (a server or volume pinned, a host's zone opened). Replaces the pins. */
export function reveal(e: Expansion, s: TopologySummary, id: string): Expansion {
  if (id.startsWith('server:') || id.startsWith('volume:')) return { ...e, pinned: new Set([id]) };
  if (id.startsWith('host:')) {
    const h = s.host.get(id.slice(5));
    if (h && e.groupZones && h.id !== NO_HOST && !e.zones.has(h.zone)) {
      return { ...e, zones: withAdded(e.zones, h.zone) };
    }
  }
  return e;
}

/**
 * The node drawing a topology item in this view: itself when drawn, else the fold, host, zone or
 * group it is folded into. Search marks and framing use it.
 */
export function drawnNodeOf(
  id: string,
  view: Pick<ViewGraph, 'serverNode' | 'volumeNode' | 'left'>,
  s: TopologySummary,
): string | null {
  if (id.startsWith('server:')) return view.serverNode.get(id.slice(7)) ?? null;
  if (id.startsWith('volume:')) return view.volumeNode.get(id.slice(7)) ?? null;
  if (id.startsWith('host:')) {
    for (const item of view.left) {
      if (item.id === id) return id;
      if (item.kind === 'zone') {
        if (item.hosts.some((h) => h.id === id)) return id;
        if (item.zone.hosts.includes(id.slice(5))) return item.fold?.id ?? item.id;
      }
    }
    const h = s.host.get(id.slice(5));
    const first = h?.servers[0];
    return first ? (view.serverNode.get(first) ?? null) : null;
  }
  return null;
}
