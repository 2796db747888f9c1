import type { AttachmentEdgeData } from './flow-elements';

export interface EdgeLook {
  stroke: string;
  width: number;
  /** SVG stroke-dasharray; undefined draws a solid line. */
  dash: string | undefined;
  opacity?: number;
}

// Colours match ModeBadge (RW orange, RO sky); each differs by dash pattern too, never by colour alone.
// All reach 3:1 against the white canvas (WCAG 1.4.11 for graphics).
export const EDGE_LOOKS = {
  rw: { stroke: '#c2410c', width: 1.75, dash: undefined },
  ro: { stroke: '#0369a1', width: 1.75, dash: '8 5' },
  mixed: { stroke: '#475569', width: 1.75, dash: undefined },
  pending: { stroke: '#475569', width: 1.75, dash: '1 5' },
  stuck: { stroke: '#b91c1c', width: 3, dash: '1 6' },
} satisfies Record<string, EdgeLook>;

/** A merged line grows with the attachments it stands for, slowly (1 more pixel per doubling). */
export const countWidth = (count: number) => Math.min(6, Math.log2(Math.max(1, count)));

export function edgeLook(
  data: Pick<AttachmentEdgeData, 'mode' | 'stuck' | 'pending' | 'writerRisk' | 'active'> & {
    count?: number;
    faint?: boolean;
  },
): EdgeLook {
  // A merged line (many attachments between two folded boxes) is drawn by its modes only: at
  // 5,000 servers nearly every one holds a stuck attachment, and the boxes at both ends count them.
  const single = (data.count ?? 1) === 1;
  const base =
    single && data.stuck
      ? EDGE_LOOKS.stuck
      : single && data.pending
        ? EDGE_LOOKS.pending
        : EDGE_LOOKS[data.mode];
  let width = base.width + countWidth(data.count ?? 1);
  if (data.writerRisk) width += 1;
  if (data.active) width += 1.5;
  const opacity = data.faint && !data.active && !data.stuck ? 0.35 : 1;
  return { ...base, width, opacity };
}
