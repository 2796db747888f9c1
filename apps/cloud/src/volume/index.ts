import { Router } from 'express';
import type { CloudDeps } from '../platform/deps.js';
import type { Identity } from '../identity/index.js';
import { jsonBody } from '../platform/http/body.js';
import { authOf } from '../platform/http/context.js';
import { badRequest, notFound, WEBOB_NOT_FOUND } from '../platform/http/errors.js';
import { faultHandler } from '../platform/http/faults.js';
import { Microversion, negotiateMicroversion } from '../platform/http/microversion.js';
import { versionRoutes } from './routes/versions.routes.js';
import { volumeApiRoutes } from './routes/index.js';
import { createBackend } from './service/backend.js';
import { createPoolsService, type PoolsService } from './service/pools.service.js';
import { createTypesService, type TypesService } from './service/types.service.js';
import { createVolumesService, type VolumesService } from './service/volumes.service.js';

export { seedVolume } from './seed.js';
export { reconcileVolumes } from './reconcile.js';
export type { Caller } from './service/caller.js';

export const VOLUME_MIN = Microversion.of('3.0');
export const VOLUME_MAX = Microversion.of('3.71');

/** The volume service's rules, for its routes and for the other services (Nova's side of attach). */
export interface VolumeServices {
  volumes: VolumesService;
  types: TypesService;
  pools: PoolsService;
}

export interface VolumeService extends VolumeServices {
  router: Router;
}

export function createVolumeService(deps: CloudDeps & { identity: Identity }): VolumeService {
  const backend = createBackend(deps);
  const types = createTypesService(deps.store);
  const volumes = createVolumesService({ store: deps.store, backend, types, logger: deps.logger });
  const services: VolumeServices = { volumes, types, pools: createPoolsService(deps.store, types) };
  const router = Router();
  // Cinder routes no OPTIONS (Express would answer one with an Allow list).
  router.use((req, _res, next) => next(req.method === 'OPTIONS' ? notFound(WEBOB_NOT_FOUND) : undefined));
  router.use(versionRoutes(deps.identity.requireToken));

  // Everything under /v3 needs a token first (keystonemiddleware runs before Cinder's own code).
  const v3 = Router({ mergeParams: true });
  v3.use(deps.identity.requireToken);
  v3.use(negotiateMicroversion({ service: 'volume', min: VOLUME_MIN, max: VOLUME_MAX }));
  v3.use(
    jsonBody({
      limitBytes: deps.config.maxBodyBytes,
      jsonTypes: ['application/json', 'text/plain', 'application/vnd.openstack.volume+json'],
      malformedMessage: 'Malformed request body',
      unsupportedTypeStatus: 415,
    }),
  );

  const project = Router({ mergeParams: true });
  // Cinder refuses a URL whose project is not the token's, even for admins.
  project.use((req, _res, next) => {
    const projectId = (req.params as { projectId?: string }).projectId;
    if (projectId !== authOf(req.ctx).projectId) throw badRequest('Malformed request url');
    next();
  });
  project.use(volumeApiRoutes(deps, services));

  v3.use('/:projectId', project);
  v3.use(() => {
    throw notFound(WEBOB_NOT_FOUND);
  });
  router.use('/v3', v3);
  router.use(() => {
    throw notFound(WEBOB_NOT_FOUND);
  });
  router.use(faultHandler('nova'));
  return { router, ...services };
}
