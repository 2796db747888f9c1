import { requestSchema } from './validation.js';

/** `cinder/api/schemas/volume_type_access.py`: `{"addProjectAccess": {"project": <uuid>}}` and its pair. */
const accessBody = (action: 'addProjectAccess' | 'removeProjectAccess') =>
  requestSchema<Record<string, { project: string }>>({
    type: 'object',
    properties: {
      [action]: {
        type: 'object',
        properties: { project: { type: 'string', format: 'uuid' } },
        required: ['project'],
        additionalProperties: false,
      },
    },
    required: [action],
    additionalProperties: false,
  });

export const addProjectAccessBody = accessBody('addProjectAccess');
export const removeProjectAccessBody = accessBody('removeProjectAccess');
