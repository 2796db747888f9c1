import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { versionOf } from '../../platform/http/microversion.js';
import { parseServerAction } from '../schemas/server-actions.schemas.js';
import { serverAction } from '../service/server-actions.service.js';
import { sendEmpty } from './servers.routes.js';
import { isJsonObject } from '../schemas/validation.js';
import { consoleOutput } from '../service/console-output.service.js';
import { deleteServer } from '../service/servers.service.js';
import { SERVER_ACTION_RULES } from '../policy.js';
// --- cloud-rescue ---
import { parseRescueAction } from '../schemas/server-rescue.schemas.js';
import { rescueAction } from '../service/server-rescue.service.js';
// --- end cloud-rescue ---
// cloud-rebuild
import { parseServerRebuild } from '../schemas/server-rebuild.schemas.js';
import { rebuildServer } from '../service/server-rebuild.service.js';
import { loadExtras } from '../service/servers.service.js';
import { scheduleAdvance } from '../host/server-lifecycle.js';
import { serverLinks } from '../views/server.view.js';
import { serverRebuildView } from '../views/server-rebuild.view.js';
import { viewContext } from './servers.routes.js';

/** POST /servers/{id}/action: stop, start, reboot, shelve(Offload), unshelve, resize and its confirm/revert. */
export function serverActionRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.post('/servers/:id/action', async (req, res) => {
    // --- cloud15: the one action that answers a body ---
    if (isJsonObject(req.ctx.body) && 'os-getConsoleOutput' in req.ctx.body) {
      const output = await consoleOutput(deps, authOf(req.ctx), req.params.id, req.ctx.body);
      res.status(200).json({ output });
      return;
    }
    // --- end cloud15 ---
    // --- cloud-rebuild: rebuild answers the server (its own service and view) ---
    const body = req.ctx.body;
    if (isJsonObject(body) && Object.keys(body).length === 1 && 'rebuild' in body) {
      const ctx = viewContext(req);
      const parsed = parseServerRebuild(body, ctx.version);
      const auth = authOf(req.ctx);
      const { server, adminPass } = await rebuildServer(deps, auth, ctx.version, req.params.id, parsed);
      scheduleAdvance(deps, server.id);
      const extras = await loadExtras(deps, [server], {
        isAdmin: ctx.isAdmin,
        images: ctx.version.atLeast('2.98'),
      });
      res
        .status(202)
        .location(serverLinks(ctx.computeBase, server.id)[0]!.href)
        .json(serverRebuildView(ctx, server, extras.get(server.id)!, adminPass));
      return;
    }
    // --- end cloud-rebuild ---
    const version = versionOf(req.ctx);
    // --- cloud-rescue: rescue (200 with the password), unrescue and migrate (202) ---
    const rescue = parseRescueAction(req.ctx.body, version);
    if (rescue) {
      const answer = await rescueAction(deps, authOf(req.ctx), req.params.id, rescue);
      if (answer) res.status(200).json(answer);
      else sendEmpty(res, 202);
      return;
    }
    // --- end cloud-rescue ---
    const action = parseServerAction(req.ctx.body, version);
    // --- cloudc2: forceDelete is DELETE under os-deferred-delete:force, answered 202 ---
    if (action.name === 'forceDelete') {
      await deleteServer(deps, authOf(req.ctx), req.params.id, SERVER_ACTION_RULES.forceDelete);
      sendEmpty(res, 202);
      return;
    }
    // --- end cloudc2 ---
    const status = await serverAction(deps, authOf(req.ctx), version, req.params.id, action);
    sendEmpty(res, status);
  });
  return router;
}
