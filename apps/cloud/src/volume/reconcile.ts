import type { CloudDeps } from '../deps.js';
import { BOOT_SCOPE, type ReconcileScope } from '../platform/presence.js';
import { BACKEND, backendSteps, poolCapabilities, poolSatisfies } from './service/backend.js';
import { snapshotsStore } from './store/snapshots.store.js';
import { typesStore } from './store/types.store.js';
import { volumesStore } from './store/volumes.store.js';
// --- cloud-groups ---
import { groupBackendSteps } from './service/groups.service.js';
import { groupsStore } from './store/groups.store.js';

/**
 * Finishes what a dead process left half-done in the emulated volume backend:
 * `creating` volumes are scheduled (available, or error when no pool fits their type),
 * `deleting` ones removed (error_deleting if attachments remain), and an interrupted
 * `extending` / `retyping` is rolled back to the status the attachments give (the backend had
 * not applied it). Every change is logged. `scope` says which volumes are this call's to take over
 * (at start: all of them).
 */
export async function reconcileVolumes(deps: CloudDeps, scope: ReconcileScope = BOOT_SCOPE): Promise<void> {
  const { store, logger } = deps;
  // Snapshots the backend had not finished: creating ones become available, deleting ones go.
  for (const s of await snapshotsStore.byStatus(store.db, ['creating', 'deleting'])) {
    if (!scope.claims(`snapshot:${s.id}`)) continue;
    const done =
      s.status === 'creating'
        ? await backendSteps.finishSnapshotCreate(store, s.id)
        : await backendSteps.finishSnapshotDelete(store, s.id);
    if (done)
      logger.info({ snapshotId: s.id, status: s.status }, 'reconcile: finished an interrupted snapshot step');
  }
  // --- cloud-groups: groups and group snapshots a dead process left moving (at start only:
  // their steps are not task subjects; finishing one early is harmless, each step re-checks).
  if (scope.atStart) await reconcileGroups(deps);
  const stuck = (
    await volumesStore.byStatus(store.db, ['creating', 'deleting', 'extending', 'retyping'])
  ).filter((v) => scope.claims(`volume:${v.id}`));
  if (stuck.length === 0) return;
  const types = new Map((await typesStore.all(store.db)).map((t) => [t.id, t]));
  for (const v of stuck) {
    const log = logger.child({ volumeId: v.id, status: v.status });
    if (v.status === 'creating') {
      const usage = await volumesStore.usageOnHost(store.db, BACKEND.host);
      const fits = poolSatisfies(types.get(v.volume_type_id)?.extraSpecs ?? {}, poolCapabilities(usage));
      if (await backendSteps.finishCreate(store, v.id, fits)) {
        log.info({ to: fits ? 'available' : 'error' }, 'reconcile: finished an interrupted volume create');
      }
    } else if (v.status === 'deleting') {
      const outcome = await backendSteps.finishDelete(store, v.id);
      if (outcome !== 'skipped') log.info({ outcome }, 'reconcile: finished an interrupted volume delete');
    } else if (v.status === 'extending') {
      if (await backendSteps.finishExtend(store, v.id, null)) {
        log.info('reconcile: rolled back an interrupted volume extend');
      }
    } else if (
      await backendSteps.finishRetype(store, v.id, { rollbackMultiattach: rollbackMultiattach(v, types) })
    ) {
      log.info('reconcile: rolled back an interrupted volume retype');
    }
  }
}

/** The multiattach flag of the type the volume still has (retype flips it up front). */
function rollbackMultiattach(
  v: { volume_type_id: string },
  types: Map<string, { extraSpecs: Record<string, string> }>,
): boolean {
  return types.get(v.volume_type_id)?.extraSpecs['multiattach'] === '<is> True';
}

// --- cloud-groups: generic volume groups ---
/** creating/updating groups and creating group snapshots become available; deleting ones go. */
async function reconcileGroups(deps: CloudDeps): Promise<void> {
  const { store, logger } = deps;
  for (const g of await groupsStore.groupsByStatus(store.db, ['creating', 'updating', 'deleting'])) {
    const done =
      g.status === 'deleting'
        ? await groupBackendSteps.finishGroupDelete(store, g.id)
        : await groupBackendSteps.settleGroup(store, g.id, g.status as 'creating' | 'updating');
    if (done)
      logger.info({ groupId: g.id, status: g.status }, 'reconcile: finished an interrupted group step');
  }
  for (const s of await groupsStore.groupSnapshotsByStatus(store.db, ['creating', 'deleting'])) {
    const done =
      s.status === 'deleting'
        ? await groupBackendSteps.finishGroupSnapshotDelete(store, s.id)
        : await groupBackendSteps.settleGroupSnapshot(store, s.id);
    if (done) {
      logger.info(
        { groupSnapshotId: s.id, status: s.status },
        'reconcile: finished an interrupted group snapshot step',
      );
    }
  }
}
