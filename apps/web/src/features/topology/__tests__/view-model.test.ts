import type { Topology } from '@sv/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareTopology } from '../api/get-topology';
import { buildFlowElements } from '../model/flow-elements';
import { NO_HOST, nodeId } from '../model/topology-model';
import {
  buildView,
  collapsedAll,
  drawnIds,
  type Expansion,
  hasRisk,
  type HostItem,
  type ZoneItem,
} from '../model/view-model';
import { layoutView } from '../layout/view-layout';
import { cloudOf60, smallTopology } from '../testing/fixtures';
import { generateTopology } from '../testing/generate-topology';

const prepared = (t: Topology) => prepareTopology(t);
const host = (v: { left: (HostItem | ZoneItem)[] }, id: string) =>
  v.left.flatMap((i) => (i.kind === 'host' ? [i] : i.hosts)).find((h) => h.host.id === id);

describe('summary', () => {
  it('puts each volume beside the host holding most of its attachments, and counts risks per host', () => {
    const { summary } = prepared(cloudOf60());
    // web-shared is read by 12 web servers, 4 on each of the three hosts: the first host drawn (by
    // zone, then name) wins the tie.
    expect(summary.homeOf.get('vol-web-shared')).toBe('compute-3');
    expect(summary.hosts.map((h) => h.id)).toEqual([
      'compute-3',
      'ironic-1',
      'compute-1',
      'compute-2',
      'compute-old',
    ]);
    const compute1 = summary.host.get('compute-1');
    expect(compute1?.servers).toHaveLength(20);
    expect(compute1?.withVolumes).toBe(8);
    // db-1 and db-2 both write db-data: each host with one of them counts one writer.
    const writers = summary.hosts.map((h) => h.risks.writers);
    expect(writers.reduce((a, b) => a + b, 0)).toBe(2);
    expect(summary.zones.map((z) => [z.key, z.hosts.length, z.servers])).toEqual([
      ['az2', 2, 20],
      ['nova', 3, 40],
    ]);
  });

  it('keeps servers not on a listed host, and volumes without attachments, in groups of their own', () => {
    const { summary } = prepared(smallTopology());
    expect(summary.host.get(NO_HOST)?.servers).toEqual(['srv-build-1']);
    const t = smallTopology();
    t.volumes.push({
      id: 'vol-free',
      name: 'free',
      status: 'available',
      shared: false,
      projectId: null,
      rw: 0,
      ro: 0,
    });
    expect(prepared(t).summary.unattached).toEqual(['vol-free']);
  });
});

describe('what is drawn for an expansion', () => {
  it('a folded host draws no servers, and its attachments merge into one line per group of volumes', () => {
    const { topology, index, summary } = prepared(cloudOf60());
    const view = buildView(topology, index, summary, collapsedAll());
    const ids = drawnIds(view);
    expect(ids.filter((id) => id.startsWith('server:'))).toEqual([]);
    expect(ids.filter((id) => id.startsWith('host:'))).toHaveLength(5);
    // Every volume sits in the group beside its host; nothing is drawn alone.
    expect(view.right.every((r) => r.kind === 'volumes')).toBe(true);
    // One line per (host, group) pair, carrying the count of the attachments it stands for.
    const lines = view.edges.filter((e) => e.source === nodeId.host('compute-1'));
    expect(new Set(lines.map((e) => e.target)).size).toBe(lines.length);
    expect(view.edges.reduce((n, e) => n + e.count, 0)).toBe(topology.edges.length);
  });

  it('an open host draws its servers with volumes and folds those without into one chip', () => {
    const { topology, index, summary } = prepared(cloudOf60());
    const e: Expansion = { ...collapsedAll(), hosts: new Set(['compute-3']) };
    const view = buildView(topology, index, summary, e);
    const h = host(view, 'compute-3');
    expect(h?.mode).toBe('expanded');
    expect(h?.servers).toHaveLength(8);
    expect(h?.servers.every((s) => summary.hasVolumes.has(s))).toBe(true);
    expect(h?.fold?.servers).toHaveLength(12);
    expect(h?.fold?.withVolumes).toBe(0);
    // Its volumes are drawn one by one; the other hosts' stay grouped.
    const web = view.right.find((r) => r.id === nodeId.volume('vol-web-shared'));
    expect(web?.kind).toBe('volume');
    // Unfolded, every server is drawn and the chip goes.
    const all = buildView(topology, index, summary, { ...e, unfolded: new Set(['compute-3']) });
    expect(host(all, 'compute-3')?.servers).toHaveLength(20);
    expect(host(all, 'compute-3')?.fold).toBeNull();
  });

  it('a pinned server opens its host partly: only it is drawn, the host stands for the others', () => {
    const { topology, index, summary } = prepared(cloudOf60());
    const view = buildView(topology, index, summary, {
      ...collapsedAll(),
      pinned: new Set([nodeId.server('srv-web-1')]),
    });
    const h = host(view, 'compute-1');
    expect(h?.mode).toBe('partial');
    expect(h?.servers).toEqual(['srv-web-1']);
    expect(h?.fold).toBeNull();
    expect(h?.hidden?.servers).toHaveLength(19);
    expect(view.serverNode.get('srv-web-1')).toBe(nodeId.server('srv-web-1'));
    expect(view.serverNode.get('srv-web-4')).toBe(nodeId.host('compute-1'));
  });

  it('a folded zone stands for its hosts and their servers; a pinned server narrows it to its host', () => {
    const t = generateTopology({ servers: 5000 });
    const { topology, index, summary } = prepared(t);
    const folded = buildView(topology, index, summary, collapsedAll(true));
    expect(folded.left.map((i) => [i.kind, i.id])).toEqual([
      ['zone', 'zone:az1'],
      ['zone', 'zone:az2'],
    ]);
    expect(folded.right.map((r) => r.id)).toEqual(['volumes:zone:az1', 'volumes:zone:az2']);
    expect(folded.edges.reduce((n, e) => n + e.count, 0)).toBe(t.edges.length);

    const server = t.servers[1234]?.id ?? '';
    const narrowed = buildView(topology, index, summary, {
      ...collapsedAll(true),
      pinned: new Set([nodeId.server(server)]),
    });
    const zone = narrowed.left.find((i) => i.kind === 'zone' && i.mode === 'partial') as ZoneItem;
    expect(zone.hosts).toHaveLength(1);
    expect(zone.hosts[0]?.servers).toEqual([server]);
    expect(zone.fold?.hosts).toHaveLength(24);
    expect(drawnIds(narrowed)).toContain(nodeId.server(server));
  });
});

/** Random expansions of a topology: which zones and hosts are open, unfolded, what is pinned. */
function expansions(t: Topology) {
  const hosts = [...t.hosts.map((h) => h.id), NO_HOST];
  const zones = [...new Set(t.hosts.map((h) => h.zone ?? ''))];
  const pins = [...t.servers.map((s) => nodeId.server(s.id)), ...t.volumes.map((v) => nodeId.volume(v.id))];
  return fc.record({
    groupZones: fc.boolean(),
    zones: fc.subarray(zones).map((x) => new Set(x)),
    hosts: fc.subarray(hosts).map((x) => new Set(x)),
    unfolded: fc.subarray(hosts).map((x) => new Set(x)),
    pinned: fc.subarray(pins, { maxLength: 6 }).map((x) => new Set(x)),
    unattachedShown: fc.boolean(),
  });
}

describe('whatever is folded', () => {
  const t = generateTopology({ servers: 400, hosts: 8, stuckShare: 0.05 });
  // Servers not on a host, and a volume nobody holds, are folded too.
  t.servers.push({ id: 'srv-building', name: 'building', status: 'BUILD', hostId: null, projectId: null });
  t.volumes.push({
    id: 'vol-free',
    name: 'free',
    status: 'available',
    shared: true,
    projectId: null,
    rw: 0,
    ro: 0,
  });
  const p = prepared(t);

  it('every attachment is on exactly one line, and every server and volume is drawn by exactly one node', () => {
    fc.assert(
      fc.property(expansions(t), (e) => {
        const view = buildView(p.topology, p.index, p.summary, e);
        expect(view.edges.reduce((n, x) => n + x.count, 0)).toBe(t.edges.length);
        const drawn = new Set(drawnIds(view));
        for (const s of t.servers) expect(drawn.has(view.serverNode.get(s.id) ?? '')).toBe(true);
        for (const v of t.volumes) expect(drawn.has(view.volumeNode.get(v.id) ?? '')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('risks stay visible: a risky server or volume is drawn flagged, or inside a box that counts it', () => {
    fc.assert(
      fc.property(expansions(t), (e) => {
        const view = buildView(p.topology, p.index, p.summary, e);
        const layout = layoutView(view, 500);
        const flow = buildFlowElements(p.topology, p.index, p.summary, view, layout);
        const data = new Map(flow.nodes.map((n) => [n.id, n]));
        for (const [server, risk] of p.summary.serverRisk) {
          if (!hasRisk(risk)) continue;
          const node = data.get(view.serverNode.get(server) ?? '');
          expect(node, server).toBeDefined();
          if (!node) continue;
          if (node.type === 'server') expect(node.data.stuck || node.data.writer).toBe(true);
          else if (node.type === 'host' && node.data.mode === 'partial')
            expect(hasRisk(node.data.hiddenRisks)).toBe(true);
          else if (node.type === 'zone' || node.type === 'host' || node.type === 'fold')
            expect(hasRisk(node.data.risks)).toBe(true);
          else throw new Error(`${server} drawn by a ${node.type}`);
        }
        for (const v of [...p.index.multipleWriters, ...p.index.stuckVolumes]) {
          const node = data.get(view.volumeNode.get(v) ?? '');
          if (node?.type === 'volume') expect(node.data.multipleWriters || node.data.stuck).toBe(true);
          else if (node?.type === 'volumes') expect(hasRisk(node.data.risks)).toBe(true);
          else throw new Error(`${v} drawn by ${node?.type}`);
        }
      }),
      { numRuns: 40 },
    );
  });
});
