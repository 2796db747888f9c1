import { preflightQuerySchema, preflightSchema } from '@sv/shared';
import { Router } from 'express';
import { requireSession, sessionOf } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { type PreflightOptions, preflightOptionsFromEnv, preflightService } from './preflight.service.js';

/** GET /api/preflight/attach?volumeId=… | ?serverId=…: what can attach to what, and why not. */
export function preflightRoutes(opts: PreflightOptions = preflightOptionsFromEnv()): Router {
  const router = Router();
  const preflight = preflightService(opts);
  router.get('/api/preflight/attach', requireSession, async (req, res) => {
    const query = parseInput(preflightQuerySchema, req.query);
    sendValid(res, preflightSchema, await preflight.check(sessionOf(req), query));
  });
  return router;
}
