import type { Microversion } from '../../platform/http/microversion.js';
import { BOOLEAN_ENUM } from '../../platform/validation/parameter-types.js';
import { type JsonSchema, type RequestSchema, requestSchema, validateBody } from './validation.js';

/**
 * POST /servers/{id}/action `rebuild` (`schemas/servers.py` `base_rebuild` and its copies): 2.19
 * adds description, 2.54 key_name (null unsets it), 2.57 user_data and drops personality (capture
 * 859), 2.63 trusted_image_certificates, 2.90 hostname (an FQDN from 2.94). Keys in Nova's order.
 */
export interface ServerRebuildBody {
  rebuild: {
    name?: string;
    imageRef: string;
    adminPass?: string;
    metadata?: Record<string, string>;
    preserve_ephemeral?: boolean | string;
    'OS-DCF:diskConfig'?: 'AUTO' | 'MANUAL';
    accessIPv4?: string;
    accessIPv6?: string;
    personality?: { path?: string; contents?: string }[];
    description?: string | null;
    key_name?: string | null;
    user_data?: string | null;
    trusted_image_certificates?: string[] | null;
    hostname?: string;
  };
}

const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, format: 'name' };
const userData: JsonSchema = { type: 'string', format: 'base64', maxLength: 65535 };

function rebuildJson(v: Microversion): JsonSchema {
  const rebuild: Record<string, JsonSchema> = {
    name,
    imageRef: { type: 'string', format: 'uuid' },
    adminPass: { type: 'string' },
    metadata: {
      type: 'object',
      patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: 'string', maxLength: 255 } },
      additionalProperties: false,
    },
    preserve_ephemeral: { type: ['boolean', 'string'], enum: BOOLEAN_ENUM },
    'OS-DCF:diskConfig': { type: 'string', enum: ['AUTO', 'MANUAL'] },
    accessIPv4: { type: 'string', format: 'ipv4' },
    accessIPv6: { type: 'string', format: 'ipv6' },
    personality: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, contents: { type: 'string', format: 'base64' } },
        additionalProperties: false,
      },
    },
  };
  if (v.atLeast('2.19')) {
    rebuild.description = {
      type: ['string', 'null'],
      minLength: 0,
      maxLength: 255,
      format: 'name_with_leading_trailing_spaces',
    };
  }
  if (v.atLeast('2.54')) rebuild.key_name = { oneOf: [name, { type: 'null' }] };
  if (v.atLeast('2.57')) {
    rebuild.user_data = { oneOf: [userData, { type: 'null' }] };
    delete rebuild.personality;
  }
  if (v.atLeast('2.63')) {
    rebuild.trusted_image_certificates = {
      type: ['array', 'null'],
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', minLength: 1 },
    };
  }
  if (v.atLeast('2.90')) {
    rebuild.hostname = v.atLeast('2.94')
      ? { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9-._]*$' }
      : { type: 'string', minLength: 2, maxLength: 63, pattern: '^[a-zA-Z0-9]+[a-zA-Z0-9-]*[a-zA-Z0-9]+$' };
  }
  return {
    type: 'object',
    properties: {
      rebuild: { type: 'object', properties: rebuild, required: ['imageRef'], additionalProperties: false },
    },
    required: ['rebuild'],
    additionalProperties: false,
  };
}

const schemas = new Map<string, RequestSchema<ServerRebuildBody>>();

/** The rebuild body, checked against the microversion's schema (built once per microversion). */
export function parseServerRebuild(body: unknown, v: Microversion): ServerRebuildBody {
  const key = v.toString();
  let schema = schemas.get(key);
  if (!schema) {
    schema = requestSchema<ServerRebuildBody>(rebuildJson(v));
    schemas.set(key, schema);
  }
  return validateBody(schema, body);
}
