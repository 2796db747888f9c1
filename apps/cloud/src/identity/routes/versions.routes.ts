import { Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { resource, sendJson } from '../http.js';
import { v3VersionView } from '../views/version.view.js';

/** Version discovery (captures 65, 66): no token needed. */
export function versionRoutes(): Router {
  const router = Router();
  resource(router, '/', {
    get: (req, res) => {
      const base = baseUrl(req);
      res.setHeader('Location', `${base}/identity/v3/`);
      sendJson(res, 300, { versions: { values: [v3VersionView(base)] } });
    },
  });
  resource(router, '/v3', {
    get: (req, res) => sendJson(res, 200, { version: v3VersionView(baseUrl(req)) }),
  });
  return router;
}
