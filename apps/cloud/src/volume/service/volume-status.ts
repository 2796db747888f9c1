/**
 * Cinder's `_get_statuses_from_attachments`: ignore error_* attachments, take the
 * alphabetically first remaining attach_status (attached < attaching < detaching < reserved),
 * none left means detached. The volume status follows: attached → in-use, detached →
 * available, otherwise the same word.
 */
export interface DerivedStatus {
  status: string;
  attachStatus: string;
}

export function statusFromAttachments(attachStatuses: readonly string[]): DerivedStatus {
  const live = attachStatuses.filter((s) => !s.startsWith('error')).sort();
  const attachStatus = live[0] ?? 'detached';
  const status =
    attachStatus === 'attached' ? 'in-use' : attachStatus === 'detached' ? 'available' : attachStatus;
  return { status, attachStatus };
}

/** Volume statuses during which Cinder does not rewrite the status from attachments. */
export const STATUS_NOT_REWRITTEN = new Set([
  'maintenance',
  'uploading',
  'retyping',
  'backing-up',
  'deleting',
]);
