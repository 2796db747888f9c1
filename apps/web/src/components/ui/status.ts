/**
 * Volume (Cinder), attachment and server (Nova) statuses that are on their way somewhere:
 * lists poll while any row is in one of these, and badges show them as "in progress".
 */
const TRANSITIONAL = new Set([
  // Cinder volume statuses
  'creating',
  'attaching',
  'detaching',
  'reserved',
  'deleting',
  'downloading',
  'uploading',
  'extending',
  'retyping',
  'backing-up',
  'restoring-backup',
  'maintenance',
  // Nova server statuses
  'build',
  'rebuild',
  'reboot',
  'hard_reboot',
  'resize',
  'migrating',
  'password',
]);

export function isTransitional(status: string | null | undefined): boolean {
  return !!status && TRANSITIONAL.has(status.toLowerCase());
}

export type StatusTone = 'ok' | 'info' | 'busy' | 'error' | 'neutral';

export function statusTone(status: string): StatusTone {
  const s = status.toLowerCase();
  if (s.includes('error') || s === 'fault' || s === 'failed') return 'error';
  if (isTransitional(s)) return 'busy';
  if (s === 'available' || s === 'active' || s === 'attached') return 'ok';
  if (s === 'in-use') return 'info';
  return 'neutral';
}
