import { preflightQuerySchema, preflightSchema } from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { type PreflightOptions, preflightOptionsFromEnv, preflightService } from './preflight.service.js';

/** GET /api/preflight/attach?volumeId=… | ?serverId=…: what can attach to what, and why not. */
export function preflightRoutes(opts: PreflightOptions = preflightOptionsFromEnv()): ApiRoute[] {
  const preflight = preflightService(opts);
  return [
    route({
      method: 'get',
      path: '/api/preflight/attach',
      summary: 'Which servers (or volumes) an attach can work with, and why not',
      tag: 'attachments',
      query: preflightQuerySchema,
      response: { schema: preflightSchema },
      handler: ({ session, query }) => preflight.check(session, query),
    }),
  ];
}
