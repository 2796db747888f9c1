import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { imageVersionsView } from '../views/versions.view.js';

const imageBase = (req: Request) => `${baseUrl(req)}/image`;

/**
 * Glance's version negotiation: `GET /versions` answers 200, and any path that is not under a
 * served API version (`/`, `/v1/...`, `/v3/...`) answers the same list with 300. No token needed.
 */
export function imageVersionRoutes(): Router {
  const router = Router();
  router.get('/versions', (req, res) => {
    res.json(imageVersionsView(imageBase(req)));
  });
  router.use((req, res, next) => {
    if (req.path === '/v2' || req.path.startsWith('/v2/')) return next();
    res.status(300).json(imageVersionsView(imageBase(req)));
  });
  return router;
}
