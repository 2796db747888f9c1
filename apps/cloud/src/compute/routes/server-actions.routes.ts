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
