import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { EXTENSIONS, extensionView } from '../views/extensions.view.js';
import { notFoundOf } from '../errors.js';
import { RESOURCE_COLLECTIONS } from './resources.routes.js';

const networkBase = (req: Request) => `${baseUrl(req)}/network`;

/** `GET /network/` (no token): the one API version, v2.0, CURRENT. */
export function networkVersionRoutes(): Router {
  const router = Router({ strict: true });
  router.get('/', (req, res) => {
    res.json({
      versions: [
        {
          id: 'v2.0',
          status: 'CURRENT',
          links: [{ href: `${networkBase(req)}/v2.0/`, rel: 'self' }],
        },
      ],
    });
  });
  return router;
}

/** `GET /v2.0/` (the resources it serves) and the extensions list. */
export function networkDiscoveryRoutes(): Router {
  const router = Router();
  router.get('/', (req, res) => {
    res.json({
      resources: RESOURCE_COLLECTIONS.map((r) => ({
        links: [{ href: `${networkBase(req)}/v2.0/${r.collection}`, rel: 'self' }],
        name: r.name,
        collection: r.collection,
      })),
    });
  });
  router.get('/extensions', (_req, res) => {
    res.json({ extensions: EXTENSIONS.map(extensionView) });
  });
  router.get('/extensions/:alias', (req, res) => {
    const ext = EXTENSIONS.find((e) => e.alias === req.params.alias);
    if (!ext) throw notFoundOf.extension(req.params.alias);
    res.json({ extension: extensionView(ext) });
  });
  return router;
}
