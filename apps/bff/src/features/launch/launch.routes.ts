import {
  apiErrorSchema,
  apiPaths,
  launchListSchema,
  launchPlanSchema,
  launchRequestSchema,
  launchSchema,
} from '@sv/shared';
import type { BffConfig } from '../../config.js';
import type { ChangeBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { SessionStore } from '../../platform/session-store.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import type { VolumeLock } from '../../platform/volume-lock.js';
import { preflightOptionsFromEnv } from '../preflight/preflight.service.js';
import { type LaunchService, launchService, launchStoreFor } from './launch.service.js';

/** Makes the launch service from the config: launches in PostgreSQL or the embedded SQLite file. */
export function launchServiceFor(deps: {
  config: BffConfig;
  logger: Logger;
  changes: ChangeBus;
  sessions: SessionStore;
  volumeLock?: VolumeLock;
}): LaunchService {
  return launchService({
    store: launchStoreFor(deps.config, deps.logger),
    changes: deps.changes,
    logger: deps.logger,
    sessions: deps.sessions,
    ...(deps.volumeLock ? { volumeLock: deps.volumeLock } : {}),
    crossAzAttach: preflightOptionsFromEnv().crossAzAttach,
  });
}

/**
 * POST /api/launches/plan, POST /api/launches (202), GET /api/launches[/:id], and the two actions
 * on a launch's failed servers.
 */
export function launchRoutes(deps: {
  config: BffConfig;
  logger: Logger;
  changes: ChangeBus;
  /** The per-volume section attaches take too: a launch adds holders under the same rule. */
  volumeLock?: VolumeLock;
  sessions: SessionStore;
  /** Tests pass their own; otherwise one is made from the config. */
  service?: LaunchService;
}): ApiRoute[] {
  const service = deps.service ?? launchServiceFor(deps);
  return [
    route({
      method: 'post',
      path: '/api/launches/plan',
      summary: 'What a launch would do and what stands in its way; creates nothing',
      tag: 'launches',
      body: launchRequestSchema,
      response: { schema: launchPlanSchema },
      handler: ({ session, body }) => service.plan(session, body),
    }),
    route({
      method: 'post',
      path: '/api/launches',
      summary: 'Launch N servers on shared volumes; follow it at Location',
      tag: 'launches',
      body: launchRequestSchema,
      response: { status: 202, schema: launchSchema, description: 'Started' },
      responses: {
        400: {
          description: 'Invalid request, or problems found up front (details.fields, details.problems)',
          schema: apiErrorSchema,
        },
      },
      handler: async ({ session, body, res }) => {
        const launch = await service.start(session, body);
        res.setHeader('Location', apiPaths.launch(launch.id));
        return launch;
      },
    }),
    route({
      method: 'get',
      path: '/api/launches',
      summary: "The project's recent launches, newest first",
      tag: 'launches',
      response: { schema: launchListSchema },
      handler: async ({ session }) => ({ launches: await service.list(session) }),
    }),
    route({
      method: 'get',
      path: '/api/launches/:id',
      summary: "A launch's progress, per server",
      tag: 'launches',
      response: { schema: launchSchema },
      handler: ({ session, params }) => service.get(session, params.id),
    }),
    route({
      method: 'post',
      path: '/api/launches/:id/delete-failed',
      summary: "Delete the launch's failed servers that still exist; each one's outcome is on the launch",
      tag: 'launches',
      response: { schema: launchSchema, description: 'Deleting (see the newest action)' },
      responses: {
        409: { description: 'The launch is running, or has no failed server left', schema: apiErrorSchema },
      },
      handler: ({ session, params }) => service.deleteFailed(session, params.id),
    }),
    route({
      method: 'post',
      path: '/api/launches/:id/retry-failed',
      summary: "Create the launch's failed servers again with its plan; follow it at the launch",
      tag: 'launches',
      response: { status: 202, schema: launchSchema, description: 'Running again' },
      responses: {
        409: { description: 'The launch is running, or has no failed server', schema: apiErrorSchema },
      },
      handler: ({ session, params }) => service.retryFailed(session, params.id),
    }),
  ];
}
