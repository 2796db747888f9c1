import type { Volume } from '@sv/shared';
import { isTransitional } from '../../../components/ui/status';

/** How often to re-ask while something is on its way (Horizon polls at 2.5 s). */
export const BUSY_POLL_MS = 2_000;

export const volumeBusy = (v: Volume) =>
  isTransitional(v.status) || v.attachments.some((a) => isTransitional(a.state));
