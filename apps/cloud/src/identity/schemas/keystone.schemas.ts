import type { JsonType } from '../../platform/validation/json-schema.js';
import type { Schema } from '../validation/json-schema.js';

/**
 * Keystone's request schemas (Zed, the recorded release), key for key: they decide which error a
 * client sees first, and Keystone prints them inside its 400 messages.
 */

/** A schema of one type, as `validation.nullable` expects. */
type Scalar = Schema & { type: JsonType };

const boolean: Schema = { type: 'boolean', enum: [true, false] };
const name: Schema = { type: 'string', minLength: 1, maxLength: 255, pattern: '[\\S]+' };
const idString: Scalar = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9-]+$' };
const description: Scalar = { type: 'string' };

/** `validation.nullable`: adds null to the type (and to the enum, when there is one). */
function nullable(s: Scalar): Schema {
  // Spreading keeps each key where it was: the order decides which error comes first.
  return { ...s, type: [s.type, 'null'], ...(s.enum ? { enum: [...s.enum, null] } : {}) };
}

/** A resource options registry's schema: every option nullable, nothing else allowed. */
function optionsSchema(options: Record<string, Scalar>): Schema {
  const properties: Record<string, Schema> = {};
  for (const [k, v] of Object.entries(options)) properties[k] = nullable(v);
  return { type: 'object', properties, additionalProperties: false };
}

const immutableOptions = optionsSchema({ immutable: { type: 'boolean' } });

// ---- auth (keystone/auth/schema.py) ----

const domainRef: Schema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' } },
};

export const tokenIssueSchema: Schema = {
  type: 'object',
  properties: {
    identity: {
      type: 'object',
      properties: {
        methods: { type: 'array', items: { type: 'string' } },
        password: {
          type: 'object',
          properties: {
            user: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                password: { type: 'string' },
                domain: domainRef,
              },
            },
          },
        },
        token: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      },
      required: ['methods'],
    },
    scope: {
      type: ['object', 'string'],
      properties: {
        project: {
          type: 'object',
          properties: { name: { type: 'string' }, id: { type: 'string' }, domain: domainRef },
        },
        domain: domainRef,
        'OS-TRUST:trust': { type: 'object', properties: { id: { type: 'string' } } },
        system: { type: 'object', properties: { all: boolean } },
      },
    },
  },
  required: ['identity'],
};

// ---- projects (keystone/resource/schema.py) ----

const projectName: Schema = { type: 'string', minLength: 1, maxLength: 64, pattern: '[\\S]+' };
const projectTags: Schema = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^,/]*$' },
  required: [],
  maxItems: 80,
  uniqueItems: true,
};
const projectProperties: Record<string, Schema> = {
  description: nullable(description),
  domain_id: nullable(idString),
  enabled: boolean,
  is_domain: boolean,
  parent_id: nullable(idString),
  name: projectName,
  tags: projectTags,
  options: immutableOptions,
};

export const projectCreateSchema: Schema = {
  type: 'object',
  properties: projectProperties,
  required: ['name'],
  additionalProperties: true,
};

export const projectUpdateSchema: Schema = {
  type: 'object',
  properties: projectProperties,
  minProperties: 1,
  additionalProperties: true,
};

// ---- users (keystone/identity/schema.py) ----

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

export const userCreateSchema: Schema = {
  type: 'object',
  properties: userProperties,
  required: ['name'],
  options: userOptions,
  additionalProperties: true,
};

export const userUpdateSchema: Schema = {
  type: 'object',
  properties: userProperties,
  minProperties: 1,
  options: userOptions,
  additionalProperties: true,
};

export const passwordChangeSchema: Schema = {
  type: 'object',
  properties: { original_password: { type: 'string' }, password: { type: 'string' } },
  required: ['original_password', 'password'],
  additionalProperties: false,
};

// ---- roles (keystone/assignment/schema.py) ----

const roleProperties: Record<string, Schema> = { name, description, options: immutableOptions };

export const roleCreateSchema: Schema = {
  type: 'object',
  properties: roleProperties,
  required: ['name'],
  additionalProperties: true,
};

export const roleUpdateSchema: Schema = {
  type: 'object',
  properties: roleProperties,
  minProperties: 1,
  additionalProperties: true,
};
