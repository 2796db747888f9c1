import { Router } from 'express';
import type { Identity } from '../identity/index.js';
import type { ImageApi } from '../image/index.js';
import type { NetworkApi } from '../network/index.js';
import type { CloudDeps } from '../deps.js';
import { jsonBody } from '../platform/http/body.js';
import { OpenStackError, WEBOB_NOT_FOUND } from '../platform/http/errors.js';
import { faultHandler } from '../platform/http/faults.js';
import { negotiateMicroversion } from '../platform/http/microversion.js';
import type { ReconcileScope } from '../platform/presence.js';
import type { VolumeApi } from '../volume/index.js';
import { createImageClient } from './clients/image-client.js';
import { createNetworkClient } from './clients/network-client.js';
import { createVolumeClient } from './clients/volume-client.js';
import type { ComputeDeps } from './deps.js';
import { reconcileCompute } from './host/reconcile.js';
import { COMPUTE_MAX, COMPUTE_MIN } from './microversions.js';
import { computeApiRoutes } from './routes/index.js';
import { computeVersionRoutes } from './routes/versions.routes.js';
import { isUsingAttachment } from './service/volume-attachments.service.js';

export { seedCompute } from './seed.js';

export interface ComputeService {
  router: Router;
  /** Finishes what a dead process left half-done (`host/reconcile.ts`). */
  reconcile(scope?: ReconcileScope): Promise<void>;
  /** Cinder's question to Nova (OSSA-2023-003): does this server still use this attachment? */
  isUsingAttachment(serverId: string, attachmentId: string): Promise<boolean>;
}

/** webob's 404 for a path or method Nova does not route (captures 151, 152): not Nova's fault format. */
export const webobNotFound = () =>
  new OpenStackError(404, WEBOB_NOT_FOUND, {
    rawBody: {
      message: 'The resource could not be found.<br /><br />\n\n\n',
      code: '404 Not Found',
      title: 'Not Found',
    },
    noVersionHeaders: true,
  });

/** Nova v2.1 under /compute. It reaches volumes and images only through their APIs. */
export function createComputeService(
  platform: CloudDeps & { identity: Identity; volumes: VolumeApi; images: ImageApi; network: NetworkApi },
): ComputeService {
  const { identity, volumes, images, network, ...shared } = platform;
  const deps: ComputeDeps = {
    ...shared,
    volumes: createVolumeClient(volumes, shared.logger),
    images: createImageClient(images),
    network: createNetworkClient(network),
    projectExists: (id) => identity.projectExists(id),
  };
  const router = Router();
  // Nova routes no OPTIONS (Express would answer one with an Allow list); `/` lists versions for any.
  router.use((req, _res, next) =>
    next(req.method === 'OPTIONS' && req.path !== '/' ? webobNotFound() : undefined),
  );
  router.use(computeVersionRoutes());

  const v21 = Router();
  v21.use(identity.requireToken);
  v21.use(
    negotiateMicroversion({
      service: 'compute',
      min: COMPUTE_MIN,
      max: COMPUTE_MAX,
      legacyHeader: 'X-OpenStack-Nova-API-Version',
    }),
  );
  v21.use(
    jsonBody({
      limitBytes: deps.config.maxBodyBytes,
      // Nova reads text/plain as JSON (capture 149) and refuses XML with 415 (capture 150).
      jsonTypes: ['application/json', 'text/plain', 'application/vnd.openstack.compute+json'],
      malformedMessage: 'Malformed request body',
      unsupportedTypeStatus: 415,
    }),
  );
  v21.use(computeApiRoutes(deps));
  v21.use(() => {
    throw webobNotFound();
  });
  router.use('/v2.1', v21);
  router.use(() => {
    throw webobNotFound();
  });
  router.use(faultHandler('nova'));
  return {
    router,
    reconcile: (scope) => reconcileCompute(deps, scope),
    isUsingAttachment: (serverId, attachmentId) => isUsingAttachment(deps, serverId, attachmentId),
  };
}
