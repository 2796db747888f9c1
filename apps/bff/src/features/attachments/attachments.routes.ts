import {
  acceptedSchema,
  attachmentSchema,
  attachVolumeRequestSchema,
  bulkDetachRequestSchema,
  bulkDetachResultSchema,
} from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import type { VolumeLock } from '../../platform/volume-lock.js';
import { attachmentsService } from './attachments.service.js';
import { bulkDetachService } from './bulk-detach.service.js';

/** Attaching a volume to a server and detaching it. */
export function attachmentsRoutes(changes: ChangeBus, volumeLock: VolumeLock): ApiRoute[] {
  const attachments = attachmentsService(changes, { volumeLock });
  const bulk = bulkDetachService(changes);
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
    // --- web17: bulk detach ---
    route({
      method: 'post',
      path: '/api/attachments/detach',
      summary:
        "Detach several attachments; each one's outcome (detached, still detaching, or the cloud's refusal)",
      tag: 'attachments',
      body: bulkDetachRequestSchema,
      response: { schema: bulkDetachResultSchema },
      handler: async ({ session, body }) => ({ outcomes: await bulk.detach(session, body) }),
    }),
  ];
}
