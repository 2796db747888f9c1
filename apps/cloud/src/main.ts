import { bootCloud } from './boot.js';
import { loadConfig } from './config.js';
import { seedDemoQuotas } from './demo-quotas.js';
import { clientErrorResponder } from './platform/http/client-error.js';
import { createLogger } from './platform/logger.js';

const config = loadConfig();
const logger = createLogger(config.logLevel, config.logOutput);

const cloud = await bootCloud(config, logger);
await seedDemoQuotas(cloud.deps);
const server = cloud.app.listen(config.port, config.host, () => {
  logger.info(
    { url: `http://${config.host}:${config.port}`, engine: cloud.deps.store.engine },
    `bundled cloud listening on http://${config.host}:${config.port} (Keystone at /identity/v3)`,
  );
});
server.on('clientError', clientErrorResponder(logger));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    logger.info({ signal }, 'shutting down');
    server.close();
    void cloud.close().then(() => process.exit(0));
  });
}
