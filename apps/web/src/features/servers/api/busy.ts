import type { Server } from '@sv/shared';
import { isTransitional } from '../../../components/ui/status';

export const BUSY_POLL_MS = 2_000;

/** BUILD, a task in progress (Nova's task_state), or an attachment on its way. */
export const serverBusy = (s: Server) =>
  isTransitional(s.status) || s.task !== null || s.attachments.some((a) => isTransitional(a.state));
