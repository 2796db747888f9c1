import type { Microversion } from '../../platform/http/microversion.js';
import { type JsonSchema, type RequestSchema, requestSchema, validateBody } from './validation.js';

/**
 * PUT /servers/{id} (`schemas/servers.py` `base_update` and its versioned copies): name, disk
 * config and access addresses; 2.19 adds description, 2.90 hostname (an FQDN from 2.94).
 */
export interface ServerUpdateBody {
  server: {
    name?: string;
    'OS-DCF:diskConfig'?: 'AUTO' | 'MANUAL';
    accessIPv4?: string;
    accessIPv6?: string;
    description?: string | null;
    hostname?: string;
  };
}

const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, format: 'name' };
const description: JsonSchema = {
  type: ['string', 'null'],
  minLength: 0,
  maxLength: 255,
  format: 'name_with_leading_trailing_spaces',
};
const hostname: JsonSchema = {
  type: 'string',
  minLength: 2,
  maxLength: 63,
  pattern: '^[a-zA-Z0-9]+[a-zA-Z0-9-]*[a-zA-Z0-9]+$',
};
const fqdn: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9-._]*$' };

function updateJson(v: Microversion): JsonSchema {
  const server: Record<string, JsonSchema> = {
    name,
    'OS-DCF:diskConfig': { type: 'string', enum: ['AUTO', 'MANUAL'] },
    accessIPv4: { type: 'string', format: 'ipv4' },
    accessIPv6: { type: 'string', format: 'ipv6' },
  };
  if (v.atLeast('2.19')) server.description = description;
  if (v.atLeast('2.90')) server.hostname = v.atLeast('2.94') ? fqdn : hostname;
  return {
    type: 'object',
    properties: { server: { type: 'object', properties: server, additionalProperties: false } },
    required: ['server'],
    additionalProperties: false,
  };
}

const schemas = new Map<string, RequestSchema<ServerUpdateBody>>();

export function parseServerUpdate(body: unknown, v: Microversion): ServerUpdateBody {
  const key = v.toString();
  let schema = schemas.get(key);
  if (!schema) {
    schema = requestSchema<ServerUpdateBody>(updateJson(v));
    schemas.set(key, schema);
  }
  return validateBody(schema, body);
}
