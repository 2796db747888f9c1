import { badRequest } from '../../platform/http/errors.js';
import { type JsonSchema, requestSchema, validateBody } from './validation.js';

/**
 * os-aggregates' bodies (`schemas/aggregates.py`, 2.1 forms): a name of printable characters,
 * an optional zone, host names of `parameter_types.hostname`, and metadata whose null values
 * remove keys.
 */

const NAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, format: 'name' };
const ZONE: JsonSchema = { type: ['string', 'null'], minLength: 1, maxLength: 255 };
const HOSTNAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9-._]*$' };

interface CreateBody {
  aggregate: { name: string; availability_zone?: string | null };
}

const createSchema = requestSchema<CreateBody>({
  type: 'object',
  properties: {
    aggregate: {
      type: 'object',
      properties: { name: NAME, availability_zone: ZONE },
      required: ['name'],
      additionalProperties: false,
    },
  },
  required: ['aggregate'],
  additionalProperties: false,
});

export interface AggregateCreate {
  name: string;
  availabilityZone: string | null;
}

export function parseAggregateCreate(body: unknown): AggregateCreate {
  const { aggregate } = validateBody(createSchema, body);
  return { name: aggregate.name, availabilityZone: aggregate.availability_zone ?? null };
}

interface UpdateBody {
  aggregate: { name?: string; availability_zone?: string | null };
}

const updateSchema = requestSchema<UpdateBody>({
  type: 'object',
  properties: {
    aggregate: {
      type: 'object',
      properties: { name: NAME, availability_zone: ZONE },
      additionalProperties: false,
      anyOf: [{ required: ['name'] }, { required: ['availability_zone'] }],
    },
  },
  required: ['aggregate'],
  additionalProperties: false,
});

export interface AggregateUpdate {
  name?: string;
  /** null: the zone removed; undefined: not asked. */
  availabilityZone?: string | null;
}

export function parseAggregateUpdate(body: unknown): AggregateUpdate {
  const { aggregate } = validateBody(updateSchema, body);
  return {
    ...(aggregate.name !== undefined ? { name: aggregate.name } : {}),
    ...(aggregate.availability_zone !== undefined ? { availabilityZone: aggregate.availability_zone } : {}),
  };
}

const hostAction = (action: string): JsonSchema => ({
  type: 'object',
  properties: {
    [action]: {
      type: 'object',
      properties: { host: HOSTNAME },
      required: ['host'],
      additionalProperties: false,
    },
  },
  required: [action],
  additionalProperties: false,
});

const setMetadataSchema: JsonSchema = {
  type: 'object',
  properties: {
    set_metadata: {
      type: 'object',
      properties: {
        metadata: {
          type: 'object',
          patternProperties: { '^[a-zA-Z0-9-_:. ]{1,255}$': { type: ['string', 'null'], maxLength: 255 } },
          additionalProperties: false,
        },
      },
      required: ['metadata'],
      additionalProperties: false,
    },
  },
  required: ['set_metadata'],
  additionalProperties: false,
};

export type AggregateAction =
  | { action: 'add_host'; host: string }
  | { action: 'remove_host'; host: string }
  | { action: 'set_metadata'; metadata: Record<string, string | null> };

/** `POST /os-aggregates/{id}/action`: the action named by the body's key, then its schema. */
export function parseAggregateAction(body: unknown): AggregateAction {
  const name =
    body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body as object)[0] : undefined;
  if (name === 'add_host' || name === 'remove_host') {
    const b = validateBody(requestSchema<Record<string, { host: string }>>(hostAction(name)), body);
    return { action: name, host: (b[name] as { host: string }).host };
  }
  if (name === 'set_metadata') {
    const b = validateBody(
      requestSchema<{ set_metadata: { metadata: Record<string, string | null> } }>(setMetadataSchema),
      body,
    );
    return { action: 'set_metadata', metadata: b.set_metadata.metadata };
  }
  throw badRequest(`There is no such action: ${name ?? ''}`);
}

/** `utils.validate_integer(id, 'id')`: Python's int() of the path's id. */
export function parseAggregateId(id: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(id)) throw badRequest('Invalid input received: id must be an integer');
  return Number.parseInt(id, 10);
}
