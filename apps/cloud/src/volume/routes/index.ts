import { Router } from 'express';
import type { CloudDeps } from '../../platform/deps.js';
import type { PoolsService } from '../service/pools.service.js';
import type { TypesService } from '../service/types.service.js';
import type { VolumesService } from '../service/volumes.service.js';
import { attachmentsRoutes } from './attachments.routes.js';
import { poolsRoutes } from './pools.routes.js';
import { typesRoutes } from './types.routes.js';
import { volumeActionRoutes } from './volume-actions.routes.js';
import { volumesRoutes } from './volumes.routes.js';

/**
 * Every route under /volume/v3/{project_id}. The caller is authenticated, the microversion
 * negotiated (req.ctx.version) and the JSON body parsed (req.ctx.body) before these run.
 */
export function volumeApiRoutes(
  deps: CloudDeps,
  services: { volumes: VolumesService; types: TypesService; pools: PoolsService },
): Router {
  const router = Router({ mergeParams: true });
  // First: it also tells the legacy attach actions which cloud a request belongs to.
  router.use(attachmentsRoutes(deps));
  router.use(volumesRoutes(services.volumes));
  router.use(volumeActionRoutes(services.volumes));
  router.use(typesRoutes(services.types));
  router.use(poolsRoutes(services.pools));
  return router;
}
