import { createBffApp } from './app.js';
import { loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';
import { MemorySessionStore, PgSessionStore } from './platform/session-store.js';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const sessions = config.sessionDatabaseUrl
  ? new PgSessionStore(config.sessionDatabaseUrl, logger)
  : new MemorySessionStore();
const app = createBffApp({ config, logger, sessions });

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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void sessions.close().then(() => process.exit(0));
  });
}
