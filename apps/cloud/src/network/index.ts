import { Router } from 'express';
import type { CloudDeps } from '../deps.js';
import type { Identity } from '../identity/index.js';
import { jsonBody } from '../platform/http/body.js';
import { createNetworkApi, type NetworkApi } from './api.js';
import { neutronFaults, notFoundRouter, resourceNotFound } from './errors.js';
import { quotaRoutes } from './routes/quotas.routes.js';
import { resourceRoutes } from './routes/resources.routes.js';
import { networkDiscoveryRoutes, networkVersionRoutes } from './routes/versions.routes.js';

export type {
  DevicePort,
  NetworkApi,
  NetworkCaller,
  NetworkSummary,
  PortRequest,
  PortSummary,
} from './api.js';
export { seedNetwork } from './seed.js';

export interface NetworkService {
  router: Router;
  /** What other services (compute) may ask of this one. */
  api: NetworkApi;
}

/** A minimal Neutron v2.0 under /network: networks, subnets, ports, security groups and rules. */
export function createNetworkService(deps: CloudDeps & { identity: Identity }): NetworkService {
  const router = Router();
  router.use((req, _res, next) => next(req.method === 'OPTIONS' ? resourceNotFound() : undefined));
  router.use(networkVersionRoutes());
  const v20 = Router();
  v20.use(deps.identity.requireToken);
  v20.use(
    jsonBody({
      limitBytes: deps.config.maxBodyBytes,
      jsonTypes: ['application/json', 'text/plain'],
      malformedMessage: 'Malformed request body',
      unsupportedTypeStatus: 415,
    }),
  );
  v20.use(networkDiscoveryRoutes());
  v20.use(resourceRoutes({ store: deps.store }));
  v20.use(quotaRoutes());
  v20.use(notFoundRouter());
  router.use('/v2.0', v20);
  router.use(notFoundRouter());
  router.use(neutronFaults);
  return { router, api: createNetworkApi(deps.store) };
}
