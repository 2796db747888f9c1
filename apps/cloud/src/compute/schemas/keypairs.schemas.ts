import type { Microversion } from '../../platform/http/microversion.js';
import {
  type JsonSchema,
  lastParam,
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  requestSchema,
  validateBody,
} from './validation.js';

/**
 * os-keypairs' requests (`schemas/keypairs.py`): the name and optional public key (2.1), the
 * `type` (2.2), an admin's `user_id` (2.10), and from 2.92 a required public key and a name that
 * may also hold `@` and `.`. The list query takes `user_id` (2.10) and `limit`/`marker` (2.35).
 */

export interface KeypairCreateBody {
  keypair: { name: string; public_key?: string; type?: 'ssh' | 'x509'; user_id?: string };
}

const createSchema = (version: Microversion) => {
  const v292 = version.atLeast('2.92');
  const name: JsonSchema = {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    format: v292 ? 'keypair_name_292' : 'keypair_name_20',
  };
  return requestSchema<KeypairCreateBody>({
    type: 'object',
    properties: {
      keypair: {
        type: 'object',
        properties: {
          name,
          ...(version.atLeast('2.2') ? { type: { type: 'string', enum: ['ssh', 'x509'] } } : {}),
          public_key: { type: 'string' },
          ...(version.atLeast('2.10') ? { user_id: { type: 'string' } } : {}),
        },
        required: v292 ? ['name', 'public_key'] : ['name'],
        additionalProperties: false,
      },
    },
    required: ['keypair'],
    additionalProperties: false,
  });
};

export interface KeypairCreate {
  name: string;
  publicKey: string | undefined;
  type: 'ssh' | 'x509';
  /** The owner an admin names (2.10); undefined: the caller. */
  userId: string | undefined;
}

export function parseKeypairCreate(body: unknown, version: Microversion): KeypairCreate {
  const { keypair } = validateBody(createSchema(version), body);
  return {
    name: keypair.name,
    publicKey: keypair.public_key,
    type: keypair.type ?? 'ssh',
    userId: version.atLeast('2.10') ? keypair.user_id : undefined,
  };
}

export interface KeypairListQuery {
  userId: string | undefined;
  limit: number | undefined;
  marker: string | undefined;
}

/** `index_query_schema_v210` / `_v235` (extra parameters are ignored). */
export function parseKeypairListQuery(query: Query, version: Microversion): KeypairListQuery {
  const paged = version.atLeast('2.35');
  const limit = paged ? nonNegativeIntParam(query, 'limit') : undefined;
  return {
    userId: keypairUserParam(query, version),
    limit: limit === undefined ? undefined : Math.min(limit, MAX_LIMIT),
    marker: paged ? lastParam(query, 'marker') : undefined,
  };
}

/** `?user_id=` of show, delete and list from 2.10: the first value, as Nova's `getall(...)[0]`. */
export function keypairUserParam(query: Query, version: Microversion): string | undefined {
  if (!version.atLeast('2.10')) return undefined;
  const v = query.user_id;
  if (v === undefined) return undefined;
  return String(Array.isArray(v) ? v[0] : v);
}
