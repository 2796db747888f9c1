import { type Cloud, type CloudDeps, createApp } from './app.js';
import type { CloudConfig } from './config.js';
import { reconcileCompute, seedCompute } from './compute/index.js';
import { seedIdentity } from './identity/index.js';
import { openStore, type StoreOptions } from './platform/db/store.js';
import type { Logger } from './platform/logger.js';
import { TaskRunner } from './platform/tasks.js';
import { reconcileVolumes, seedVolume } from './volume/index.js';

export interface BootedCloud extends Cloud {
  deps: CloudDeps;
  close(): Promise<void>;
}

/**
 * Opens the store (migrating it), seeds what is missing, finishes work a previous process
 * left half-done, and builds the app. Shared by main.ts and the tests.
 */
export async function bootCloud(
  config: CloudConfig,
  logger: Logger,
  storeOptions: StoreOptions = {},
): Promise<BootedCloud> {
  const store = await openStore(config.databaseUrl, logger, storeOptions);
  const tasks = new TaskRunner(config.backendDelayMs, logger);
  const deps: CloudDeps = { config, store, logger, tasks };
  await seedIdentity(store, config, logger);
  await seedVolume(deps);
  await seedCompute(deps);
  await reconcileVolumes(deps);
  await reconcileCompute(deps);
  const cloud = createApp(deps);
  return {
    ...cloud,
    deps,
    async close() {
      tasks.stop();
      await store.close();
    },
  };
}
