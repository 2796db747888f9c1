import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { flavorRoutes } from './flavors.routes.js';
import { availabilityZoneRoutes } from './availability-zones.routes.js';
import { osServicesRoutes } from './os-services.routes.js';
import { hypervisorRoutes } from './hypervisors.routes.js';
import { topologyRoutes } from './topology.routes.js';
import { volumeAttachmentsRoutes } from './volume-attachments.routes.js';
import { emulatorDomainRoutes } from './emulator-domain.routes.js';
import { serverRoutes } from './servers.routes.js';
import { serverActionRoutes } from './server-actions.routes.js';
import { serverIpsRoutes } from './server-ips.routes.js';
// --- C1: the server's own API ---
import { serverMetadataRoutes } from './server-metadata.routes.js';
import { instanceActionRoutes } from './instance-actions.routes.js';
import { requestScope } from '../request-scope.js';
// --- end C1 ---
// --- C2: tenancy ---
import { keypairRoutes } from './keypairs.routes.js';
import { quotaRoutes } from './quotas.routes.js';
// --- cloud15: scheduler dry-run extension (issue 15) ---
import { schedulerDryRunRoutes } from './scheduler-dry-run.routes.js';
// --- end cloud15 ---

/**
 * Every route under /compute/v2.1. The caller is authenticated (req.ctx.auth), the
 * microversion negotiated (req.ctx.version) and the JSON body parsed (req.ctx.body).
 */
export function computeApiRoutes(deps: ComputeDeps): Router {
  const router = Router();
  // C1: what the request records (instance actions) carries its request id.
  router.use(requestScope);
  router.use(flavorRoutes(deps));
  router.use(availabilityZoneRoutes(deps));
  router.use(osServicesRoutes(deps));
  router.use(hypervisorRoutes(deps));
  router.use(topologyRoutes(deps));
  router.use(volumeAttachmentsRoutes(deps));
  router.use(emulatorDomainRoutes(deps));
  router.use(serverRoutes(deps));
  router.use(serverActionRoutes(deps));
  router.use(serverIpsRoutes(deps));
  // --- C1: the server's own API ---
  router.use(serverMetadataRoutes(deps));
  router.use(instanceActionRoutes(deps));
  // --- end C1 ---
  // --- C2: tenancy ---
  router.use(keypairRoutes(deps));
  router.use(quotaRoutes(deps));
  // --- cloud15: scheduler dry-run extension (issue 15) ---
  router.use(schedulerDryRunRoutes(deps));
  // --- end cloud15 ---
  return router;
}
