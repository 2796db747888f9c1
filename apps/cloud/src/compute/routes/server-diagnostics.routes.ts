import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { serverDiagnostics } from '../service/server-diagnostics.service.js';

/** GET /servers/{id}/diagnostics: the hypervisor's view of a running server (admin only). */
export function serverDiagnosticsRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/servers/:serverId/diagnostics', async (req, res) => {
    const auth = authOf(req.ctx);
    res.status(200).json(await serverDiagnostics(deps, auth, versionOf(req.ctx), req.params.serverId));
  });
  return router;
}
