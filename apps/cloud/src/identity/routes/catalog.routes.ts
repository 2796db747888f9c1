import { type RequestHandler, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { resource, sendJson } from '../http.js';
import { catalogService } from '../service/catalog.service.js';
import { endpointView, regionView, serviceView } from '../views/catalog.view.js';
import { collectionLinks } from '../views/links.view.js';
import { param, queryOf, selfUrl } from './common.js';

/** /v3/services, /v3/endpoints and /v3/regions: what `openstack service list` and `endpoint list` read. */
export function catalogRoutes(authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/services', {
    get: [
      authed,
      (req, res) => {
        const base = baseUrl(req);
        const rows = catalogService.listServices(authOf(req.ctx), base, queryOf(req));
        sendJson(res, 200, {
          services: rows.map((s) => serviceView(s, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });
  resource(router, '/v3/services/:serviceId', {
    get: [
      authed,
      (req, res) => {
        const base = baseUrl(req);
        const row = catalogService.getService(authOf(req.ctx), base, param(req, 'serviceId'));
        sendJson(res, 200, { service: serviceView(row, base) });
      },
    ],
  });

  resource(router, '/v3/endpoints', {
    get: [
      authed,
      (req, res) => {
        const base = baseUrl(req);
        const rows = catalogService.listEndpoints(authOf(req.ctx), base, queryOf(req));
        sendJson(res, 200, {
          endpoints: rows.map((e) => endpointView(e, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });
  resource(router, '/v3/endpoints/:endpointId', {
    get: [
      authed,
      (req, res) => {
        const base = baseUrl(req);
        const row = catalogService.getEndpoint(authOf(req.ctx), base, param(req, 'endpointId'));
        sendJson(res, 200, { endpoint: endpointView(row, base) });
      },
    ],
  });

  resource(router, '/v3/regions', {
    get: [
      authed,
      (req, res) => {
        const base = baseUrl(req);
        const ids = catalogService.listRegions(authOf(req.ctx), queryOf(req));
        sendJson(res, 200, {
          regions: ids.map((id) => regionView(id, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });
  resource(router, '/v3/regions/:regionId', {
    get: [
      authed,
      (req, res) => {
        const id = catalogService.getRegion(authOf(req.ctx), param(req, 'regionId'));
        sendJson(res, 200, { region: regionView(id, baseUrl(req)) });
      },
    ],
  });

  return router;
}
