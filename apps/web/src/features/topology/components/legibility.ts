import { useStore } from '@xyflow/react';
import { LEGIBLE_ZOOM } from '../layout/dimensions';

/**
 * Whether text drawn at the graph's smallest font stays at least LEGIBLE_PX on screen at the
 * current zoom. Below it nodes and labels draw without text: nothing drawn is ever illegible.
 * Components re-render only when this flips, not on every zoom step.
 */
export const useLegible = () => useStore((s) => s.transform[2] >= LEGIBLE_ZOOM - 1e-9);
