import type { Topology } from '@sv/shared';
import { describe, expect, it } from 'vitest';
import { prepareTopology } from '../api/get-topology';
import { LEGIBLE_PX, LEGIBLE_ZOOM, SMALLEST_FONT_PX } from '../layout/dimensions';
import { layoutView } from '../layout/view-layout';
import { firstViewport } from '../layout/viewport';
import { autoExpansion, type Canvas, fitsLegibly, leftWidthOn } from '../model/auto-expand';
import { buildView, collapsedAll, drawnIds } from '../model/view-model';
import { cloudOf60 } from '../testing/fixtures';
import { generateTopology } from '../testing/generate-topology';

/** The graph's canvas at 1440×900 (70vh beside the risk panel), a laptop's, a phone's. */
const DESKTOP: Canvas = { width: 908, height: 630 };
const LAPTOP: Canvas = { width: 700, height: 448 };
const PHONE: Canvas = { width: 356, height: 448 };

function firstView(t: Topology, canvas: Canvas) {
  const p = prepareTopology(t);
  const e = autoExpansion(p.summary, canvas);
  const view = buildView(p.topology, p.index, p.summary, e);
  const layout = layoutView(view, leftWidthOn(canvas));
  return { p, e, view, layout, viewport: firstViewport(layout, canvas), ids: drawnIds(view) };
}

describe('the first view', () => {
  it('at 60 servers draws every server holding a volume and every volume, and folds the rest', () => {
    const { p, view, ids, viewport } = firstView(cloudOf60(), DESKTOP);
    const servers = ids.filter((id) => id.startsWith('server:'));
    expect(servers).toHaveLength(24);
    expect(servers.every((id) => p.summary.hasVolumes.has(id.slice(7)))).toBe(true);
    expect(view.right.every((r) => r.kind === 'volume')).toBe(true);
    // The 36 batch servers: one "without volumes" chip per host.
    const folds = ids.filter((id) => id.startsWith('fold:'));
    expect(folds).toHaveLength(3);
    expect(viewport.zoom * SMALLEST_FONT_PX).toBeGreaterThanOrEqual(LEGIBLE_PX);
  });

  it('at 500 servers folds the hosts, with their volumes grouped beside them', () => {
    const { view, ids, viewport } = firstView(generateTopology({ servers: 500 }), DESKTOP);
    expect(ids.filter((id) => id.startsWith('server:'))).toEqual([]);
    expect(view.left.map((i) => `${i.kind}:${i.mode}`)).toEqual(Array(5).fill('host:collapsed'));
    expect(view.right.map((r) => r.kind)).toEqual(Array(5).fill('volumes'));
    expect(viewport.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
  });

  it('at 5,000 servers on 50 hosts folds them into their zones', () => {
    const { view, viewport } = firstView(generateTopology({ servers: 5000 }), DESKTOP);
    expect(view.left.map((i) => `${i.kind}:${i.mode}`)).toEqual(['zone:collapsed', 'zone:collapsed']);
    expect(viewport.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
  });

  it('opens more on a bigger screen, never less', () => {
    const t = generateTopology({ servers: 300, hosts: 12 });
    const drawn = (c: Canvas) => firstView(t, c).ids.length;
    expect(drawn({ width: 1700, height: 900 })).toBeGreaterThan(drawn(DESKTOP));
    expect(drawn(DESKTOP)).toBeGreaterThanOrEqual(drawn(LAPTOP));
  });

  it('is legible and on screen at every size: nothing under 11 px, the drawing inside the canvas', () => {
    const clouds = [
      smallOne(),
      cloudOf60(),
      ...[1, 60, 500, 2000, 5000].map((servers) => generateTopology({ servers })),
    ];
    for (const t of clouds) {
      for (const canvas of [DESKTOP, LAPTOP, PHONE, { width: 1880, height: 760 }]) {
        const { p, e, layout, viewport } = firstView(t, canvas);
        const label = `${t.servers.length} servers on ${canvas.width}×${canvas.height}`;
        expect(viewport.zoom * SMALLEST_FONT_PX, label).toBeGreaterThanOrEqual(LEGIBLE_PX);
        // Inside the canvas when the most folded view fits at all (a phone may not hold two zones).
        if (fitsLegibly(p.summary, { ...collapsedAll(e.groupZones) }, canvas)) {
          expect(fitsLegibly(p.summary, e, canvas), label).toBe(true);
          expect(viewport.x + layout.width * viewport.zoom, label).toBeLessThanOrEqual(canvas.width + 0.5);
          expect(viewport.y + layout.height * viewport.zoom, label).toBeLessThanOrEqual(canvas.height + 0.5);
          expect(viewport.x, label).toBeGreaterThanOrEqual(0);
          expect(viewport.y, label).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('opens the risky host first when not every host fits', () => {
    const t = generateTopology({ servers: 120, hosts: 6, rwShare: 0, stuckShare: 0 });
    // One stuck attachment, on a server of the last host.
    const last = t.hosts[5]?.serverIds[0] ?? '';
    const edge = t.edges.find((e) => e.serverId === last);
    if (!edge) throw new Error('no edge');
    edge.state = 'attaching';
    t.risks.push({
      kind: 'stuck_attachment',
      volumeId: edge.volumeId,
      serverIds: [last],
      message: 'stuck',
      attachmentId: edge.attachmentId ?? null,
      state: 'attaching',
      since: edge.since,
    });
    const { e } = firstView(t, DESKTOP);
    expect([...e.hosts]).toEqual([t.hosts[5]?.id]);
  });
});

function smallOne(): Topology {
  return generateTopology({ servers: 3, hosts: 1 });
}
