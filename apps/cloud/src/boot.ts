import { type Cloud, type CloudOptions, createApp } from './app.js';
import type { CloudConfig } from './config.js';
import { seedCompute } from './compute/index.js';
import { seedIdentity } from './identity/index.js';
import { seedImages } from './image/index.js';
import { seedNetwork } from './network/index.js';
import { openStore, type StoreOptions } from './platform/db/store.js';
import type { CloudDeps } from './deps.js';
import type { Logger } from './platform/logger.js';
import { BOOT_SCOPE, joinDatabase, type ReconcileScope, startTakeover } from './platform/presence.js';
import { TaskRunner } from './platform/tasks.js';
import { seedVolume } from './volume/index.js';

export interface BootedCloud extends Cloud {
  deps: CloudDeps;
  /** Leaves the database (another process may take over what this one had in flight). */
  close(): Promise<void>;
}

/**
 * Opens the store (migrating it), builds the app, seeds what is missing, and finishes work a
 * dead process left half-done (only when no other live process shares the database:
 * `platform/presence.ts`). Shared by main.ts and the tests.
 */
export async function bootCloud(
  config: CloudConfig,
  logger: Logger,
  storeOptions: StoreOptions = {},
  cloudOptions: CloudOptions = {},
): Promise<BootedCloud> {
  const store = await openStore(config.databaseUrl, logger, storeOptions);
  const presence = await joinDatabase(config.databaseUrl, storeOptions, logger).catch(async (err) => {
    await store.close();
    throw err;
  });
  const tasks = new TaskRunner(config.backendDelayMs, logger);
  const deps: CloudDeps = { config, store, logger, tasks };
  const cloud = createApp(deps, cloudOptions);
  await seedIdentity(store, config, logger);
  await seedVolume(deps);
  await seedImages(deps);
  await seedNetwork(deps);
  await seedCompute(deps);
  const reconcile = async (scope: ReconcileScope) => {
    await cloud.volume.reconcile(scope);
    await cloud.compute.reconcile(scope);
  };
  if (!(await presence.whenAlone(() => reconcile(BOOT_SCOPE)))) {
    logger.info('reconcile skipped: another cloud process is working on this database');
  }
  const stopTakeover =
    presence.shared && config.takeoverIntervalMs > 0
      ? startTakeover(presence, tasks, config.takeoverIntervalMs, reconcile, logger)
      : async () => undefined;
  return {
    ...cloud,
    deps,
    async close() {
      await stopTakeover();
      tasks.stop();
      await presence.close();
      await store.close();
    },
  };
}
