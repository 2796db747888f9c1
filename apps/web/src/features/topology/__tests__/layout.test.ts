import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { describe, expect, it, vi } from 'vitest';
import { indexTopology, toLayoutInput } from '../model/topology-model';
import { generateTopology } from '../testing/generate-topology';
import { SERVER_H, SERVER_W, VOLUME_H, VOLUME_W } from '../layout/dimensions';
import {
  columnsLayout,
  countCrossings,
  ELK_MAX_EDGES,
  type ElkLike,
  elkLayout,
  elkSize,
  initialOrder,
  layoutTopology,
  place,
  refineOrder,
  toElkGraph,
} from '../layout/layout';
import type { LayoutInput, LayoutResult } from '../layout/layout-types';

const inputFor = (servers: number, opts: Parameters<typeof generateTopology>[0] | object = {}) => {
  const t = generateTopology({ servers, ...opts });
  return toLayoutInput(t, indexTopology(t));
};

/** Checks every server sits inside its host's box, boxes and volumes never overlap. */
function expectWellFormed(input: LayoutInput, r: LayoutResult) {
  expect(r.servers).toHaveLength(input.servers.length);
  expect(r.volumes).toHaveLength(input.volumes.length);
  const boxes = new Map(r.hosts.map((h) => [h.id, h]));
  const hostOf = new Map(input.servers.map((s) => [s.id, s.host]));
  for (const s of r.servers) {
    expect(s.host).toBe(hostOf.get(s.id));
    const box = boxes.get(s.host);
    expect(box).toBeDefined();
    if (!box) continue;
    expect(s.x).toBeGreaterThanOrEqual(0);
    expect(s.y).toBeGreaterThanOrEqual(0);
    expect(s.x + SERVER_W).toBeLessThanOrEqual(box.width);
    expect(s.y + SERVER_H).toBeLessThanOrEqual(box.height);
  }
  // No two boxes (hosts, volumes) overlap anywhere, and each volume is right of some host.
  const rects = [
    ...r.hosts.map((h) => ({ x: h.x, y: h.y, w: h.width, h: h.height })),
    ...r.volumes.map((v) => ({ x: v.x, y: v.y, w: VOLUME_W, h: VOLUME_H })),
  ].sort((a, b) => a.x - b.x);
  for (let i = 0; i < rects.length; i++) {
    const a = rects[i];
    for (let j = i + 1; a && j < rects.length; j++) {
      const b = rects[j];
      if (!b || b.x >= a.x + a.w) break;
      const overlap = b.y < a.y + a.h && a.y < b.y + b.h;
      expect(overlap, `boxes overlap at ${a.x},${a.y} and ${b.x},${b.y}`).toBe(false);
    }
  }
  const leftmost = Math.min(...r.hosts.map((h) => h.x + h.width));
  for (const v of r.volumes) expect(v.x).toBeGreaterThan(leftmost);
  expect(r.width).toBeGreaterThanOrEqual(Math.max(...r.volumes.map((v) => v.x + VOLUME_W), 0));
  expect(r.height).toBeGreaterThanOrEqual(Math.max(...r.hosts.map((h) => h.y + h.height)));
}

/** Crossings between server->volume edges, using each node's absolute y. */
function crossings(input: LayoutInput, r: Pick<LayoutResult, 'hosts' | 'servers' | 'volumes'>): number {
  const hostY = new Map(r.hosts.map((h) => [h.id, h.y]));
  const sy = new Map(r.servers.map((s) => [s.id, (hostY.get(s.host) ?? 0) + s.y]));
  const vy = new Map(r.volumes.map((v) => [v.id, v.y]));
  const e = input.edges.map((x) => [sy.get(x.server) ?? 0, vy.get(x.volume) ?? 0] as const);
  let n = 0;
  for (let i = 0; i < e.length; i++) {
    for (let j = i + 1; j < e.length; j++) {
      const a = e[i];
      const b = e[j];
      if (a && b && (a[0] - b[0]) * (a[1] - b[1]) < 0) n++;
    }
  }
  return n;
}

describe('columns layout', () => {
  it('packs servers inside their host boxes and volumes in their own column', () => {
    const input = inputFor(120, { hosts: 4 });
    const r = columnsLayout(input);
    expect(r.algorithm).toBe('columns');
    expectWellFormed(input, r);
  });

  it('is deterministic', () => {
    const input = inputFor(300);
    expect(columnsLayout(input).servers).toEqual(columnsLayout(input).servers);
    expect(columnsLayout(input).volumes).toEqual(columnsLayout(input).volumes);
  });

  it('cuts crossings compared with name order', () => {
    // Small enough for one band, where crossings can be counted by height.
    const input = inputFor(60, { hosts: 3, seed: 7 });
    const naive = place(initialOrder(input), input);
    const refined = columnsLayout(input);
    const asResult = { ...refined, hosts: naive.hosts, servers: naive.servers, volumes: naive.volumes };
    expect(crossings(input, refined)).toBeLessThan(crossings(input, asResult));
  });

  it('keeps hosts without servers and servers without a host', () => {
    const input: LayoutInput = {
      hosts: [
        { id: 'empty', serverCount: 0 },
        { id: 'h1', serverCount: 1 },
        { id: 'none', serverCount: 1 },
      ],
      servers: [
        { id: 's1', name: 'a', host: 'h1' },
        { id: 's2', name: 'b', host: 'none' },
      ],
      volumes: [{ id: 'v1', name: 'v' }],
      edges: [
        { server: 's1', volume: 'v1' },
        { server: 's2', volume: 'v1' },
      ],
    };
    const r = columnsLayout(input);
    expect(r.hosts.map((h) => h.id)).toEqual(['empty', 'h1', 'none']);
    expectWellFormed(input, r);
  });

  it('lays out 5,000 servers and 20,000 attachments in well under a second', () => {
    const input = inputFor(5000);
    expect(input.edges).toHaveLength(20_000);
    const started = performance.now();
    const r = columnsLayout(input);
    // Generous for a loaded CI box; typically ~50 ms.
    expect(performance.now() - started).toBeLessThan(1500);
    expectWellFormed(input, r);
    // Wrapped into bands: about a screen's shape, not a 60,000 px column.
    const bands = new Set(r.hosts.map((h) => h.x)).size;
    expect(bands).toBeGreaterThan(3);
    expect(r.width / r.height).toBeGreaterThan(0.8);
    expect(r.width / r.height).toBeLessThan(3);
  });
});

describe('elk layered layout', () => {
  const elk = new ELK();

  it('orders hosts and volumes with elk, keeps servers in their hosts, never adds crossings', async () => {
    for (const seed of [1, 2, 3]) {
      const input = inputFor(60, { hosts: 4, volumes: 15, seed });
      const r = await elkLayout(input, elk);
      expectWellFormed(input, r);
      expect(r.reason).toMatch(/crossings/);
      const sweeps = refineOrder(initialOrder(input), input);
      // Whichever order it kept, the drawing has no more crossings than the sweeps alone.
      expect(crossings(input, r)).toBeLessThanOrEqual(crossings(input, place(sweeps, input)));
    }
  }, 60_000);

  it('counts crossings like the pairwise definition', () => {
    const input = inputFor(40, { hosts: 3, volumes: 10, seed: 4 });
    const order = initialOrder(input);
    expect(countCrossings(order, input)).toBe(crossings(input, place(order, input)));
  });

  it('lays out the host-volume graph, not every server', () => {
    const input = inputFor(60, { hosts: 4, volumes: 15 });
    const g = toElkGraph(input);
    expect(g.children).toHaveLength(4 + 15);
    expect(elkSize(input)).toEqual({ nodes: 19, edges: g.edges?.length });
    expect(g.edges?.length).toBeLessThanOrEqual(4 * 15);
  });

  it('is used for small graphs, skipped for big ones', async () => {
    const small = inputFor(20, { hosts: 2 });
    const spy = { layout: vi.fn((g: ElkNode) => elk.layout(g)) };
    expect((await layoutTopology(small, { elk: spy })).algorithm).toBe('elk-layered');
    expect(spy.layout).toHaveBeenCalledTimes(1);

    const big = inputFor(2000);
    expect(elkSize(big).edges).toBeGreaterThan(ELK_MAX_EDGES);
    const never: ElkLike = { layout: vi.fn(() => Promise.reject(new Error('not expected'))) };
    const phases: string[] = [];
    const r = await layoutTopology(big, { elk: never, onPhase: (p) => phases.push(p) });
    expect(r.algorithm).toBe('columns');
    expect(r.reason).toMatch(/over elk's budget/);
    expect(never.layout).not.toHaveBeenCalled();
    expect(phases).toEqual(['columns']);
  }, 30_000);

  it('falls back to columns when elk fails', async () => {
    const broken: ElkLike = { layout: () => Promise.reject(new Error('boom')) };
    const r = await layoutTopology(inputFor(10), { elk: broken });
    expect(r.algorithm).toBe('columns');
    expect(r.reason).toBe('elk failed: boom');
  });
});
