import { topologyQuerySchema, topologySchema } from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { getTopology } from './topology.service.js';

/**
 * GET /api/topology[?project=&host=&volume=]: hosts → servers → volumes with rw/ro edges and risks.
 * `identity.authUrl` is Keystone, for the project names.
 */
export function topologyRoutes(identity: { authUrl: string }): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/topology',
      summary: 'Hosts, servers and volumes with their rw/ro edges and risks',
      tag: 'topology',
      query: topologyQuerySchema,
      response: { schema: topologySchema },
      handler: ({ session, query }) => getTopology(session, query, identity),
    }),
  ];
}
