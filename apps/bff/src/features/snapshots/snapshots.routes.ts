import {
  acceptedSchema,
  createSnapshotRequestSchema,
  createVolumeFromSnapshotRequestSchema,
  createdVolumeSchema,
  listScopeQuerySchema,
  snapshotListSchema,
  snapshotSchema,
} from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { snapshotsService } from './snapshots.service.js';

export function snapshotsRoutes(changes: ChangeBus): ApiRoute[] {
  const snapshots = snapshotsService(changes);
  return [
    route({
      method: 'get',
      path: '/api/snapshots',
      summary: "The project's snapshots (every project's with ?all=1, admins only)",
      tag: 'snapshots',
      query: listScopeQuerySchema,
      response: { schema: snapshotListSchema },
      handler: async ({ session, query }) => ({
        snapshots: await snapshots.listForProject(session, { all: query.all }),
      }),
    }),
    route({
      method: 'get',
      path: '/api/volumes/:id/snapshots',
      summary: "A volume's snapshots",
      tag: 'snapshots',
      response: { schema: snapshotListSchema },
      handler: async ({ session, params }) => ({
        snapshots: await snapshots.listForVolume(session, params.id),
      }),
    }),
    route({
      method: 'post',
      path: '/api/volumes/:id/snapshots',
      summary: 'Snapshot a volume (an in-use one only with force, as Cinder requires)',
      tag: 'snapshots',
      body: createSnapshotRequestSchema,
      response: { status: 202, schema: snapshotSchema, description: 'Creating' },
      handler: ({ session, params, body }) => snapshots.create(session, params.id, body),
    }),
    route({
      method: 'delete',
      path: '/api/snapshots/:id',
      summary: 'Delete a snapshot',
      tag: 'snapshots',
      response: { status: 202, schema: acceptedSchema, description: 'Deleting' },
      handler: async ({ session, params }) => {
        await snapshots.remove(session, params.id);
        return { accepted: true } as const;
      },
    }),
    route({
      method: 'post',
      path: '/api/snapshots/:id/volumes',
      summary: 'Create a volume from a snapshot',
      tag: 'snapshots',
      body: createVolumeFromSnapshotRequestSchema,
      response: { status: 202, schema: createdVolumeSchema, description: 'Creating' },
      handler: ({ session, params, body }) => snapshots.createVolume(session, params.id, body),
    }),
  ];
}
