import { apiPaths, launchListSchema, launchPlanSchema, launchRequestSchema, launchSchema } from '@sv/shared';
import { Router } from 'express';
import type { BffConfig } from '../../config.js';
import type { ChangeBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { VolumeLock } from '../../platform/volume-lock.js';
import { requireSession, sessionOf } from '../../platform/session.js';
import { parseInput, sendValid } from '../../platform/validate.js';
import { type LaunchService, launchService, launchStoreFor } from './launch.service.js';

/** POST /api/launches/plan, POST /api/launches (202), GET /api/launches[/:id]. */
export function launchRoutes(deps: {
  config: BffConfig;
  logger: Logger;
  changes: ChangeBus;
  /** The per-volume section attaches take too: a launch adds holders under the same rule. */
  volumeLock?: VolumeLock;
  /** Tests pass their own; otherwise one is made from the config. */
  service?: LaunchService;
}): Router {
  const service =
    deps.service ??
    launchService({
      store: launchStoreFor(deps.config, deps.logger),
      changes: deps.changes,
      logger: deps.logger,
      ...(deps.volumeLock ? { volumeLock: deps.volumeLock } : {}),
    });
  const router = Router();

  router.post(apiPaths.launchPlan, requireSession, async (req, res) => {
    const request = parseInput(launchRequestSchema, req.body);
    sendValid(res, launchPlanSchema, await service.plan(sessionOf(req), request));
  });
  router.post(apiPaths.launches, requireSession, async (req, res) => {
    const request = parseInput(launchRequestSchema, req.body);
    const launch = await service.start(sessionOf(req), request);
    res.setHeader('Location', apiPaths.launch(launch.id));
    sendValid(res, launchSchema, launch, 202);
  });
  router.get(apiPaths.launches, requireSession, async (req, res) => {
    sendValid(res, launchListSchema, { launches: await service.list(sessionOf(req)) });
  });
  router.get(`${apiPaths.launches}/:id`, requireSession, async (req, res) => {
    sendValid(res, launchSchema, await service.get(sessionOf(req), String(req.params.id)));
  });
  return router;
}
