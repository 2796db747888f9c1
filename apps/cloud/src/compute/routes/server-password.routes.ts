import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { clearServerPassword, serverPassword } from '../service/server-password.service.js';

/** `/servers/{id}/os-server-password`: the guest's encrypted password ('' when none), and clearing it. */
export function serverPasswordRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/servers/:serverId/os-server-password', async (req, res) => {
    res.status(200).json({ password: await serverPassword(deps, authOf(req.ctx), req.params.serverId) });
  });
  router.delete('/servers/:serverId/os-server-password', async (req, res) => {
    await clearServerPassword(deps, authOf(req.ctx), req.params.serverId);
    res.status(204).end();
  });
  return router;
}
