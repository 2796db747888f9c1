import { type RequestHandler, Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { memberOf, resource, sendJson } from '../http.js';
import { projectsService } from '../service/projects.service.js';
import { usersService } from '../service/users.service.js';
import { collectionLinks } from '../views/links.view.js';
import { projectView } from '../views/project.view.js';
import { userView } from '../views/user.view.js';
import { param, queryOf, selfUrl } from './common.js';

export function userRoutes(store: Store, authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/users', {
    get: [
      authed,
      async (req, res) => {
        const rows = await usersService.list(store, authOf(req.ctx), queryOf(req));
        const base = baseUrl(req);
        sendJson(res, 200, {
          users: rows.map((u) => userView(u, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
    post: [
      authed,
      async (req, res) => {
        const row = await usersService.create(store, authOf(req.ctx), memberOf(req, 'user'));
        sendJson(res, 201, { user: userView(row, baseUrl(req)) });
      },
    ],
  });

  resource(router, '/v3/users/:userId', {
    get: [
      authed,
      async (req, res) => {
        const row = await usersService.get(store, authOf(req.ctx), param(req, 'userId'));
        sendJson(res, 200, { user: userView(row, baseUrl(req)) });
      },
    ],
    patch: [
      authed,
      async (req, res) => {
        const row = await usersService.update(
          store,
          authOf(req.ctx),
          param(req, 'userId'),
          memberOf(req, 'user'),
        );
        sendJson(res, 200, { user: userView(row, baseUrl(req)) });
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await usersService.delete(store, authOf(req.ctx), param(req, 'userId'));
        res.status(204).end();
      },
    ],
  });

  // Self-service password change: Keystone needs no token here, the old password is the proof.
  resource(router, '/v3/users/:userId/password', {
    post: async (req, res) => {
      await usersService.changePassword(store, param(req, 'userId'), memberOf(req, 'user'));
      res.status(204).end();
    },
  });

  resource(router, '/v3/users/:userId/projects', {
    get: [
      authed,
      async (req, res) => {
        const rows = await projectsService.ofUser(store, authOf(req.ctx), param(req, 'userId'), queryOf(req));
        const base = baseUrl(req);
        sendJson(res, 200, {
          projects: rows.map((p) => projectView(p, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });

  return router;
}
