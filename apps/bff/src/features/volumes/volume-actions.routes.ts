import {
  acceptedSchema,
  extendVolumeRequestSchema,
  retypeVolumeRequestSchema,
  setBootableRequestSchema,
} from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { volumeActionsService } from './volume-actions.service.js';

const accepted = { accepted: true } as const;

export function volumeActionsRoutes(changes: ChangeBus): ApiRoute[] {
  const actions = volumeActionsService(changes);
  return [
    route({
      method: 'post',
      path: '/api/volumes/:id/extend',
      summary: 'Extend a volume to a larger size (in use too, where the cloud allows it)',
      tag: 'volumes',
      body: extendVolumeRequestSchema,
      response: { status: 202, schema: acceptedSchema, description: 'Extending' },
      handler: async ({ session, params, body }) => {
        await actions.extend(session, params.id, body);
        return accepted;
      },
    }),
    route({
      method: 'post',
      path: '/api/volumes/:id/retype',
      summary: "Change a volume's type (the cloud decides whether a multiattach change is allowed)",
      tag: 'volumes',
      body: retypeVolumeRequestSchema,
      response: { status: 202, schema: acceptedSchema, description: 'Changing type' },
      handler: async ({ session, params, body }) => {
        await actions.retype(session, params.id, body);
        return accepted;
      },
    }),
    route({
      method: 'put',
      path: '/api/volumes/:id/bootable',
      summary: 'Mark a volume bootable or not',
      tag: 'volumes',
      body: setBootableRequestSchema,
      response: { status: 200, schema: acceptedSchema, description: 'Set' },
      handler: async ({ session, params, body }) => {
        await actions.setBootable(session, params.id, body);
        return accepted;
      },
    }),
  ];
}
