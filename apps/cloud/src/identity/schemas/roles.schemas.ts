import { description, immutableOptions, name } from './parameter-types.js';
import { requestSchema, type Schema } from './validation.js';

/** Role create and update (`keystone/assignment/schema.py`). */

/** The fields of a role request body this cloud keeps. */
export interface RoleBody {
  id?: string;
  name?: string;
  description?: string;
}

const roleProperties: Record<string, Schema> = { name, description, options: immutableOptions };

export const roleCreateSchema = requestSchema<RoleBody>({
  type: 'object',
  properties: roleProperties,
  required: ['name'],
  additionalProperties: true,
});

export const roleUpdateSchema = requestSchema<RoleBody>({
  type: 'object',
  properties: roleProperties,
  minProperties: 1,
  additionalProperties: true,
});
