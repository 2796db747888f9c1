import type { Request, RequestHandler } from 'express';
import { baseUrl } from '../platform/http/base-url.js';
import { OpenStackError } from '../platform/http/errors.js';
import { faultBody } from '../platform/http/faults.js';
import { AUTH_FAILED, unauthorized } from './errors.js';
import type { TokenService } from './service/tokens.service.js';

/** keystonemiddleware's 401 (capture 81): Keystone's error body, a WWW-Authenticate header, no version headers. */
export function unauthenticated(req: Request): OpenStackError {
  return new OpenStackError(401, AUTH_FAILED, {
    rawBody: faultBody('keystone', 401, AUTH_FAILED),
    headers: { 'WWW-Authenticate': `Keystone uri="${baseUrl(req)}/identity/v3"` },
    noVersionHeaders: true,
  });
}

/** For the other services: resolves X-Auth-Token into req.ctx.auth, or answers 401 as keystonemiddleware does. */
export function requireToken(tokens: TokenService): RequestHandler {
  return async (req, _res, next) => {
    const token = req.get('X-Auth-Token');
    const auth = token ? await tokens.validate(token) : null;
    if (!auth) throw unauthenticated(req);
    req.ctx.auth = auth;
    next();
  };
}

/** Keystone's own API: the same check, answered by Keystone itself (its Vary header stays). */
export function keystoneAuth(tokens: TokenService): RequestHandler {
  return async (req, _res, next) => {
    const token = req.get('X-Auth-Token');
    const auth = token ? await tokens.validate(token) : null;
    if (!auth) throw unauthorized();
    req.ctx.auth = auth;
    next();
  };
}
