import { type Attachment, isLiveHoldState, isServerHold } from '@sv/shared';

/** A hold that has ended or failed no longer gives a server the disk. */
export const liveHold = (a: Attachment) => isLiveHoldState(a.state);

/**
 * A Cinder attachment record that the compute service does not list on the server it names.
 * Anyone who can see a volume can create one naming any server: it is nobody's hold.
 */
export const strayRecord = (a: Attachment) => a.knownToCompute === false;

/** A live hold by a server: what the counts and writer warnings are about. */
export const serverHold = (a: Attachment) => isServerHold(a);

/** "3 servers · 2 RW, 1 RO" — how many servers hold the volume and in which modes. */
export function holdsSummary(attachments: Attachment[]): string | null {
  const live = attachments.filter(serverHold);
  if (live.length === 0) return null;
  const servers = new Set(live.map((a) => a.serverId)).size;
  const rw = live.filter((a) => a.mode === 'rw').length;
  const ro = live.length - rw;
  const modes = [rw && `${rw} RW`, ro && `${ro} RO`].filter(Boolean).join(', ');
  return `${servers} server${servers === 1 ? '' : 's'} · ${modes}`;
}

/** Servers holding the volume read-write. */
export const writerCount = (attachments: Attachment[]) =>
  attachments.filter((a) => serverHold(a) && a.mode === 'rw').length;
