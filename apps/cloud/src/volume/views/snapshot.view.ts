import type { Microversion } from '../../platform/http/microversion.js';
import { cinderTime } from '../../platform/time.js';
import type { SnapshotRow } from '../store/snapshots.store.js';

/**
 * views/snapshots.py (v2 summary, v3 detail): the summary for index, and for everything else
 * the detail, which adds 3.14 group_snapshot_id, 3.41 user_id, 3.65 consumes_quota. Show and
 * detail lists also get the extended attributes (project_id, progress).
 */
export function snapshotSummary(s: SnapshotRow) {
  return {
    id: s.id,
    created_at: cinderTime(s.created_at),
    updated_at: cinderTime(s.updated_at),
    name: s.name,
    description: s.description,
    volume_id: s.volume_id,
    status: s.status,
    size: s.volume_size,
    metadata: JSON.parse(s.metadata || '{}') as Record<string, string>,
  };
}

export function snapshotDetail(
  s: SnapshotRow,
  mv: Microversion,
  opts: { extended: boolean; groupSnapshotId?: string | null },
) {
  const out: Record<string, unknown> = snapshotSummary(s);
  if (mv.atLeast('3.14')) out['group_snapshot_id'] = opts.groupSnapshotId ?? null;
  if (mv.atLeast('3.41')) out['user_id'] = s.user_id;
  if (mv.atLeast('3.65')) out['consumes_quota'] = true;
  if (opts.extended) {
    out['os-extended-snapshot-attributes:project_id'] = s.project_id;
    out['os-extended-snapshot-attributes:progress'] = s.progress;
  }
  return out;
}
