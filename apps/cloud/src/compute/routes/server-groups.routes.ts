import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { parseServerGroupCreate, parseServerGroupListQuery } from '../schemas/server-groups.schemas.js';
import {
  createServerGroup,
  deleteServerGroup,
  listServerGroups,
  showServerGroup,
} from '../service/server-groups.service.js';
import { serverGroupView } from '../views/server-group.view.js';

/** `os-server-groups`: create (200), list, show and delete (204). */
export function serverGroupRoutes(deps: ComputeDeps): Router {
  const router = Router();

  router.post('/os-server-groups', async (req, res) => {
    const version = versionOf(req.ctx);
    const cmd = parseServerGroupCreate(req.ctx.body, version);
    const group = await createServerGroup(deps, authOf(req.ctx), cmd);
    res.status(200).json({ server_group: serverGroupView(group, version) });
  });

  router.get('/os-server-groups', async (req, res) => {
    const version = versionOf(req.ctx);
    const groups = await listServerGroups(
      deps,
      authOf(req.ctx),
      parseServerGroupListQuery(req.query, version),
    );
    res.status(200).json({ server_groups: groups.map((g) => serverGroupView(g, version)) });
  });

  router.get('/os-server-groups/:id', async (req, res) => {
    const group = await showServerGroup(deps, authOf(req.ctx), req.params.id);
    res.status(200).json({ server_group: serverGroupView(group, versionOf(req.ctx)) });
  });

  router.delete('/os-server-groups/:id', async (req, res) => {
    await deleteServerGroup(deps, authOf(req.ctx), req.params.id);
    res.status(204).end();
  });

  return router;
}
