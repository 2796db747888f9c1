import type { Attachment } from '@sv/shared';

/** A hold that has ended or failed no longer gives a server the disk. */
export const liveHold = (a: Attachment) =>
  a.state !== 'detached' && a.state !== 'deleted' && !a.state.startsWith('error');

/** "3 servers · 2 RW, 1 RO" — how many servers hold the volume and in which modes. */
export function holdsSummary(attachments: Attachment[]): string | null {
  const live = attachments.filter(liveHold);
  if (live.length === 0) return null;
  const servers = new Set(live.map((a) => a.serverId)).size;
  const rw = live.filter((a) => a.mode === 'rw').length;
  const ro = live.length - rw;
  const modes = [rw && `${rw} RW`, ro && `${ro} RO`].filter(Boolean).join(', ');
  return `${servers} server${servers === 1 ? '' : 's'} · ${modes}`;
}

export const writerCount = (attachments: Attachment[]) =>
  attachments.filter((a) => liveHold(a) && a.mode === 'rw').length;
