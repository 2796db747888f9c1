import { boolean, description, idString, name, nullable, optionsSchema } from './parameter-types.js';
import { requestSchema, type Schema } from './validation.js';

/** User create and update, and the password change (`keystone/identity/schema.py`). */

/** The fields of a user request body this cloud keeps. */
export interface UserBody {
  id?: string;
  name?: string;
  domain_id?: string;
  password?: string | null;
  enabled?: boolean;
  email?: unknown;
  description?: string | null;
  default_project_id?: string | null;
}

const userOptions = optionsSchema({
  ignore_change_password_upon_first_use: { type: 'boolean' },
  ignore_password_expiry: { type: 'boolean' },
  ignore_lockout_failure_attempts: { type: 'boolean' },
  lock_password: { type: 'boolean' },
  ignore_user_inactivity: { type: 'boolean' },
  multi_factor_auth_rules: {
    type: 'array',
    items: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', minLength: 1, maxLength: 255 },
      uniqueItems: true,
    },
    uniqueItems: true,
  },
  multi_factor_auth_enabled: { type: 'boolean' },
});

const userProperties: Record<string, Schema> = {
  default_project_id: nullable(idString),
  description: nullable(description),
  domain_id: idString,
  enabled: boolean,
  federated: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        idp_id: { type: 'string' },
        protocols: {
          type: 'array',
          items: {
            type: 'object',
            properties: { protocol_id: { type: 'string' }, unique_id: { type: 'string' } },
            required: ['protocol_id', 'unique_id'],
          },
          minItems: 1,
        },
      },
      required: ['idp_id', 'protocols'],
    },
  },
  name,
  password: { type: ['string', 'null'] },
  options: userOptions,
};

export const userCreateSchema = requestSchema<UserBody>({
  type: 'object',
  properties: userProperties,
  required: ['name'],
  options: userOptions,
  additionalProperties: true,
});

export const userUpdateSchema = requestSchema<UserBody>({
  type: 'object',
  properties: userProperties,
  minProperties: 1,
  options: userOptions,
  additionalProperties: true,
});

export const passwordChangeSchema = requestSchema<{ original_password: string; password: string }>({
  type: 'object',
  properties: { original_password: { type: 'string' }, password: { type: 'string' } },
  required: ['original_password', 'password'],
  additionalProperties: false,
});
