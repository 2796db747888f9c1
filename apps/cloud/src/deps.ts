import type { CloudConfig } from './config.js';
import type { Store } from './platform/db/store.js';
import type { Logger } from './platform/logger.js';
import type { TaskRunner } from './platform/tasks.js';

/** What every service of the cloud is built from: settings, the database, logs, background work. */
export interface CloudDeps {
  config: CloudConfig;
  store: Store;
  logger: Logger;
  tasks: TaskRunner;
}
