import { badRequest } from '../../platform/http/errors.js';
import { isJsonObject, requestSchema, validateBody } from './validation.js';

/**
 * POST /flavors/{id}/action: `addTenantAccess` and `removeTenantAccess`
 * (`schemas/flavor_access.py`), the flavor resource's only actions.
 */

export interface FlavorAccessChange {
  add: boolean;
  projectId: string;
}

const tenantSchema = (key: string) =>
  requestSchema<Record<string, { tenant: string }>>({
    type: 'object',
    properties: {
      [key]: {
        type: 'object',
        properties: { tenant: { type: 'string', minLength: 1, maxLength: 255 } },
        required: ['tenant'],
        additionalProperties: false,
      },
    },
    required: [key],
    additionalProperties: false,
  });

const ADD = tenantSchema('addTenantAccess');
const REMOVE = tenantSchema('removeTenantAccess');

/** wsgi `action_peek` (one key, a known action), then the action's schema. */
export function parseFlavorAccessAction(body: unknown): FlavorAccessChange {
  if (!isJsonObject(body) || Object.keys(body).length !== 1) throw badRequest('Malformed request body');
  const name = Object.keys(body)[0] as string;
  if (name === 'addTenantAccess') {
    return { add: true, projectId: validateBody(ADD, body).addTenantAccess!.tenant };
  }
  if (name === 'removeTenantAccess') {
    return { add: false, projectId: validateBody(REMOVE, body).removeTenantAccess!.tenant };
  }
  throw badRequest(`There is no such action: ${name}`);
}
