import { acceptedSchema, apiPaths, listScopeQuerySchema, serverListSchema, serverSchema } from '@sv/shared';
import { Router } from 'express';
import type { ChangeBus } from '../../platform/events.js';
import { requireSession, sessionOf } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { serversService } from './servers.service.js';

export function serversRoutes(changes: ChangeBus): Router {
  const servers = serversService(changes);
  const router = Router();

  router.get(apiPaths.servers, requireSession, async (req, res) => {
    const { all } = parseInput(listScopeQuerySchema, req.query);
    sendValid(res, serverListSchema, { servers: await servers.list(sessionOf(req), { all }) });
  });
  router.get('/api/servers/:id', requireSession, async (req, res) => {
    sendValid(res, serverSchema, await servers.get(sessionOf(req), String(req.params.id)));
  });
  router.delete('/api/servers/:id', requireSession, async (req, res) => {
    await servers.remove(sessionOf(req), String(req.params.id));
    sendValid(res, acceptedSchema, { accepted: true }, 202);
  });
  return router;
}
