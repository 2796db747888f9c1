import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { parseServerAction } from '../schemas/server-actions.schemas.js';
import { serverAction } from '../service/server-actions.service.js';
import { sendEmpty } from './servers.routes.js';

/** POST /servers/{id}/action: stop, start, reboot, shelve(Offload), unshelve, resize and its confirm/revert. */
export function serverActionRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.post('/servers/:id/action', async (req, res) => {
    const version = versionOf(req.ctx);
    const action = parseServerAction(req.ctx.body, version);
    const status = await serverAction(deps, authOf(req.ctx), version, req.params.id, action);
    sendEmpty(res, status);
  });
  return router;
}
