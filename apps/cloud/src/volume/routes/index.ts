import { Router } from 'express';
import type { CloudDeps } from '../../app.js';

/**
 * Every route under /volume/v3/{project_id}. The caller is authenticated, the microversion
 * negotiated (req.ctx.version) and the JSON body parsed (req.ctx.body) before these run.
 */
export function volumeApiRoutes(_deps: CloudDeps): Router {
  const router = Router({ mergeParams: true });
  return router;
}
