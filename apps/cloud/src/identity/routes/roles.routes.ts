import { type RequestHandler, Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { memberOf, resource, sendJson } from '../http.js';
import { rolesService } from '../service/roles.service.js';
import { collectionLinks } from '../views/links.view.js';
import { roleView } from '../views/role.view.js';
import { param, queryOf, selfUrl } from './common.js';

export function roleRoutes(store: Store, authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/roles', {
    get: [
      authed,
      async (req, res) => {
        const rows = await rolesService.list(store, authOf(req.ctx), queryOf(req));
        const base = baseUrl(req);
        sendJson(res, 200, {
          roles: rows.map((r) => roleView(r, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
    post: [
      authed,
      async (req, res) => {
        const row = await rolesService.create(store, authOf(req.ctx), memberOf(req, 'role'));
        sendJson(res, 201, { role: roleView(row, baseUrl(req)) });
      },
    ],
  });

  resource(router, '/v3/roles/:roleId', {
    get: [
      authed,
      async (req, res) => {
        const row = await rolesService.get(store, authOf(req.ctx), param(req, 'roleId'));
        sendJson(res, 200, { role: roleView(row, baseUrl(req)) });
      },
    ],
    patch: [
      authed,
      async (req, res) => {
        const row = await rolesService.update(
          store,
          authOf(req.ctx),
          param(req, 'roleId'),
          memberOf(req, 'role'),
        );
        sendJson(res, 200, { role: roleView(row, baseUrl(req)) });
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await rolesService.delete(store, authOf(req.ctx), param(req, 'roleId'));
        res.status(204).end();
      },
    ],
  });

  return router;
}
