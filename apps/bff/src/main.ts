import { createBffApp } from './app.js';
import { loadConfig } from './config.js';
import { launchServiceFor } from './features/launch/launch.routes.js';
import { ChangeBus } from './platform/events.js';
import { clientErrorResponder } from './platform/client-error.js';
import { createLogger } from './platform/logger.js';
import { MemorySessionStore, PgSessionStore } from './platform/session-store.js';
import { volumeLockFor } from './platform/volume-lock.js';

const config = loadConfig();
const logger = createLogger(config.logLevel, config.logOutput);
const sessions = config.sessionDatabaseUrl
  ? new PgSessionStore(config.sessionDatabaseUrl, logger)
  : new MemorySessionStore();
const volumeLock = volumeLockFor(config.sessionDatabaseUrl, logger);
const changes = new ChangeBus();
// Launches in PostgreSQL with the sessions, else in the embedded SQLite file (BFF_DATABASE_FILE).
const launches = launchServiceFor({ config, logger, changes, sessions, volumeLock });
const app = createBffApp({ config, logger, sessions, volumeLock, changes, launches });

const server = app.listen(config.port, config.host, () => {
  logger.info(
    {
      url: `http://${config.host}:${config.port}`,
      cloud: config.authUrl,
      sessions: config.sessionDatabaseUrl ? 'postgres' : 'memory',
      launches: config.sessionDatabaseUrl ? 'postgres' : config.databaseFile,
    },
    `dashboard on http://${config.host}:${config.port}`,
  );
});
server.on('clientError', clientErrorResponder(logger));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    // Running launches are let go at once, for another process (or the next start) to pick up.
    void launches
      .close()
      .catch(() => undefined)
      .then(() => Promise.allSettled([sessions.close(), volumeLock.close()]))
      .then(() => process.exit(0));
  });
}
