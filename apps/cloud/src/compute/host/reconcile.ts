import { BOOT_SCOPE, type ReconcileScope } from '../../platform/presence.js';
import { serviceCaller } from '../clients/volume-client.js';
import type { ComputeDeps } from '../deps.js';
import { bdmsStore } from '../store/bdms.store.js';
import { serversStore } from '../store/servers.store.js';
import { advanceServer, resizeOf } from './server-lifecycle.js';
import { connectServerVolumes, finishDetach } from './volume-connect.js';

/**
 * Moves on what a dead process left mid-way, and logs each decision:
 * - servers mid-build or mid-task resume from the state they are in (the lifecycle steps are
 *   written to be resumed); a build that had a forced host is rescheduled freely, since the
 *   request's placement lived only in memory;
 * - detaches Nova had accepted (the mapping is marked) are finished: the attachment and the
 *   mapping go, as the host would have done (the client was told the detach was accepted);
 * - attaches that were reserved but never connected on the host are completed (the client
 *   was told the attach was accepted);
 * - at start only, a volume still `detaching` with no accepted detach behind it (an interrupted
 *   swap) is rolled back, as Nova's compute does when a detach fails.
 * `scope` says which servers are this call's to take over (at start: all of them).
 */
export async function reconcileCompute(deps: ComputeDeps, scope: ReconcileScope = BOOT_SCOPE): Promise<void> {
  const { store, logger } = deps;
  const unfinished = (await serversStore.unfinished(store.db)).filter(
    // A resize waiting for the user's confirm or revert has nothing to resume.
    (s) =>
      !(s.vm_state === 'resized' && s.task_state === null && !resizeOf(s)?.confirming) &&
      scope.claims(`server:${s.id}`),
  );
  const resuming = new Set(unfinished.map((s) => s.id));
  for (const server of unfinished) {
    logger.info(
      { serverId: server.id, vmState: server.vm_state, task: server.task_state },
      'reconcile: resuming server',
    );
    deps.tasks.schedule(
      'compute: resume server',
      () => advanceServer(deps, server.id),
      undefined,
      `server:${server.id}`,
    );
  }

  const detaching = await bdmsStore.detachRequested(store.db);
  for (const bdm of detaching) {
    if (!scope.claims(`server:${bdm.server_id}`)) continue;
    const server = await serversStore.byId(store.db, bdm.server_id);
    if (!server) continue;
    await finishDetach(deps, server, bdm.uuid);
    logger.info({ serverId: server.id, volumeId: bdm.volume_id }, 'reconcile: finished an accepted detach');
  }

  for (const serverId of await bdmsStore.serversWithUnconnectedVolumes(store.db)) {
    if (resuming.has(serverId)) continue; // the resumed build connects its own volumes
    if (!scope.claims(`server:${serverId}`)) continue;
    logger.info({ serverId }, 'reconcile: completing interrupted volume attaches');
    deps.tasks.schedule(
      'compute: finish attach',
      async () => {
        const outcomes = await connectServerVolumes(deps, serverId);
        for (const o of outcomes) {
          logger.info({ serverId, volumeId: o.volumeId, ok: o.ok }, 'reconcile: attach finished');
        }
      },
      undefined,
      `server:${serverId}`,
    );
  }

  // A Cinder user's own os-begin_detaching also leaves `detaching` with no process behind it, so a
  // running cloud leaves these alone; only a start rolls them back.
  if (!scope.atStart) return;
  const accepted = new Set(detaching.map((b) => b.volume_id));
  for (const volume of await deps.volumes.withStatus(['detaching'])) {
    if (accepted.has(volume.id)) continue;
    const caller = serviceCaller({ project_id: volume.projectId, user_id: volume.userId });
    await store.transaction((tx) => deps.volumes.rollDetaching(tx, caller, volume.id));
    logger.info({ volumeId: volume.id }, 'reconcile: rolled back an interrupted detach');
  }
}
