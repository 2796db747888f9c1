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
// --- cloud15: scheduler dry-run extension (issue 15), server groups, simple tenant usage, server tags, server password (issue 14) ---
import { schedulerDryRunRoutes } from './scheduler-dry-run.routes.js';
import { serverGroupRoutes } from './server-groups.routes.js';
import { simpleTenantUsageRoutes } from './simple-tenant-usage.routes.js';
import { serverTagRoutes } from './server-tags.routes.js';
import { serverPasswordRoutes } from './server-password.routes.js';
// --- end cloud15 ---
import { serverDiagnosticsRoutes } from './server-diagnostics.routes.js';
import { serverExternalEventsRoutes } from './server-external-events.routes.js';
// --- cloud-rescue: extensions, migrations list ---
import { extensionRoutes } from './extensions.routes.js';
import { osMigrationsRoutes } from './os-migrations.routes.js';
// --- end cloud-rescue ---
// --- cloud-proxy-hosts: os-volumes/os-snapshots proxy, os-hosts, os-aggregates, usage audit log ---
import { osVolumesRoutes } from './os-volumes.routes.js';
import { osHostsRoutes } from './os-hosts.routes.js';
import { aggregateRoutes } from './aggregates.routes.js';
// --- end cloud-proxy-hosts ---

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
  // --- cloud15: scheduler dry-run extension (issue 15), server groups, simple tenant usage, server tags, server password (issue 14) ---
  router.use(schedulerDryRunRoutes(deps));
  router.use(serverGroupRoutes(deps));
  router.use(simpleTenantUsageRoutes(deps));
  router.use(serverTagRoutes(deps));
  router.use(serverPasswordRoutes(deps));
  // --- end cloud15 ---
  // --- cloudc2: server diagnostics ---
  router.use(serverDiagnosticsRoutes(deps));
  router.use(serverExternalEventsRoutes(deps));
  // --- end cloudc2 ---
  // --- cloud-rescue: extensions, migrations list ---
  router.use(extensionRoutes(deps));
  router.use(osMigrationsRoutes(deps));
  // --- end cloud-rescue ---
  // --- cloud-proxy-hosts: os-volumes/os-snapshots proxy, os-hosts, os-aggregates, usage audit log ---
  router.use(osVolumesRoutes(deps));
  router.use(osHostsRoutes(deps));
  router.use(aggregateRoutes(deps));
  // --- end cloud-proxy-hosts ---
  return router;
}
