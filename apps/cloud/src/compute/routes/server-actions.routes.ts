import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { serverAction } from '../service/server-actions.service.js';
import { sendEmpty } from './servers.routes.js';

/** POST /servers/{id}/action: stop, start, reboot, shelve(Offload), unshelve, resize and its confirm/revert. */
export function serverActionRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.post('/servers/:id/action', async (req, res) => {
    const status = await serverAction(deps, authOf(req.ctx), versionOf(req.ctx), req.params.id, req.ctx.body);
    sendEmpty(res, status);
  });
  return router;
}
