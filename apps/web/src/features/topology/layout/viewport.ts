import type { Viewport } from '@xyflow/react';
import type { Canvas } from '../model/auto-expand';
import { CONTROLS_GUTTER_PX, FIT_PADDING_PX, LEGIBLE_ZOOM, MAX_FIT_ZOOM } from './dimensions';
import type { Rect, ViewLayout } from './view-layout';

/** Where the canvas looks: pure functions of the layout and the canvas size, so tests can check them. */

/**
 * What the viewport should do once the graph has been laid out again (`n` changes every time):
 * - first: the first view (the whole graph fitted, at a legible zoom);
 * - keep: stay where it is;
 * - anchor: keep a box where it was on screen while it opens or folds, then bring it into view;
 * - frame: fit these nodes on screen ("Show in graph", Find); when they cannot be framed at a
 *   legible zoom and `fallback` can, frame `fallback` (the volume and the servers of its risk).
 */
export type ViewChange =
  | { kind: 'first' }
  | { kind: 'keep' }
  | { kind: 'anchor'; nodeId: string; before: Rect }
  | { kind: 'frame'; ids: string[]; fallback?: string[] };
export type ViewRequest = ViewChange & { n: number };

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 2;
/** Framing a volume with its holders never magnifies past this. */
const FRAME_MAX_ZOOM = 1.25;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The zoom that fits `box` on `canvas` with the padding, within bounds. */
export const fitZoom = (box: { w: number; h: number }, canvas: Canvas, lo: number, hi: number) =>
  clamp(
    Math.min(
      (canvas.width - 2 * FIT_PADDING_PX) / Math.max(1, box.w),
      (canvas.height - 2 * FIT_PADDING_PX) / Math.max(1, box.h),
    ),
    lo,
    hi,
  );

export const centred = (box: Rect, zoom: number, canvas: Canvas): Viewport => ({
  x: canvas.width / 2 - (box.x + box.w / 2) * zoom,
  y: canvas.height / 2 - (box.y + box.h / 2) * zoom,
  zoom,
});

/**
 * The first view: the whole drawing fitted and centred, never smaller than the legible zoom (the
 * fold rule made it fit there) nor larger than 100 %. If even the folded drawing is too big for
 * this canvas, its top left at the legible zoom.
 */
export function firstViewport(layout: Pick<ViewLayout, 'width' | 'height'>, canvas: Canvas): Viewport {
  const box = { x: 0, y: 0, w: layout.width, h: layout.height };
  // The zoom buttons sit on the left: the drawing goes right of them.
  const room = { width: canvas.width - CONTROLS_GUTTER_PX, height: canvas.height };
  const zoom = fitZoom(box, room, LEGIBLE_ZOOM, MAX_FIT_ZOOM);
  const v = centred(box, zoom, room);
  const fits = (size: number, space: number) => size * zoom <= space - 2 * FIT_PADDING_PX + 0.5;
  return {
    x: CONTROLS_GUTTER_PX + (fits(box.w, room.width) ? v.x : FIT_PADDING_PX),
    y: fits(box.h, room.height) ? v.y : FIT_PADDING_PX,
    zoom,
  };
}

/** The viewport framing every box in `ids` (those drawn), or null when none is. */
export function frameViewport(layout: ViewLayout, ids: readonly string[], canvas: Canvas): Viewport | null {
  // A server comes with its host box: the host's name is part of what has to be read.
  const hostOf = new Map(
    layout.nodes.flatMap((n) => (n.parent?.startsWith('host:') ? [[n.id, n.parent] as const] : [])),
  );
  const rects = ids
    .map((id) => layout.abs.get(hostOf.get(id) ?? id))
    .filter((r): r is Rect => r !== undefined);
  if (rects.length === 0) return null;
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  const box = {
    x,
    y,
    w: Math.max(...rects.map((r) => r.x + r.w)) - x,
    h: Math.max(...rects.map((r) => r.y + r.h)) - y,
  };
  // Right of the zoom buttons, as the first view.
  const room = { width: canvas.width - CONTROLS_GUTTER_PX, height: canvas.height };
  let zoom = fitZoom(box, room, MIN_ZOOM, FRAME_MAX_ZOOM);
  // Just short of legible because of the margin: give up some margin rather than legibility.
  const tight = Math.min(room.width / Math.max(1, box.w), room.height / Math.max(1, box.h));
  if (zoom < LEGIBLE_ZOOM && tight >= LEGIBLE_ZOOM) zoom = LEGIBLE_ZOOM;
  const v = centred(box, zoom, room);
  return { ...v, x: v.x + CONTROLS_GUTTER_PX };
}

/** frameViewport of `ids`, or of `fallback` when only that one keeps text legible. */
export function frameLegibly(
  layout: ViewLayout,
  ids: readonly string[],
  fallback: readonly string[] | undefined,
  canvas: Canvas,
): Viewport | null {
  const all = frameViewport(layout, ids, canvas);
  if (!all || all.zoom >= LEGIBLE_ZOOM || !fallback?.length) return all;
  const some = frameViewport(layout, fallback, canvas);
  return some && some.zoom >= LEGIBLE_ZOOM ? some : all;
}

/** Keeps `before` (a box's old place) where it was on screen, then scrolls the box into view. */
export function anchoredViewport(v: Viewport, before: Rect, after: Rect, canvas: Canvas): Viewport {
  const x = v.x + (before.x - after.x) * v.zoom;
  let y = v.y + (before.y - after.y) * v.zoom;
  const top = y + after.y * v.zoom;
  const bottom = top + after.h * v.zoom;
  const overflow = bottom - (canvas.height - FIT_PADDING_PX);
  if (overflow > 0) y -= Math.min(overflow, top - FIT_PADDING_PX);
  return { x, y, zoom: v.zoom };
}
