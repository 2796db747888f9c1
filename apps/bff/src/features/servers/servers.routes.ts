import { acceptedSchema, listScopeQuerySchema, serverListSchema, serverSchema } from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { serversService } from './servers.service.js';

export function serversRoutes(changes: ChangeBus): ApiRoute[] {
  const servers = serversService(changes);
  return [
    route({
      method: 'get',
      path: '/api/servers',
      summary: 'Servers with their attachments',
      tag: 'servers',
      query: listScopeQuerySchema,
      response: { schema: serverListSchema },
      handler: async ({ session, query }) => ({ servers: await servers.list(session, { all: query.all }) }),
    }),
    route({
      method: 'get',
      path: '/api/servers/:id',
      summary: 'One server',
      tag: 'servers',
      response: { schema: serverSchema },
      handler: ({ session, params }) => servers.get(session, params.id),
    }),
    route({
      method: 'delete',
      path: '/api/servers/:id',
      summary: 'Delete a server',
      tag: 'servers',
      response: { status: 202, schema: acceptedSchema },
      handler: async ({ session, params }) => {
        await servers.remove(session, params.id);
        return { accepted: true } as const;
      },
    }),
  ];
}
