import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { extensionShowView, extensionsListView } from '../views/extensions.view.js';

/** GET /extensions and /extensions/{alias}: Nova's fixed list, for any role (captures 880-883). */
export function extensionRoutes(_deps: ComputeDeps): Router {
  const router = Router();
  router.get('/extensions', (_req, res) => {
    res.status(200).json(extensionsListView());
  });
  router.get('/extensions/:alias', (req, res) => {
    const shown = extensionShowView(req.params.alias);
    if (!shown) throw notFound(WEBOB_NOT_FOUND);
    res.status(200).json(shown);
  });
  return router;
}
