import { describe, expect, it } from 'vitest';
import { columnsLayout } from '../layout/layout';
import { edgeLook } from '../model/edge-style';
import { buildFlowElements, emphasise } from '../model/flow-elements';
import {
  indexTopology,
  NO_HOST,
  searchTopology,
  shapeSignature,
  toLayoutInput,
} from '../model/topology-model';
import { smallTopology } from '../testing/fixtures';

function build() {
  const t = smallTopology();
  const index = indexTopology(t);
  const input = toLayoutInput(t, index);
  return { t, index, input, flow: buildFlowElements(t, index, columnsLayout(input)) };
}

describe('topology model', () => {
  it('puts unplaced servers in their own group, after the hosts', () => {
    const { input, index } = build();
    expect(index.hostOf.get('srv-build-1')).toBe(NO_HOST);
    expect(input.hosts.map((h) => h.id)).toEqual(['compute-1', 'compute-2', NO_HOST]);
  });

  it('indexes the risks', () => {
    const { index } = build();
    expect([...index.multipleWriters]).toEqual(['vol-shared']);
    expect(index.stuckServers.has('srv-web-2')).toBe(true);
    expect(index.stuckVolumes.has('vol-scratch')).toBe(true);
  });

  it('keeps the signature when only states change', () => {
    const { t, index, input } = build();
    const changed = { ...t, edges: t.edges.map((e) => ({ ...e, state: 'attached' })) };
    expect(shapeSignature(toLayoutInput(changed, indexTopology(changed)))).toBe(shapeSignature(input));
    const fewer = { ...t, edges: t.edges.slice(1) };
    expect(shapeSignature(toLayoutInput(fewer, index))).not.toBe(shapeSignature(input));
  });

  it('searches names and ids', () => {
    const { t } = build();
    expect(searchTopology(t, 'WEB')).toEqual(['server:srv-web-1', 'server:srv-web-2']);
    expect(searchTopology(t, 'vol-logs')).toEqual(['volume:vol-logs']);
    expect(searchTopology(t, 'compute-2')).toEqual(['host:compute-2']);
    expect(searchTopology(t, '  ')).toEqual([]);
  });
});

describe('flow elements', () => {
  it('gives read-write and read-only edges different styles', () => {
    const { flow } = build();
    const rw = flow.edges.find((e) => e.source === 'server:srv-web-1');
    const ro = flow.edges.find((e) => e.target === 'volume:vol-logs');
    expect(rw?.className).toContain('sv-edge-rw');
    expect(ro?.className).toContain('sv-edge-ro');
    if (!rw?.data || !ro?.data) throw new Error('edges missing');
    expect(edgeLook(rw.data).dash).toBeUndefined();
    expect(edgeLook(ro.data).dash).toBe('8 5');
    expect(edgeLook(rw.data).stroke).not.toBe(edgeLook(ro.data).stroke);
    expect(rw.ariaLabel).toBe('web-1 to shared-data, read-write, attached');
  });

  it('marks the stuck attachment and the volume with several writers', () => {
    const { flow } = build();
    const stuck = flow.edges.find((e) => e.target === 'volume:vol-scratch');
    expect(stuck?.data).toMatchObject({ stuck: true, pending: false, state: 'attaching' });
    expect(stuck?.className).toContain('sv-edge-stuck');
    const shared = flow.nodes.find((n) => n.id === 'volume:vol-shared');
    expect(shared?.type === 'volume' && shared.data.multipleWriters).toBe(true);
    expect(shared?.ariaLabel).toContain('warning: several writers');
    const web2 = flow.nodes.find((n) => n.id === 'server:srv-web-2');
    expect(web2?.type === 'server' && web2.data.stuck).toBe(true);
  });

  it('nests servers in their host and flags hosts', () => {
    const { flow } = build();
    expect(flow.nodes.find((n) => n.id === 'server:srv-db-1')?.parentId).toBe('host:compute-2');
    const host2 = flow.nodes.find((n) => n.id === 'host:compute-2');
    expect(host2?.type === 'host' && host2.data.flags.map((f) => f.label)).toEqual(['no read-only']);
    // Parents come before their children.
    const order = flow.nodes.map((n) => n.id);
    expect(order.indexOf('host:compute-1')).toBeLessThan(order.indexOf('server:srv-web-1'));
  });

  it('emphasises only what changes and leaves the rest untouched', () => {
    const { flow } = build();
    const marked = emphasise(flow, new Set(['server:srv-db-1']), 'volume:vol-logs');
    const db = marked.nodes.find((n) => n.id === 'server:srv-db-1');
    expect(db?.data).toMatchObject({ matched: true, active: true });
    const untouched = marked.nodes.find((n) => n.id === 'server:srv-web-1');
    expect(untouched).toBe(flow.nodes.find((n) => n.id === 'server:srv-web-1'));
    expect(marked.edges.filter((e) => e.data?.active).map((e) => e.target)).toEqual(['volume:vol-logs']);
    expect(emphasise(flow, new Set(), null)).toBe(flow);
  });
});
