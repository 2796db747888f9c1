import { type RequestHandler, Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { memberOf, resource, sendJson } from '../http.js';
import { catalogService } from '../service/catalog.service.js';
import { endpointView, regionView, serviceView } from '../views/catalog.view.js';
import { collectionLinks } from '../views/links.view.js';
import { param, queryOf, selfUrl } from './common.js';

/** /v3/services, /v3/endpoints and /v3/regions: Keystone's catalog API, for admins to change. */
export function catalogRoutes(store: Store, authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/services', {
    get: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const rows = await catalogService.listServices(store, authOf(req.ctx), base, queryOf(req));
        sendJson(res, 200, {
          services: rows.map((s) => serviceView(s, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
    post: [
      authed,
      async (req, res) => {
        const row = await catalogService.createService(store, authOf(req.ctx), memberOf(req, 'service'));
        sendJson(res, 201, { service: serviceView(row, baseUrl(req)) });
      },
    ],
  });
  resource(router, '/v3/services/:serviceId', {
    get: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const row = await catalogService.getService(store, authOf(req.ctx), base, param(req, 'serviceId'));
        sendJson(res, 200, { service: serviceView(row, base) });
      },
    ],
    patch: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const row = await catalogService.updateService(
          store,
          authOf(req.ctx),
          base,
          param(req, 'serviceId'),
          memberOf(req, 'service'),
        );
        sendJson(res, 200, { service: serviceView(row, base) });
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await catalogService.deleteService(store, authOf(req.ctx), baseUrl(req), param(req, 'serviceId'));
        res.status(204).end();
      },
    ],
  });

  resource(router, '/v3/endpoints', {
    get: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const rows = await catalogService.listEndpoints(store, authOf(req.ctx), base, queryOf(req));
        sendJson(res, 200, {
          endpoints: rows.map((e) => endpointView(e, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
    post: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const row = await catalogService.createEndpoint(
          store,
          authOf(req.ctx),
          base,
          memberOf(req, 'endpoint'),
        );
        sendJson(res, 201, { endpoint: endpointView(row, base) });
      },
    ],
  });
  resource(router, '/v3/endpoints/:endpointId', {
    get: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const row = await catalogService.getEndpoint(store, authOf(req.ctx), base, param(req, 'endpointId'));
        sendJson(res, 200, { endpoint: endpointView(row, base) });
      },
    ],
    patch: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const row = await catalogService.updateEndpoint(
          store,
          authOf(req.ctx),
          base,
          param(req, 'endpointId'),
          memberOf(req, 'endpoint'),
        );
        sendJson(res, 200, { endpoint: endpointView(row, base) });
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await catalogService.deleteEndpoint(store, authOf(req.ctx), baseUrl(req), param(req, 'endpointId'));
        res.status(204).end();
      },
    ],
  });

  resource(router, '/v3/regions', {
    get: [
      authed,
      async (req, res) => {
        const base = baseUrl(req);
        const rows = await catalogService.listRegions(store, authOf(req.ctx), queryOf(req));
        sendJson(res, 200, {
          regions: rows.map((r) => regionView(r, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
    post: [
      authed,
      async (req, res) => {
        const row = await catalogService.createRegion(store, authOf(req.ctx), memberOf(req, 'region'));
        sendJson(res, 201, { region: regionView(row, baseUrl(req)) });
      },
    ],
  });
  resource(router, '/v3/regions/:regionId', {
    get: [
      authed,
      async (req, res) => {
        const row = await catalogService.getRegion(store, authOf(req.ctx), param(req, 'regionId'));
        sendJson(res, 200, { region: regionView(row, baseUrl(req)) });
      },
    ],
    put: [
      authed,
      async (req, res) => {
        const row = await catalogService.createRegion(
          store,
          authOf(req.ctx),
          memberOf(req, 'region'),
          param(req, 'regionId'),
        );
        sendJson(res, 201, { region: regionView(row, baseUrl(req)) });
      },
    ],
    patch: [
      authed,
      async (req, res) => {
        const row = await catalogService.updateRegion(
          store,
          authOf(req.ctx),
          param(req, 'regionId'),
          memberOf(req, 'region'),
        );
        sendJson(res, 200, { region: regionView(row, baseUrl(req)) });
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await catalogService.deleteRegion(store, authOf(req.ctx), param(req, 'regionId'));
        res.status(204).end();
      },
    ],
  });

  return router;
}
