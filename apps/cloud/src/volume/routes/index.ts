import { Router } from 'express';
import type { AttachmentsService } from '../service/attachments.service.js';
import type { PoolsService } from '../service/pools.service.js';
import type { TypesService } from '../service/types.service.js';
import type { VolumesService } from '../service/volumes.service.js';
import { attachmentsRoutes } from './attachments.routes.js';
import { poolsRoutes } from './pools.routes.js';
import { typesRoutes } from './types.routes.js';
import { volumeActionRoutes } from './volume-actions.routes.js';
import { volumesRoutes } from './volumes.routes.js';
// --- C2: tenancy ---
import type { VolumeQuotasService } from '../service/quotas.service.js';
import { volumeQuotaRoutes } from './quotas.routes.js';

/**
 * Every route under /volume/v3/{project_id}. The caller is authenticated, the microversion
 * negotiated (req.ctx.version) and the JSON body parsed (req.ctx.body) before these run.
 */
export function volumeApiRoutes(services: {
  volumes: VolumesService;
  types: TypesService;
  pools: PoolsService;
  attachments: AttachmentsService;
  quotas: VolumeQuotasService;
}): Router {
  const router = Router({ mergeParams: true });
  router.use(attachmentsRoutes(services.attachments));
  router.use(volumesRoutes(services.volumes));
  router.use(volumeActionRoutes(services.volumes, services.attachments));
  router.use(typesRoutes(services.types));
  router.use(poolsRoutes(services.pools));
  // --- C2: tenancy ---
  router.use(volumeQuotaRoutes(services.quotas));
  return router;
}
