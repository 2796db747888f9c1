import {
  apiPaths,
  capabilitiesSchema,
  loginRequestSchema,
  sessionSchema,
  switchProjectRequestSchema,
} from '@sv/shared';
import { Router } from 'express';
import { ApiError } from '../../platform/errors.js';
import {
  clearSessionCookie,
  currentSession,
  requireSession,
  sessionOf,
  setSessionCookie,
} from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { type authService, sessionView } from './auth.service.js';
import type { LoginLimiter } from './login-limits.js';

const wrongCredentials = (err: unknown) => err instanceof ApiError && err.code === 'wrong_credentials';

export function authRoutes(auth: ReturnType<typeof authService>, limiter: LoginLimiter): Router {
  const router = Router();

  router.post(apiPaths.session, async (req, res) => {
    const input = parseInput(loginRequestSchema, req.body);
    const previous = currentSession(req);
    const keys = { domain: input.domain, username: input.username, address: req.ip };
    const session = await limiter
      .attempt(keys, () => auth.login(input, previous), wrongCredentials)
      .catch((err: unknown) => {
        const retry = err instanceof ApiError ? err.details?.retryAfterSeconds : undefined;
        if (typeof retry === 'number') res.setHeader('Retry-After', String(retry));
        throw err;
      });
    setSessionCookie(req, res, session);
    sendValid(res, sessionSchema, sessionView(session), 201);
  });
  router.get(apiPaths.session, requireSession, (req, res) => {
    sendValid(res, sessionSchema, sessionView(sessionOf(req)));
  });
  router.put(apiPaths.sessionProject, requireSession, async (req, res) => {
    const { projectId } = parseInput(switchProjectRequestSchema, req.body);
    const session = await auth.switchProject(sessionOf(req), projectId);
    setSessionCookie(req, res, session);
    sendValid(res, sessionSchema, sessionView(session));
  });
  router.delete(apiPaths.session, requireSession, async (req, res) => {
    await auth.logout(sessionOf(req));
    clearSessionCookie(req, res);
    res.status(204).end();
  });
  router.get(apiPaths.capabilities, requireSession, (req, res) => {
    sendValid(res, capabilitiesSchema, sessionOf(req).capabilities);
  });
  return router;
}
