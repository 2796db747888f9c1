import { apiPaths, hostListSchema } from '@sv/shared';
import { Router } from 'express';
import { requireSession, sessionOf } from '../../platform/session.js';
import { sendValid } from '../../platform/validate.js';
import { hostsService } from './hosts.service.js';

export function hostsRoutes(): Router {
  const hosts = hostsService();
  const router = Router();
  router.get(apiPaths.hosts, requireSession, async (req, res) => {
    sendValid(res, hostListSchema, await hosts.list(sessionOf(req)));
  });
  return router;
}
