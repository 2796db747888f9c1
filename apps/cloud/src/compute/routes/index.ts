import { Router } from 'express';
import type { CloudDeps } from '../../app.js';

/**
 * Every route under /compute/v2.1. The caller is authenticated (req.ctx.auth), the
 * microversion negotiated (req.ctx.version) and the JSON body parsed (req.ctx.body).
 */
export function computeApiRoutes(_deps: CloudDeps): Router {
  const router = Router();
  return router;
}
