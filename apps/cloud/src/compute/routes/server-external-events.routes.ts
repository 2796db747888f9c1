import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { createExternalEvents } from '../service/server-external-events.service.js';

/** POST /os-server-external-events: port and volume news for servers (admin only). */
export function serverExternalEventsRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.post('/os-server-external-events', async (req, res) => {
    const answer = await createExternalEvents(deps, authOf(req.ctx), versionOf(req.ctx), req.ctx.body);
    res.status(answer.status).json({ events: answer.events });
  });
  return router;
}
