import type { CloudDeps } from '../app.js';
import { rollDetaching } from '../volume/service/attachments.service.js';
import { volumesStore } from '../volume/store/volumes.store.js';
import { advanceServer } from './service/server-lifecycle.js';
import { connectServerVolumes, novaServiceCaller } from './service/volume-attach.service.js';
import { bdmsStore } from './store/bdms.store.js';
import { serversStore } from './store/servers.store.js';

/**
 * On start, moves on what a killed process left mid-way, and logs each decision:
 * - servers mid-build or mid-task resume from the state they are in (the lifecycle steps are
 *   written to be resumed); a build that had a forced host is rescheduled freely, since the
 *   request's placement lived only in memory;
 * - attaches that were reserved but never connected on the host are completed (the client
 *   was told the attach was accepted);
 * - detaches that had begun (volume `detaching`) are rolled back, as Nova's compute does when a
 *   detach fails: the mapping is still there, so the volume is still attached.
 * Safe with several processes: every step locks its rows and re-checks the state.
 */
export async function reconcileCompute(deps: CloudDeps): Promise<void> {
  const { store, logger } = deps;
  const unfinished = await serversStore.unfinished(store.db);
  const resuming = new Set(unfinished.map((s) => s.id));
  for (const server of unfinished) {
    logger.info(
      { serverId: server.id, vmState: server.vm_state, task: server.task_state },
      'reconcile: resuming server',
    );
    deps.tasks.schedule('compute: resume server', () => advanceServer(deps, server.id));
  }

  for (const serverId of await bdmsStore.serversWithUnconnectedVolumes(store.db)) {
    if (resuming.has(serverId)) continue; // the resumed build connects its own volumes
    logger.info({ serverId }, 'reconcile: completing interrupted volume attaches');
    deps.tasks.schedule('compute: finish attach', async () => {
      const outcomes = await connectServerVolumes(deps, serverId);
      for (const o of outcomes) {
        logger.info({ serverId, volumeId: o.volumeId, ok: o.ok }, 'reconcile: attach finished');
      }
    });
  }

  for (const volume of await volumesStore.byStatus(store.db, ['detaching'])) {
    await store.transaction((tx) =>
      rollDetaching(
        store,
        tx,
        { ...novaServiceCaller({ project_id: volume.project_id, user_id: volume.user_id }) },
        volume.id,
      ),
    );
    logger.info({ volumeId: volume.id }, 'reconcile: rolled back an interrupted detach');
  }
}
