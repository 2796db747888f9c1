import { badRequest } from '../../platform/http/errors.js';
import { newUuid } from '../../platform/ids.js';
import { BOOLEAN_ENUM_NO_LETTERS, strictBoolFromString } from '../../platform/validation/parameter-types.js';
import {
  enumParam,
  type JsonSchema,
  lastParam,
  nonNegativeIntParam,
  type Query,
  type RequestSchema,
  rejectUnknownParams,
  requestSchema,
  validateBody,
} from './validation.js';

/**
 * Flavors' requests (`schemas/flavors.py` index query, `schemas/flavor_manage.py`): the list
 * query, and the create (+ description from 2.55) and update (2.55) bodies.
 */

const VALID_SORT_KEYS = [
  'created_at',
  'description',
  'disabled',
  'ephemeral_gb',
  'flavorid',
  'id',
  'is_public',
  'memory_mb',
  'name',
  'root_gb',
  'rxtx_factor',
  'swap',
  'updated_at',
  'vcpu_weight',
  'vcpus',
] as const;
const INDEX_PARAMS = ['limit', 'marker', 'is_public', 'minRam', 'minDisk', 'sort_key', 'sort_dir'];

/** What a flavor list asks for. `isPublic` is only read for admins (null: public and private). */
export interface FlavorListQuery {
  limit: number | undefined;
  sortKey: string;
  sortDir: string;
  marker: string | undefined;
  isPublic: boolean | null;
  minRam: number | undefined;
  minDisk: number | undefined;
}

/** int() as Python reads a query value (`int(' 5')` works, `int('5.0')` does not). */
const pyInt = (s: string): number | null => (/^\s*[+-]?\d+\s*$/.test(s) ? Number.parseInt(s, 10) : null);

/** `GET /flavors[/detail]`: closed from 2.75; only admins' `is_public` is read (members' is ignored). */
export function parseFlavorListQuery(query: Query, isAdmin: boolean, atLeast275: boolean): FlavorListQuery {
  if (atLeast275) rejectUnknownParams(query, INDEX_PARAMS);
  const limit = nonNegativeIntParam(query, 'limit');
  const sortKey = enumParam(query, 'sort_key', VALID_SORT_KEYS) || 'flavorid';
  const sortDir = enumParam(query, 'sort_dir', ['asc', 'desc']) || 'asc';
  const marker = lastParam(query, 'marker');
  let isPublic: boolean | null = true;
  if (isAdmin) {
    const raw = lastParam(query, 'is_public');
    if (raw !== undefined) {
      if (raw.trim().toLowerCase() === 'none') isPublic = null;
      else {
        const b = strictBoolFromString(raw);
        if (b === null) throw badRequest(`Invalid is_public filter [${raw}]`);
        isPublic = b;
      }
    }
  }
  const minRamRaw = lastParam(query, 'minRam');
  const minDiskRaw = lastParam(query, 'minDisk');
  const minRam = minRamRaw === undefined ? undefined : pyInt(minRamRaw);
  if (minRam === null) throw badRequest(`Invalid minRam filter [${minRamRaw}]`);
  const minDisk = minDiskRaw === undefined ? undefined : pyInt(minDiskRaw);
  if (minDisk === null) throw badRequest(`Invalid minDisk filter [${minDiskRaw}]`);
  return { limit, sortKey, sortDir, marker, isPublic, minRam, minDisk };
}

const MAX_INT = 2_147_483_647;
const SQL_SP_FLOAT_MAX = 3.40282e38;

/** `parameter_types.flavor_param_positive` / `flavor_param_non_negative`. */
const flavorParam = (minimum: number): JsonSchema => ({
  type: ['integer', 'string'],
  pattern: '^[0-9]*$',
  minimum,
  maximum: MAX_INT,
});
const description: JsonSchema = { type: ['string', 'null'], maxLength: 65535 };

type IntLike = number | string;

/** What the create schemas accept. */
interface FlavorCreateBody {
  flavor: {
    name: string;
    id?: string | number | null;
    ram: IntLike;
    vcpus: IntLike;
    disk: IntLike;
    'OS-FLV-EXT-DATA:ephemeral'?: IntLike;
    swap?: IntLike;
    rxtx_factor?: number | string;
    'os-flavor-access:is_public'?: boolean | string;
    description?: string | null;
  };
}

/** `schemas/flavor_manage.py` `create` (+ description from 2.55). */
function createSchema(withDescription: boolean): RequestSchema<FlavorCreateBody> {
  return requestSchema({
    type: 'object',
    properties: {
      flavor: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 255, format: 'name' },
          id: {
            type: ['string', 'number', 'null'],
            minLength: 1,
            maxLength: 255,
            pattern: '^(?! )[a-zA-Z0-9. _-]+(?<! )$',
          },
          ram: flavorParam(1),
          vcpus: flavorParam(1),
          disk: flavorParam(0),
          'OS-FLV-EXT-DATA:ephemeral': flavorParam(0),
          swap: flavorParam(0),
          rxtx_factor: {
            type: ['number', 'string'],
            pattern: '^[0-9]+(\\.[0-9]+)?$',
            minimum: 0,
            exclusiveMinimum: true,
            maximum: SQL_SP_FLOAT_MAX,
          },
          'os-flavor-access:is_public': { type: ['boolean', 'string'], enum: BOOLEAN_ENUM_NO_LETTERS },
          ...(withDescription ? { description } : {}),
        },
        required: ['name', 'ram', 'vcpus', 'disk'],
        additionalProperties: false,
      },
    },
    required: ['flavor'],
    additionalProperties: false,
  });
}
const createSchemas = [createSchema(false), createSchema(true)] as const;

/** `update_v2_55`: only the description, which is therefore required. */
const updateSchema = requestSchema<{ flavor: { description: string | null } }>({
  type: 'object',
  properties: {
    flavor: {
      type: 'object',
      properties: { description },
      required: ['description'],
      additionalProperties: false,
    },
  },
  required: ['flavor'],
  additionalProperties: false,
});

/** What the schema leaves to `nova.compute.flavors.create`: whole numbers in range. */
function toInt(field: string, v: unknown, min: number): number {
  const n = typeof v === 'string' ? (v === '' ? Number.NaN : Number(v)) : Number(v);
  if (!Number.isInteger(n)) throw badRequest(`Invalid input received: ${field} must be an integer`);
  if (n < min) throw badRequest(`Invalid input received: ${field} must be >= ${min}`);
  return n;
}

export interface NewFlavor {
  id: string;
  name: string;
  ram: number;
  vcpus: number;
  disk: number;
  ephemeral: number;
  swap: number;
  rxtxFactor: number;
  isPublic: boolean;
  description: string | null;
}

/** Validates a POST /flavors body and reads it as `nova.compute.flavors.create` does. */
export function parseFlavorCreate(body: unknown, withDescription: boolean): NewFlavor {
  const v = validateBody(createSchemas[withDescription ? 1 : 0], body).flavor;
  const rawId = v.id;
  const isPublic =
    v['os-flavor-access:is_public'] === undefined
      ? true
      : strictBoolFromString(v['os-flavor-access:is_public']);
  return {
    // No id (or null, or '') means Nova generates a uuid; numbers are stored as strings.
    id: rawId === undefined || rawId === null || rawId === '' ? newUuid() : String(rawId),
    name: v.name.trim(),
    ram: toInt('ram', v.ram, 1),
    vcpus: toInt('vcpus', v.vcpus, 1),
    disk: toInt('disk', v.disk, 0),
    ephemeral: toInt('ephemeral', v['OS-FLV-EXT-DATA:ephemeral'] ?? 0, 0),
    swap: toInt('swap', v.swap ?? 0, 0),
    rxtxFactor: Number(v.rxtx_factor ?? 1),
    isPublic: isPublic ?? true,
    description: withDescription && typeof v.description === 'string' ? v.description : null,
  };
}

/** PUT /flavors/{id} (2.55): only the description can change. */
export function parseFlavorUpdate(body: unknown): string | null {
  return validateBody(updateSchema, body).flavor.description;
}
