import express, { type Express } from 'express';
import { type ComputeService, createComputeService } from './compute/index.js';
import { createIdentity, type Identity } from './identity/index.js';
import { createImageService, type ImageService } from './image/index.js';
import { createNetworkService, type NetworkService } from './network/index.js';
import type { CloudDeps } from './deps.js';
import { OpenStackError } from './platform/http/errors.js';
import { sendFault } from './platform/http/faults.js';
import { requestId } from './platform/http/request-id.js';
import { createVolumeService, type NovaClient, type VolumeService } from './volume/index.js';

export interface Cloud {
  app: Express;
  identity: Identity;
  image: ImageService;
  network: NetworkService;
  volume: VolumeService;
  compute: ComputeService;
}

export interface CloudOptions {
  /** Stands in for compute when Cinder asks Nova about an attachment (tests play Nova with it). */
  nova?: NovaClient;
}

/**
 * The composition root: builds each service once and hands each what it needs of the others.
 * Compute asks the volume and image services through their APIs; Cinder asks the image service
 * for the image a volume is created from, and Nova whether an attachment is still in use
 * (OSSA-2023-003). It never listens: main.ts and the tests do.
 */
export function createApp(deps: CloudDeps, options: CloudOptions = {}): Cloud {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', 'loopback');
  app.use(requestId(deps.logger));

  const identity = createIdentity(deps);
  const image = createImageService({ ...deps, identity });
  const network = createNetworkService({ ...deps, identity });
  // Nova and Cinder call each other: Cinder's question reaches compute once compute is built.
  const nova: NovaClient = options.nova ?? {
    isUsingAttachment: (serverId, attachmentId) => compute.isUsingAttachment(serverId, attachmentId),
  };
  const volume = createVolumeService({ ...deps, identity, nova, images: image.api });
  const compute = createComputeService({
    ...deps,
    identity,
    volumes: volume.api,
    images: image.api,
    network: network.api,
  });

  app.use('/identity', identity.router);
  app.use('/volume', volume.router);
  app.use('/compute', compute.router);
  app.use('/image', image.router);
  app.use('/network', network.router);

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

  return { app, identity, image, network, volume, compute };
}
