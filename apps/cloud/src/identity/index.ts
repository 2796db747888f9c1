import { Router } from 'express';
import type { CloudDeps } from '../app.js';
import { jsonBody } from '../platform/http/body.js';
import { notFound } from '../platform/http/errors.js';
import { faultHandler } from '../platform/http/faults.js';
import { requireToken } from './auth-middleware.js';
import { authRoutes } from './routes/auth.routes.js';
import { createTokenService, type TokenService } from './service/tokens.service.js';

export { seedIdentity } from './seed.js';
export type { TokenService };

/** What other services may use of identity: token validation and the auth middleware. */
export interface Identity {
  router: Router;
  tokens: TokenService;
  requireToken: ReturnType<typeof requireToken>;
}

const KEYSTONE_MALFORMED =
  'Expecting to find valid JSON in request body. The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.';

export function createIdentity(deps: CloudDeps): Identity {
  const tokens = createTokenService(deps.store, deps.config.tokenTtlSeconds);
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Vary', 'X-Auth-Token');
    next();
  });
  router.use(
    jsonBody({
      limitBytes: deps.config.maxBodyBytes,
      jsonTypes: ['application/json'],
      malformedMessage: KEYSTONE_MALFORMED,
      unsupportedTypeStatus: 400,
    }),
  );
  router.use(authRoutes(deps.store, tokens));
  router.use(() => {
    throw notFound('The resource could not be found.');
  });
  router.use(faultHandler('keystone'));
  return { router, tokens, requireToken: requireToken(tokens) };
}
