import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { listInstanceActions, showInstanceAction } from '../service/instance-actions.service.js';
import {
  instanceActionDetailView,
  instanceActionView,
  instanceActionsLinks,
} from '../views/instance-action.view.js';

/** GET /servers/{id}/os-instance-actions and /os-instance-actions/{request_id}. */
export function instanceActionRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/servers/:id/os-instance-actions', async (req, res) => {
    const v = versionOf(req.ctx);
    const query = req.query as Record<string, unknown>;
    const page = await listInstanceActions(deps, authOf(req.ctx), v, req.params.id, query);
    const links = instanceActionsLinks(
      `${baseUrl(req)}/compute`,
      req.params.id,
      query,
      page.limit,
      page.actions,
    );
    res.json({
      instanceActions: page.actions.map((a) => instanceActionView(a, page.server.id, v)),
      ...(links.length ? { links } : {}),
    });
  });
  router.get('/servers/:id/os-instance-actions/:requestId', async (req, res) => {
    const v = versionOf(req.ctx);
    const detail = await showInstanceAction(deps, authOf(req.ctx), v, req.params.id, req.params.requestId);
    res.json({ instanceAction: instanceActionDetailView(detail, v) });
  });
  return router;
}
