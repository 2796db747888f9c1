import type { Request, RequestHandler } from 'express';
import { OpenStackError } from '../platform/http/errors.js';
import { baseUrl } from '../platform/http/base-url.js';
import { faultBody } from '../platform/http/faults.js';
import { AUTH_FAILED, type TokenService } from './service/tokens.service.js';

/** keystonemiddleware's 401: Keystone's error body, a WWW-Authenticate header, no version headers. */
export function unauthenticated(req: Request): OpenStackError {
  return new OpenStackError(401, AUTH_FAILED, {
    rawBody: faultBody('keystone', 401, AUTH_FAILED),
    headers: { 'WWW-Authenticate': `Keystone uri="${baseUrl(req)}/identity/v3"` },
    noVersionHeaders: true,
  });
}

/** Resolves X-Auth-Token into req.ctx.auth, or answers 401 as keystonemiddleware does. */
export function requireToken(tokens: TokenService): RequestHandler {
  return async (req, _res, next) => {
    const token = req.get('X-Auth-Token');
    const auth = token ? await tokens.validate(token) : null;
    if (!auth) throw unauthenticated(req);
    req.ctx.auth = auth;
    next();
  };
}
