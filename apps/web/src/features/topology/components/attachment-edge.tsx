import { EdgeLabelRenderer, type EdgeProps, getBezierPath } from '@xyflow/react';
import { memo } from 'react';
import { edgeLook } from '../model/edge-style';
import type { AttachmentEdge } from '../model/flow-elements';
import { useLegible } from './legibility';

/** A point of React Flow's bezier from a right handle to a left one (control points half-way out). */
function bezierPoint(sx: number, sy: number, tx: number, ty: number, t: number): [number, number] {
  const d = Math.abs(tx - sx) * 0.5;
  const u = 1 - t;
  const x = u * u * u * sx + 3 * u * u * t * (sx + d) + 3 * u * t * t * (tx - d) + t * t * t * tx;
  const y = u * u * u * sy + 3 * u * u * t * sy + 3 * u * t * t * ty + t * t * t * ty;
  return [x, y];
}

/**
 * One line: its look says the mode and state; a stuck attachment also carries a text label. A merged
 * line (several attachments between folded boxes) says its counts in its accessible name.
 */
export const AttachmentEdgeView = memo(function AttachmentEdgeView({
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  data,
}: EdgeProps<AttachmentEdge>) {
  const legible = useLegible();
  const fromX = data?.fromX ?? sourceX;
  const [path] = getBezierPath({ sourceX: fromX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  // The label sits a quarter of the way along, near the server: lines into one volume meet at its
  // end, so labels at their middles would pile up there.
  const [labelX, labelY] = bezierPoint(fromX, sourceY, targetX, targetY, 0.25);
  if (!data) return null;
  const look = edgeLook(data);
  return (
    <>
      <path
        d={path}
        fill="none"
        stroke={look.stroke}
        strokeWidth={look.width}
        strokeDasharray={look.dash}
        strokeOpacity={look.opacity === 1 ? undefined : look.opacity}
        strokeLinecap="round"
        data-mode={data.mode}
        data-state={data.state ?? undefined}
        data-count={data.count}
      />
      {data.stuck > 0 && data.state !== null && legible && (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan absolute rounded bg-white px-1.5 py-0.5 text-xs font-semibold text-red-800 shadow-sm ring-1 ring-red-300"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            stuck: {data.state}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
