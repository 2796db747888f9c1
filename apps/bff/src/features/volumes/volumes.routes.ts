import {
  acceptedSchema,
  createVolumeRequestSchema,
  listScopeQuerySchema,
  volumeListSchema,
  volumeSchema,
} from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { volumesService } from './volumes.service.js';

export function volumesRoutes(changes: ChangeBus): ApiRoute[] {
  const volumes = volumesService(changes);
  return [
    route({
      method: 'get',
      path: '/api/volumes',
      summary: 'Volumes with their attachments',
      tag: 'volumes',
      query: listScopeQuerySchema,
      response: { schema: volumeListSchema },
      handler: async ({ session, query }) => ({ volumes: await volumes.list(session, { all: query.all }) }),
    }),
    route({
      method: 'post',
      path: '/api/volumes',
      summary: 'Create a volume',
      tag: 'volumes',
      body: createVolumeRequestSchema,
      response: { status: 201, schema: volumeSchema },
      handler: ({ session, body }) => volumes.create(session, body),
    }),
    route({
      method: 'get',
      path: '/api/volumes/:id',
      summary: 'One volume',
      tag: 'volumes',
      response: { schema: volumeSchema },
      handler: ({ session, params }) => volumes.get(session, params.id),
    }),
    route({
      method: 'delete',
      path: '/api/volumes/:id',
      summary: 'Delete a volume',
      tag: 'volumes',
      response: { status: 202, schema: acceptedSchema },
      handler: async ({ session, params }) => {
        await volumes.remove(session, params.id);
        return { accepted: true } as const;
      },
    }),
  ];
}
