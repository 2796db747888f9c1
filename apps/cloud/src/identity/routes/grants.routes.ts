import { type Request, type RequestHandler, Router } from 'express';
import type { Store } from '../../platform/db/store.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { resource, sendJson } from '../http.js';
import { assignmentsService, type Grant } from '../service/assignments.service.js';
import { roleAssignmentView } from '../views/assignment.view.js';
import { collectionLinks } from '../views/links.view.js';
import { roleView } from '../views/role.view.js';
import { flag, param, queryOf, selfUrl } from './common.js';

const grantOf = (req: Request): Grant => ({
  projectId: param(req, 'projectId'),
  userId: param(req, 'userId'),
  roleId: param(req, 'roleId'),
});

/** Role grants of users on projects, and the role assignments report. */
export function grantRoutes(store: Store, authed: RequestHandler): Router {
  const router = Router();

  resource(router, '/v3/projects/:projectId/users/:userId/roles', {
    get: [
      authed,
      async (req, res) => {
        const rows = await assignmentsService.listGrants(
          store,
          authOf(req.ctx),
          param(req, 'projectId'),
          param(req, 'userId'),
        );
        const base = baseUrl(req);
        sendJson(res, 200, {
          roles: rows.map((r) => roleView(r, base)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });

  resource(router, '/v3/projects/:projectId/users/:userId/roles/:roleId', {
    get: [
      authed,
      async (req, res) => {
        await assignmentsService.check(store, authOf(req.ctx), grantOf(req));
        res.status(204).end();
      },
    ],
    put: [
      authed,
      async (req, res) => {
        await assignmentsService.grant(store, authOf(req.ctx), grantOf(req));
        res.status(204).end();
      },
    ],
    delete: [
      authed,
      async (req, res) => {
        await assignmentsService.revoke(store, authOf(req.ctx), grantOf(req));
        res.status(204).end();
      },
    ],
  });

  resource(router, '/v3/role_assignments', {
    get: [
      authed,
      async (req, res) => {
        const q = queryOf(req);
        const rows = await assignmentsService.list(store, authOf(req.ctx), q);
        const base = baseUrl(req);
        const includeNames = flag(q, 'include_names');
        sendJson(res, 200, {
          role_assignments: rows.map((a) => roleAssignmentView(a, base, includeNames)),
          links: collectionLinks(selfUrl(req)),
        });
      },
    ],
  });

  return router;
}
