import express, { type Express } from 'express';
import { createIdentity, type Identity } from './identity/index.js';
import { createVolumeService, type VolumeService } from './volume/index.js';
import { createComputeService, type ComputeService } from './compute/index.js';
import { createImageService } from './image/index.js';
import { OpenStackError } from './platform/http/errors.js';
import { sendFault } from './platform/http/faults.js';
import { requestId } from './platform/http/request-id.js';
import type { CloudDeps } from './platform/deps.js';

export interface Cloud {
  app: Express;
  identity: Identity;
  volume: VolumeService;
  compute: ComputeService;
}

/** Builds the cloud's HTTP app. It never listens: main.ts and the tests do. */
export function createApp(deps: CloudDeps): Cloud {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', 'loopback');
  app.use(requestId(deps.logger));

  const identity = createIdentity(deps);
  const volume = createVolumeService({ ...deps, identity });

  app.use('/identity', identity.router);
  const compute = createComputeService({ ...deps, identity });

  app.use('/volume', volume.router);
  app.use('/compute', compute.router);
  app.use('/image', createImageService({ ...deps, identity }).router);

  // Outside every service: webob's plain 404, as a real endpoint would answer.
  app.use((req, res) => {
    sendFault(
      res,
      'nova',
      new OpenStackError(404, 'The resource could not be found.', {
        rawBody: {
          message: 'The resource could not be found.<br /><br />\n\n\n',
          code: '404 Not Found',
          title: 'Not Found',
        },
      }),
    );
    req.ctx.log.debug({ path: req.path }, 'no such path');
  });

  return { app, identity, volume, compute };
}
