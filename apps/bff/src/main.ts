import { createBffApp } from './app.js';
import { loadConfig } from './config.js';
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
const app = createBffApp({ config, logger, sessions, volumeLock });

const server = app.listen(config.port, config.host, () => {
  logger.info(
    {
      url: `http://${config.host}:${config.port}`,
      cloud: config.authUrl,
      sessions: config.sessionDatabaseUrl ? 'postgres' : 'memory',
    },
    `dashboard on http://${config.host}:${config.port}`,
  );
});
server.on('clientError', clientErrorResponder(logger));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void Promise.allSettled([sessions.close(), volumeLock.close()]).then(() => process.exit(0));
  });
}
