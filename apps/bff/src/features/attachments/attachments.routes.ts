import { acceptedSchema, attachmentSchema, attachVolumeRequestSchema } from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import type { VolumeLock } from '../../platform/volume-lock.js';
import { attachmentsService } from './attachments.service.js';

/** Attaching a volume to a server and detaching it. */
export function attachmentsRoutes(changes: ChangeBus, volumeLock: VolumeLock): ApiRoute[] {
  const attachments = attachmentsService(changes, { volumeLock });
  return [
    route({
      method: 'post',
      path: '/api/servers/:id/attachments',
      summary: 'Attach a volume, read-write or read-only',
      tag: 'attachments',
      body: attachVolumeRequestSchema,
      response: { status: 201, schema: attachmentSchema, description: 'Attaching' },
      handler: ({ session, params, body }) => attachments.attach(session, params.id, body),
    }),
    route({
      method: 'delete',
      path: '/api/servers/:id/attachments/:volumeId',
      summary: 'Detach a volume',
      tag: 'attachments',
      response: { status: 202, schema: acceptedSchema },
      handler: async ({ session, params }) => {
        await attachments.detach(session, params.id, params.volumeId);
        return { accepted: true } as const;
      },
    }),
  ];
}
