import { EDGE_LOOKS, type EdgeLook } from '../model/edge-style';
import { ClockIcon, WarningIcon } from './icons';

function Line({ look, width = look.width }: { look: EdgeLook; width?: number }) {
  return (
    <svg width="36" height="10" aria-hidden="true" className="shrink-0">
      <line
        x1="2"
        y1="5"
        x2="34"
        y2="5"
        stroke={look.stroke}
        strokeWidth={width}
        strokeDasharray={look.dash}
        strokeLinecap="round"
      />
    </svg>
  );
}

/** What the lines, boxes and marks mean, in words (never colour alone). */
export function GraphLegend() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">
      <h2 className="sr-only">Legend</h2>
      <ul className="flex flex-wrap items-center gap-x-5 gap-y-1 text-xs text-slate-800">
        <li className="flex items-center gap-1.5">
          <Line look={EDGE_LOOKS.rw} />
          Read-write (solid)
        </li>
        <li className="flex items-center gap-1.5">
          <Line look={EDGE_LOOKS.ro} />
          Read-only (dashed)
        </li>
        <li className="flex items-center gap-1.5">
          <Line look={EDGE_LOOKS.mixed} width={4} />
          Several attachments between folded boxes (grey if mixed, thicker for more; the boxes count the stuck
          ones)
        </li>
        <li className="flex items-center gap-1.5">
          <Line look={EDGE_LOOKS.pending} />
          Attaching or detaching (dotted)
        </li>
        <li className="flex items-center gap-1.5">
          <Line look={EDGE_LOOKS.stuck} />
          Stuck (thick dotted, labelled)
        </li>
        <li className="flex items-center gap-1.5">
          <WarningIcon className="h-3.5 w-3.5 text-red-800" />
          Several writers on one volume
        </li>
        <li className="flex items-center gap-1.5">
          <ClockIcon className="h-3.5 w-3.5 text-red-800" />
          Attachment stuck in a transitional state
        </li>
        <li className="text-slate-700">
          Hosts and zones on the left hold their servers; volumes are on the right. What does not fit legibly
          is folded into a box with its counts and risks.
        </li>
      </ul>
    </div>
  );
}
