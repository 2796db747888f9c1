import type { TopologyQuery } from '@sv/shared';
import { useMemo, useRef, useState } from 'react';
import type { PreparedTopology } from '../api/get-topology';
import { layoutView, type ViewLayout } from '../layout/view-layout';
import type { ViewChange, ViewRequest } from '../layout/viewport';
import { autoExpansion, type Canvas, leftWidthOn } from '../model/auto-expand';
import { anchorOf, drawnNodeOf, focusIds, focusVolume, reveal, toggle } from '../model/expansion';
import { nodeId } from '../model/topology-model';
import { buildView, type Expansion, type ViewGraph, viewItems } from '../model/view-model';

type UserView = { signature: string; expansion: Expansion; request: ViewRequest };

export interface GraphView {
  view: ViewGraph | null;
  layout: ViewLayout | null;
  /** What the canvas should do after this render (applied once per `n`). */
  request: ViewRequest;
  /** Opens or folds a zone, host, fold chip or group, keeping it where it was on screen. */
  toggle(nodeId: string): void;
  /** "Show in graph": the volume and its holders drawn and framed (else the risk's servers). */
  focus(volumeId: string, riskServerIds: readonly string[]): void;
  /** Find: draws a match wherever it is folded and frames it; returns the node drawing it. */
  reveal(itemId: string): string | null;
  /** Back to the first view. */
  reset(): void;
}

/**
 * What the graph draws and where its viewport goes: the first view (as much opened as fits the
 * canvas legibly) until the user opens or folds something, then theirs, for as long as the filters
 * stay the same (a refresh or a live update keeps it, and does not move the viewport).
 */
export function useGraphView(
  data: PreparedTopology | undefined,
  filters: TopologyQuery,
  canvas: Canvas | null,
): GraphView {
  const signature = JSON.stringify(filters);
  const summary = data?.summary ?? null;
  // Requests to the viewport are numbered so the graph applies each once.
  const counter = useRef(0);
  const [user, setUser] = useState<UserView | null>(null);
  const [resets, setResets] = useState(0);
  const own = user && user.signature === signature ? user : null;
  const auto = useMemo(() => (summary && canvas ? autoExpansion(summary, canvas) : null), [summary, canvas]);
  // A new first view when the filters, the canvas's size or a reset ask for one; not for new data.
  const canvasKey = canvas ? `${canvas.width}x${canvas.height}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: these three are what asks for a new first view
  const autoRequest = useMemo(
    (): ViewRequest => ({ kind: 'first', n: ++counter.current }),
    [signature, canvasKey, resets],
  );
  const expansion = own?.expansion ?? auto;
  const request = own?.request ?? autoRequest;

  const view = useMemo(
    () => (data && expansion ? buildView(data.topology, data.index, data.summary, expansion) : null),
    [data, expansion],
  );
  const layout = useMemo(
    () => (view && canvas ? layoutView(view, leftWidthOn(canvas)) : null),
    [view, canvas],
  );

  const change = (next: Expansion, req: ViewChange) =>
    setUser({ signature, expansion: next, request: { ...req, n: ++counter.current } });

  return {
    view,
    layout,
    request,
    toggle(id) {
      if (!expansion || !summary) return;
      const anchor = anchorOf(id);
      const before = anchor ? layout?.abs.get(anchor) : undefined;
      change(
        toggle(expansion, summary, id),
        anchor && before ? { kind: 'anchor', nodeId: anchor, before } : { kind: 'keep' },
      );
    },
    focus(volumeId, riskServerIds) {
      if (!expansion || !data) return;
      change(focusVolume(expansion, data.summary, volumeId, data.index.hostOf), {
        kind: 'frame',
        ids: focusIds(data.summary, volumeId),
        fallback: [nodeId.volume(volumeId), ...riskServerIds.map(nodeId.server)],
      });
    },
    reveal(itemId) {
      if (!expansion || !summary) return null;
      const next = reveal(expansion, summary, itemId);
      const drawn = drawnNodeOf(itemId, viewItems(summary, next), summary);
      change(next, drawn ? { kind: 'frame', ids: [drawn] } : { kind: 'keep' });
      return drawn;
    },
    reset() {
      setUser(null);
      setResets((r) => r + 1);
    },
  };
}
