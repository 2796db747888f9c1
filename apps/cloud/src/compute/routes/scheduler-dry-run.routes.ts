import { Router } from 'express';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import { ENHANCEMENTS_VERSION } from '../microversions.js';
import { parseDryRun } from '../schemas/scheduler-dry-run.schemas.js';
import { schedulerDryRun } from '../service/scheduler-dry-run.service.js';
import { schedulerDryRunView } from '../views/scheduler-dry-run.view.js';

/**
 * POST /os-scheduler-dry-run: how many of N servers the scheduler would place now, per zone.
 * Our extension (docs/cloud-extensions.md), from 2.105 only: below it the resource does not
 * exist, as a Nova method added at a microversion answers. Any project token may ask, a
 * reader's too: it changes nothing.
 */
export function schedulerDryRunRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.post('/os-scheduler-dry-run', async (req, res) => {
    if (versionOf(req.ctx).below(ENHANCEMENTS_VERSION)) throw notFound(WEBOB_NOT_FOUND);
    const dry = parseDryRun(req.ctx.body);
    const answer = await schedulerDryRun(deps, authOf(req.ctx), dry);
    res.status(200).json(schedulerDryRunView(answer));
  });
  return router;
}
