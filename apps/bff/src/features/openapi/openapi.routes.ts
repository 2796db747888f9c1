import { apiPaths } from '@sv/shared';
import { Router } from 'express';
import { buildOpenApi } from './openapi.document.js';

/** GET /api/openapi.json: built once, from the shared schemas, when first asked for. */
export function openapiRoutes(): Router {
  const router = Router();
  let document: string | null = null;
  router.get(apiPaths.openapi, (_req, res) => {
    document ??= JSON.stringify(buildOpenApi());
    res.type('application/json').send(document);
  });
  return router;
}
