import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareTopology } from '../api/get-topology';
import { EDGE_GAP, STACK_GAP, VOLUME_H, VOLUME_W } from '../layout/dimensions';
import { layoutView, type Rect, viewSize } from '../layout/view-layout';
import { NO_HOST, nodeId } from '../model/topology-model';
import { buildView, type Expansion } from '../model/view-model';
import { cloudOf60 } from '../testing/fixtures';
import { generateTopology } from '../testing/generate-topology';

const t = generateTopology({ servers: 240, hosts: 6 });
const p = prepareTopology(t);
const hostIds = [...t.hosts.map((h) => h.id), NO_HOST];
const arbitraryExpansion = fc.record({
  groupZones: fc.boolean(),
  zones: fc.subarray(['az1', 'az2']).map((x) => new Set(x)),
  hosts: fc.subarray(hostIds).map((x) => new Set(x)),
  unfolded: fc.subarray(hostIds).map((x) => new Set(x)),
  pinned: fc
    .subarray(
      [
        ...t.servers.slice(0, 40).map((s) => nodeId.server(s.id)),
        ...t.volumes.slice(0, 10).map((v) => nodeId.volume(v.id)),
      ],
      { maxLength: 8 },
    )
    .map((x) => new Set(x)),
  unattachedShown: fc.boolean(),
});
const widths = fc.constantFrom(240, 400, 510, 640);

const inside = (c: Rect, p: Rect) =>
  c.x >= p.x - 1e-6 && c.y >= p.y - 1e-6 && c.x + c.w <= p.x + p.w + 1e-6 && c.y + c.h <= p.y + p.h + 1e-6;
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('the view layout', () => {
  it('puts every volume and group of volumes in one column on the right of every host', () => {
    fc.assert(
      fc.property(arbitraryExpansion, widths, (e: Expansion, leftWidth) => {
        const view = buildView(p.topology, p.index, p.summary, e);
        const layout = layoutView(view, leftWidth);
        const right = new Set(view.right.map((r) => r.id));
        for (const n of layout.nodes) {
          const box = layout.abs.get(n.id);
          if (!box) throw new Error(n.id);
          if (right.has(n.id)) {
            expect(box.x).toBe(leftWidth + EDGE_GAP);
            expect(box.w).toBe(VOLUME_W);
          } else {
            expect(box.x + box.w).toBeLessThanOrEqual(leftWidth + 1e-6);
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it('keeps children inside their boxes, nothing overlapping, and the size it announces', () => {
    fc.assert(
      fc.property(arbitraryExpansion, widths, (e: Expansion, leftWidth) => {
        const view = buildView(p.topology, p.index, p.summary, e);
        const layout = layoutView(view, leftWidth);
        const siblings = new Map<string | null, Rect[]>();
        let maxX = 0;
        let maxY = 0;
        for (const n of layout.nodes) {
          const box = layout.abs.get(n.id) as Rect;
          if (n.parent)
            expect(inside(box, layout.abs.get(n.parent) as Rect), `${n.id} in ${n.parent}`).toBe(true);
          const others = siblings.get(n.parent) ?? [];
          if (others.some((o) => overlap(box, o))) throw new Error(`${n.id} overlaps a sibling`);
          others.push(box);
          siblings.set(n.parent, others);
          maxX = Math.max(maxX, box.x + box.w);
          maxY = Math.max(maxY, box.y + box.h);
        }
        // The fit rule judges expansions by viewSize without laying them out: it must be exact.
        const size = viewSize(view, leftWidth);
        expect(size).toEqual({ width: layout.width, height: layout.height });
        expect(maxX).toBeCloseTo(layout.width, 6);
        expect(maxY).toBeCloseTo(layout.height, 6);
      }),
      { numRuns: 30 },
    );
  }, 30_000);

  it("places a volume beside its holders and each host's servers by where their volumes are", () => {
    const q = prepareTopology(cloudOf60());
    const e: Expansion = {
      groupZones: false,
      zones: new Set(),
      hosts: new Set(['compute-1', 'compute-2', 'compute-3']),
      unfolded: new Set(),
      pinned: new Set(),
      unattachedShown: false,
    };
    const layout = layoutView(buildView(q.topology, q.index, q.summary, e), 510);
    const mid = (id: string) => {
      const r = layout.abs.get(id) as Rect;
      return r.y + r.h / 2;
    };
    // db-data's two writers are on two hosts; it sits between them, no higher than the first.
    const db = mid(nodeId.volume('vol-db-data'));
    const writers = ['srv-db-1', 'srv-db-2'].map((s) => mid(nodeId.server(s))).sort((a, b) => a - b);
    expect(db).toBeGreaterThanOrEqual((writers[0] ?? 0) - VOLUME_H);
    expect(db).toBeLessThanOrEqual((writers[1] ?? 0) + VOLUME_H + STACK_GAP);
  });
});
