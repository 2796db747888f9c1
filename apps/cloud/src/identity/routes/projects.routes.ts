import { Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import type { RequestHandler } from 'express';
import { memberOf, resource, sendJson } from '../http.js';
import { projectsService } from '../service/projects.service.js';
import { collectionLinks } from '../views/links.view.js';
import { projectView } from '../views/project.view.js';
import { param, queryOf, selfUrl } from './common.js';

export function projectRoutes(store: Store, authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/projects', {
    get: [
      authed,
      async (req, res) => {
        const rows = await projectsService.list(store, authOf(req.ctx), queryOf(req));
        const base = baseUrl(req);
        sendJson(res, 200, {
          projects: rows.map((p) => projectView(p, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
    post: [
      authed,
      async (req, res) => {
        const row = await projectsService.create(store, authOf(req.ctx), memberOf(req, 'project'));
        sendJson(res, 201, { project: projectView(row, baseUrl(req)) });
      },
    ],
  });

  resource(router, '/v3/projects/:projectId', {
    get: [
      authed,
      async (req, res) => {
        const row = await projectsService.get(store, authOf(req.ctx), param(req, 'projectId'));
        sendJson(res, 200, { project: projectView(row, baseUrl(req)) });
      },
    ],
    patch: [
      authed,
      async (req, res) => {
        const row = await projectsService.update(
          store,
          authOf(req.ctx),
          param(req, 'projectId'),
          memberOf(req, 'project'),
        );
        sendJson(res, 200, { project: projectView(row, baseUrl(req)) });
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await projectsService.delete(store, authOf(req.ctx), param(req, 'projectId'));
        res.status(204).end();
      },
    ],
  });

  return router;
}
