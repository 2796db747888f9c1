import { type Attachment, isLiveHoldState } from '@sv/shared';

/** A hold that has ended or failed no longer gives the server the disk. */
export const liveHold = (a: Attachment) => isLiveHoldState(a.state);

/** "2 volumes · 1 RW, 1 RO" for a server's attachments. */
export function holdsOf(attachments: Attachment[]): { count: number; text: string | null } {
  const live = attachments.filter(liveHold);
  if (live.length === 0) return { count: 0, text: null };
  const rw = live.filter((a) => a.mode === 'rw').length;
  const ro = live.length - rw;
  const modes = [rw && `${rw} RW`, ro && `${ro} RO`].filter(Boolean).join(', ');
  return { count: live.length, text: `${live.length} volume${live.length === 1 ? '' : 's'} · ${modes}` };
}
