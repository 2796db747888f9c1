import { type RequestHandler, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';

/** Cinder's version documents. `GET /` needs no token; `GET /v3/` does (capture 222). */
export function versionDocument(base: string) {
  return {
    id: 'v3.0',
    status: 'CURRENT',
    version: '3.71',
    min_version: '3.0',
    updated: '2023-08-31T00:00:00Z',
    links: [
      { rel: 'describedby', type: 'text/html', href: 'https://docs.openstack.org/' },
      { rel: 'self', href: `${base}/volume/v3/` },
    ],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.volume+json;version=3' }],
  };
}

export function versionRoutes(requireToken: RequestHandler): Router {
  const router = Router();
  router.get('/', (req, res) => {
    res.setHeader('OpenStack-API-Version', 'volume 3.0');
    res.setHeader('Vary', 'OpenStack-API-Version');
    res.status(300).json({ versions: [versionDocument(baseUrl(req))] });
  });
  router.get('/v3/', requireToken, (req, res) => {
    res.setHeader('OpenStack-API-Version', 'volume 3.0');
    res.setHeader('Vary', 'OpenStack-API-Version');
    res.json({ versions: [versionDocument(baseUrl(req))] });
  });
  return router;
}
