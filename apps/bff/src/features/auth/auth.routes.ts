import {
  apiPaths,
  capabilitiesSchema,
  loginRequestSchema,
  sessionSchema,
  switchProjectRequestSchema,
} from '@sv/shared';
import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { BffConfig } from '../../config.js';
import { clearSessionCookie, requireSession, sessionOf, setSessionCookie } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { type authService, sessionView } from './auth.service.js';

export function authRoutes(config: BffConfig, auth: ReturnType<typeof authService>): Router {
  const router = Router();
  const loginLimiter = rateLimit({
    windowMs: 15 * 60_000,
    limit: config.loginRateLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({
        error: {
          code: 'too_many_attempts',
          message: 'Too many sign-in attempts. Wait a few minutes and try again.',
        },
      });
    },
  });

  router.post(apiPaths.session, loginLimiter, async (req, res) => {
    const input = parseInput(loginRequestSchema, req.body);
    const session = await auth.login(input);
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
