import { EdgeLabelRenderer, type EdgeProps, getBezierPath } from '@xyflow/react';
import { memo } from 'react';
import { edgeLook } from '../model/edge-style';
import type { AttachmentEdge } from '../model/flow-elements';
import { useLegible } from './legibility';

/** One line: its look says the mode and state; a stuck one also carries a text label. */
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
  const [path, labelX, labelY] = getBezierPath({
    sourceX: data?.fromX ?? sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
  });
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
      {data.stuck > 0 && legible && (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan absolute rounded bg-white px-1.5 py-0.5 text-xs font-semibold text-red-800 shadow-sm ring-1 ring-red-300"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            {data.state && data.count === 1
              ? `stuck: ${data.state}`
              : `${data.stuck.toLocaleString('en')} stuck`}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
