import type { Microversion } from '../../platform/http/microversion.js';
import { cinderTime } from '../../platform/time.js';
import type { Caller } from '../service/caller.js';
import type { GroupRecord, GroupSnapshotRow, GroupTypeRecord } from '../store/groups.store.js';

/** views/group_types.py: the specs only for admins (captures 940-947). */
export function groupTypeView(caller: Caller, t: GroupTypeRecord) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    is_public: t.is_public === 1,
    ...(caller.isAdmin ? { group_specs: t.specs } : {}),
  };
}

/** views/groups.py `summary`: id and name (index, create). */
export const groupSummary = (g: { id: string; name: string | null }) => ({ id: g.id, name: g.name });

/**
 * views/groups.py `detail`: 3.14 adds where the group came from, 3.25 its volumes when asked
 * (`list_volume`), 3.38 its replication status, 3.58 its project for admins (capture-checked on
 * the reference: `replication_status` is "disabled").
 */
export function groupDetail(
  g: GroupRecord,
  mv: Microversion,
  opts: { isAdmin: boolean; volumeIds?: string[] | undefined },
) {
  return {
    id: g.id,
    status: g.status,
    availability_zone: g.availability_zone,
    created_at: cinderTime(g.created_at),
    name: g.name,
    description: g.description,
    group_type: g.group_type_id,
    volume_types: g.volumeTypeIds,
    ...(mv.atLeast('3.14')
      ? { group_snapshot_id: g.group_snapshot_id, source_group_id: g.source_group_id }
      : {}),
    ...(mv.atLeast('3.25') && opts.volumeIds !== undefined ? { volumes: opts.volumeIds } : {}),
    ...(mv.atLeast('3.38') ? { replication_status: 'disabled' } : {}),
    ...(mv.atLeast('3.58') && opts.isAdmin ? { project_id: g.project_id } : {}),
  };
}

/** views/group_snapshots.py. */
export const groupSnapshotSummary = (s: GroupSnapshotRow) => ({ id: s.id, name: s.name });

/** views/group_snapshots.py `detail`: 3.58 adds the project for admins (asked the reference). */
export function groupSnapshotDetail(s: GroupSnapshotRow, mv: Microversion, isAdmin: boolean) {
  return {
    id: s.id,
    group_id: s.group_id,
    group_type_id: s.group_type_id,
    status: s.status,
    created_at: cinderTime(s.created_at),
    name: s.name,
    description: s.description,
    ...(mv.atLeast('3.58') && isAdmin ? { project_id: s.project_id } : {}),
  };
}
