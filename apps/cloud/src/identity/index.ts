import { Router } from 'express';
import type { CloudDeps } from '../deps.js';
import { OpenStackError } from '../platform/http/errors.js';
import { keystoneAuth, requireToken } from './auth-middleware.js';
import { keystoneFaultHandler, keystoneHeaders, keystoneJsonBody, NOT_FOUND_MESSAGE } from './http.js';
import { authRoutes } from './routes/auth.routes.js';
import { catalogRoutes } from './routes/catalog.routes.js';
import { domainRoutes } from './routes/domains.routes.js';
import { grantRoutes } from './routes/grants.routes.js';
import { projectRoutes } from './routes/projects.routes.js';
import { roleRoutes } from './routes/roles.routes.js';
import { userRoutes } from './routes/users.routes.js';
import { versionRoutes } from './routes/versions.routes.js';
import { createTokenService, type TokenService } from './service/tokens.service.js';

import { projectsStore } from './store/projects.store.js';

export { seedIdentity } from './seed.js';
export type { TokenService };

/** What other services may use of identity: token validation and the auth middleware. */
export interface Identity {
  router: Router;
  tokens: TokenService;
  requireToken: ReturnType<typeof requireToken>;
  /** Whether a project exists (what Nova's `verify_project_id` asks Keystone). */
  projectExists(id: string): Promise<boolean>;
}

/** Keystone v3 under /identity. */
export function createIdentity(deps: CloudDeps): Identity {
  const tokens = createTokenService(deps.store, deps.config.tokenTtlSeconds);
  const authed = keystoneAuth(tokens);
  const router = Router();
  router.use(keystoneHeaders);
  router.use(keystoneJsonBody(deps.config.maxBodyBytes));
  router.use(versionRoutes());
  router.use(authRoutes(deps.store, tokens));
  router.use(projectRoutes(deps.store, authed));
  router.use(userRoutes(deps.store, authed));
  router.use(roleRoutes(deps.store, authed));
  router.use(grantRoutes(deps.store, authed));
  router.use(domainRoutes(deps.store, authed));
  router.use(catalogRoutes(deps.store, authed));
  router.use(() => {
    throw new OpenStackError(404, NOT_FOUND_MESSAGE);
  });
  router.use(keystoneFaultHandler);
  return {
    router,
    tokens,
    requireToken: requireToken(tokens),
    projectExists: async (id) => (await projectsStore.byId(deps.store.db, id)) !== undefined,
  };
}
