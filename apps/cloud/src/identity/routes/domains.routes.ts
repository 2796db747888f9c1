import { type RequestHandler, Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { resource, sendJson } from '../http.js';
import { domainsService } from '../service/domains.service.js';
import { domainView } from '../views/domain.view.js';
import { collectionLinks } from '../views/links.view.js';
import { param, queryOf, selfUrl } from './common.js';

/** Domains, read-only: this cloud has the one Keystone bootstraps. */
export function domainRoutes(store: Store, authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/domains', {
    get: [
      authed,
      async (req, res) => {
        const rows = await domainsService.list(store, authOf(req.ctx), queryOf(req));
        const base = baseUrl(req);
        sendJson(res, 200, {
          domains: rows.map((d) => domainView(d, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });

  resource(router, '/v3/domains/:domainId', {
    get: [
      authed,
      async (req, res) => {
        const row = await domainsService.get(store, authOf(req.ctx), param(req, 'domainId'));
        sendJson(res, 200, { domain: domainView(row, baseUrl(req)) });
      },
    ],
  });

  return router;
}
