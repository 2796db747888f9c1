import type { CloudConfig } from '../config.js';
import type { Store } from './db/store.js';
import type { Logger } from './logger.js';
import type { TaskRunner } from './tasks.js';

/** What every service of the cloud is built from: settings, the database, logs, background work. */
export interface CloudDeps {
  config: CloudConfig;
  store: Store;
  logger: Logger;
  tasks: TaskRunner;
}
