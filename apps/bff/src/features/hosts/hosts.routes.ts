import { hostListSchema } from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { hostsService } from './hosts.service.js';

export function hostsRoutes(): ApiRoute[] {
  const hosts = hostsService();
  return [
    route({
      method: 'get',
      path: '/api/hosts',
      summary: 'Compute hosts and what they can attach (admin)',
      tag: 'hosts',
      response: { schema: hostListSchema },
      handler: ({ session }) => hosts.list(session),
    }),
  ];
}
