import type { Topology } from '@sv/shared';
import { describe, expect, it } from 'vitest';
import { prepareTopology } from '../api/get-topology';
import { LEGIBLE_ZOOM } from '../layout/dimensions';
import { layoutView, type Rect } from '../layout/view-layout';
import { frameLegibly } from '../layout/viewport';
import { autoExpansion, type Canvas, leftWidthOn } from '../model/auto-expand';
import { drawnNodeOf, focusIds, focusVolume, reveal, toggle } from '../model/expansion';
import { nodeId } from '../model/topology-model';
import { buildView, collapsedAll, drawnIds, type Expansion, viewItems } from '../model/view-model';
import { cloudOf60 } from '../testing/fixtures';
import { generateTopology } from '../testing/generate-topology';

const CANVAS: Canvas = { width: 908, height: 630 };

function draw(t: Topology, e: Expansion) {
  const p = prepareTopology(t);
  const view = buildView(p.topology, p.index, p.summary, e);
  return { p, view, layout: layoutView(view, leftWidthOn(CANVAS)) };
}

/** Whether every box in `ids` is fully on the canvas at viewport v. */
function onScreen(
  layout: ReturnType<typeof layoutView>,
  ids: string[],
  v: { x: number; y: number; zoom: number },
) {
  return ids.every((id) => {
    const r = layout.abs.get(id) as Rect;
    const x = v.x + r.x * v.zoom;
    const y = v.y + r.y * v.zoom;
    return (
      x >= -0.5 &&
      y >= -0.5 &&
      x + r.w * v.zoom <= CANVAS.width + 0.5 &&
      y + r.h * v.zoom <= CANVAS.height + 0.5
    );
  });
}

describe('opening and folding', () => {
  const { summary } = prepareTopology(generateTopology({ servers: 5000 }));

  it('a click on a folded zone or host opens it, the header button folds it again (and its pins)', () => {
    let e = collapsedAll(true);
    e = toggle(e, summary, 'zone:az1');
    expect(e.zones.has('az1')).toBe(true);
    e = toggle(e, summary, 'host:compute-1');
    expect(e.hosts.has('compute-1')).toBe(true);
    const server = summary.host.get('compute-1')?.servers[0] ?? '';
    e = { ...e, pinned: new Set([nodeId.server(server)]) };
    e = toggle(e, summary, 'host:compute-1');
    expect(e.hosts.has('compute-1')).toBe(false);
    expect(e.pinned.size).toBe(0);
    e = toggle(e, summary, 'zone:az1');
    expect(e.zones.size).toBe(0);
  });

  it('a fold chip shows what it folds; a group of volumes opens the box it sits beside', () => {
    let e: Expansion = { ...collapsedAll(true), zones: new Set(['az1']), hosts: new Set(['compute-1']) };
    e = toggle(e, summary, 'fold:host:compute-1');
    expect(e.unfolded.has('compute-1')).toBe(true);
    e = toggle(e, summary, 'fold:host:compute-3');
    expect(e.hosts.has('compute-3')).toBe(true);
    e = toggle(e, summary, 'fold:zone:az2');
    expect(e.zones.has('az2')).toBe(true);
    e = toggle(collapsedAll(true), summary, 'volumes:zone:az1');
    expect(e.zones.has('az1')).toBe(true);
    e = toggle(collapsedAll(), summary, 'volumes:host:compute-7');
    expect(e.hosts.has('compute-7')).toBe(true);
    e = toggle(collapsedAll(), summary, 'volumes:unattached');
    expect(e.unattachedShown).toBe(true);
    // Servers and volumes open their own pages: nothing changes here.
    expect(toggle(e, summary, 'server:x')).toBe(e);
  });
});

describe('"Show in graph"', () => {
  it('at 60 servers frames the two writers of db-data and the volume, legibly', () => {
    const t = cloudOf60();
    const p = prepareTopology(t);
    const start = autoExpansion(p.summary, CANVAS);
    const e = focusVolume(start, p.summary, 'vol-db-data', p.index.hostOf);
    const { layout } = draw(t, e);
    const ids = focusIds(p.summary, 'vol-db-data');
    expect(ids).toEqual(['volume:vol-db-data', 'server:srv-db-1', 'server:srv-db-2']);
    const v = frameLegibly(layout, ids, ids, CANVAS);
    if (!v) throw new Error('nothing framed');
    expect(v.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(onScreen(layout, ids, v)).toBe(true);
  });

  it('at 5,000 servers draws the volume and every holder one by one, whatever was folded', () => {
    const t = generateTopology({ servers: 5000 });
    const p = prepareTopology(t);
    const risk = t.risks.find((r) => r.kind === 'multiple_writers');
    if (!risk) throw new Error('no risk');
    // From the first view (zones folded), and from one where the user opened a holder's host.
    const holders = p.summary.holders.get(risk.volumeId) ?? [];
    const opened: Expansion = {
      ...collapsedAll(true),
      zones: new Set(['az1', 'az2']),
      hosts: new Set([p.index.hostOf.get(holders[0] ?? '') ?? '']),
    };
    for (const start of [autoExpansion(p.summary, CANVAS), opened]) {
      const e = focusVolume(start, p.summary, risk.volumeId, p.index.hostOf);
      const { view, layout } = draw(t, e);
      const drawn = new Set(drawnIds(view));
      const ids = focusIds(p.summary, risk.volumeId);
      expect(ids.length).toBeGreaterThan(10);
      for (const id of ids) expect(drawn.has(id), id).toBe(true);
      // Every holder is framed, or (too many to read at once) the volume and its writers, legibly.
      const fallback = [nodeId.volume(risk.volumeId), ...risk.serverIds.map(nodeId.server)];
      const v = frameLegibly(layout, ids, fallback, CANVAS);
      if (!v) throw new Error('nothing framed');
      expect(onScreen(layout, v.zoom >= LEGIBLE_ZOOM && onScreen(layout, ids, v) ? ids : fallback, v)).toBe(
        true,
      );
    }
  });

  it('frames every holder legibly when they are on a few hosts, across zones', () => {
    // 40 hosts in two zones; one volume held by four servers on three hosts, two of them writers.
    const t = generateTopology({
      servers: 2000,
      hosts: 40,
      perServer: 1,
      volumes: 400,
      rwShare: 0,
      stuckShare: 0,
    });
    const holders = [t.hosts[0], t.hosts[0], t.hosts[7], t.hosts[30]].map((h, i) => h?.serverIds[i] ?? '');
    t.volumes.push({
      id: 'vol-focus',
      name: 'focus',
      status: 'in-use',
      shared: true,
      projectId: null,
      rw: 2,
      ro: 2,
    });
    holders.forEach((serverId, i) => {
      t.edges.push({
        serverId,
        volumeId: 'vol-focus',
        mode: i < 2 ? 'rw' : 'ro',
        state: 'attached',
        device: null,
        since: null,
      });
    });
    t.risks.push({
      kind: 'multiple_writers',
      volumeId: 'vol-focus',
      serverIds: holders.slice(0, 2),
      message: '',
    });
    const p = prepareTopology(t);
    const e = focusVolume(autoExpansion(p.summary, CANVAS), p.summary, 'vol-focus', p.index.hostOf);
    const { layout } = draw(t, e);
    const ids = focusIds(p.summary, 'vol-focus');
    expect(ids).toHaveLength(5);
    const v = frameLegibly(layout, ids, undefined, CANVAS);
    if (!v) throw new Error('nothing framed');
    expect(v.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(onScreen(layout, ids, v)).toBe(true);
  });
});

describe('Find', () => {
  it('draws a match folded deep in a zone and frames it legibly', () => {
    const t = generateTopology({ servers: 5000 });
    const p = prepareTopology(t);
    const start = autoExpansion(p.summary, CANVAS);
    const match = nodeId.server(t.servers[3210]?.id ?? '');
    expect(drawnNodeOf(match, viewItems(p.summary, start), p.summary)).toMatch(/^zone:/);
    const e = reveal(start, p.summary, match);
    const drawn = drawnNodeOf(match, viewItems(p.summary, e), p.summary);
    expect(drawn).toBe(match);
    const { layout } = draw(t, e);
    const v = frameLegibly(layout, [match], undefined, CANVAS);
    if (!v) throw new Error('nothing framed');
    expect(v.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(onScreen(layout, [match], v)).toBe(true);
  });

  it('opens the zone of a host that matches', () => {
    const { summary } = prepareTopology(generateTopology({ servers: 5000 }));
    const e = reveal(collapsedAll(true), summary, 'host:compute-8');
    expect([...e.zones]).toEqual([summary.host.get('compute-8')?.zone]);
    expect(drawnNodeOf('host:compute-8', viewItems(summary, e), summary)).toBe('host:compute-8');
  });
});
