import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { BOOLEAN_ENUM_NO_LETTERS, strictBoolFromString } from '../../platform/validation/parameter-types.js';
import { type FlavorRow, flavorsStore } from '../store/flavors.store.js';
import {
  enumParam,
  isJsonObject,
  type JsonSchema,
  lastParam,
  MAX_LIMIT,
  nonNegativeIntParam,
  type Query,
  rejectUnknownParams,
  validateBody,
} from './request-schema.js';

type Db = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// Listing (nova/api/openstack/compute/flavors.py `_get_flavors`)
// ---------------------------------------------------------------------------------------------

export const VALID_SORT_KEYS = [
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

export interface Caller {
  isAdmin: boolean;
}

type SortValue = string | number | null;

/** Nova's sort keys on our columns; the ones we do not store sort like the internal id. */
function sortValue(f: FlavorRow, key: string): SortValue {
  switch (key) {
    case 'created_at':
    case 'updated_at':
      return f.created_at;
    case 'description':
      return f.description;
    case 'disabled':
      return f.disabled;
    case 'ephemeral_gb':
      return f.ephemeral;
    case 'flavorid':
      return f.id;
    case 'is_public':
      return f.is_public;
    case 'memory_mb':
      return f.ram;
    case 'name':
      return f.name;
    case 'root_gb':
      return f.disk;
    case 'rxtx_factor':
      return f.rxtx_factor;
    case 'swap':
      return f.swap;
    case 'vcpus':
      return f.vcpus;
    default:
      return f.internal_id;
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

export interface FlavorPage {
  flavors: FlavorRow[];
  /** The limit the caller asked for (next links are built when a page is full). */
  requestedLimit: number | undefined;
}

/** int() as Python reads a query value (`int(' 5')` works, `int('5.0')` does not). */
const pyInt = (s: string): number | null => (/^\s*[+-]?\d+\s*$/.test(s) ? Number.parseInt(s, 10) : null);

export async function listFlavors(
  db: Db,
  caller: Caller,
  query: Query,
  atLeast275: boolean,
): Promise<FlavorPage> {
  if (atLeast275) rejectUnknownParams(query, INDEX_PARAMS);
  const limitParam = nonNegativeIntParam(query, 'limit');
  const sortKey = enumParam(query, 'sort_key', VALID_SORT_KEYS) || 'flavorid';
  const sortDir = enumParam(query, 'sort_dir', ['asc', 'desc']) || 'asc';
  const marker = lastParam(query, 'marker');
  const limit = Math.min(MAX_LIMIT, limitParam ?? MAX_LIMIT);

  // Only admins may query by is_public; it defaults to public flavors for them too.
  let isPublic: boolean | null = true;
  if (caller.isAdmin) {
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

  const rows = await flavorsStore.list(db, {
    isPublic,
    hideDisabled: !caller.isAdmin,
    ...(minRam !== undefined ? { minRam } : {}),
    ...(minDisk !== undefined ? { minDisk } : {}),
  });
  const dir = sortDir === 'desc' ? -1 : 1;
  const cmp = (a: FlavorRow, b: FlavorRow) =>
    dir * (compareValues(sortValue(a, sortKey), sortValue(b, sortKey)) || a.internal_id - b.internal_id);
  rows.sort(cmp);

  let start = 0;
  if (marker !== undefined) {
    // The marker is looked up among the flavors the caller may see, then paged past (keyset).
    const markerRow = await flavorsStore.byId(db, marker);
    if (!markerRow || !visibleTo(markerRow, caller)) throw badRequest(`marker [${marker}] not found`);
    start = rows.findIndex((r) => cmp(r, markerRow) > 0);
    if (start < 0) start = rows.length;
  }
  return { flavors: rows.slice(start, start + limit), requestedLimit: limitParam };
}

/** Members see public flavors only (we keep no per-project flavor access). */
const visibleTo = (f: FlavorRow, caller: Caller) => caller.isAdmin || f.is_public === 1;

/** Flavor show: private flavors are hidden from members, disabled ones are not. */
export async function getFlavor(db: Db, id: string, caller: Caller): Promise<FlavorRow> {
  const f = await flavorsStore.byId(db, id);
  if (!f || !visibleTo(f, caller)) throw notFound(`Flavor ${id} could not be found.`);
  return f;
}

// ---------------------------------------------------------------------------------------------
// Flavor manage (nova/api/openstack/compute/flavor_manage.py, schemas/flavor_manage.py)
// ---------------------------------------------------------------------------------------------

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

/** `schemas/flavor_manage.py` `create` (+ description from 2.55). */
function createSchema(withDescription: boolean): JsonSchema {
  return {
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
  };
}
const createSchemas = [createSchema(false), createSchema(true)] as const;

/** `update_v2_55`: only the description, which is therefore required. */
const updateSchema: JsonSchema = {
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
};

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
  validateBody(createSchemas[withDescription ? 1 : 0], body);
  const v = (body as { flavor: Record<string, unknown> }).flavor;
  const rawId = v['id'];
  const isPublic =
    v['os-flavor-access:is_public'] === undefined
      ? true
      : strictBoolFromString(v['os-flavor-access:is_public']);
  return {
    // No id (or null, or '') means Nova generates a uuid; numbers are stored as strings.
    id: rawId === undefined || rawId === null || rawId === '' ? newUuid() : String(rawId),
    name: String(v['name']).trim(),
    ram: toInt('ram', v['ram'], 1),
    vcpus: toInt('vcpus', v['vcpus'], 1),
    disk: toInt('disk', v['disk'], 0),
    ephemeral: toInt('ephemeral', v['OS-FLV-EXT-DATA:ephemeral'] ?? 0, 0),
    swap: toInt('swap', v['swap'] ?? 0, 0),
    rxtxFactor: Number(v['rxtx_factor'] ?? 1),
    isPublic: isPublic ?? true,
    description: withDescription && typeof v['description'] === 'string' ? v['description'] : null,
  };
}

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; message?: string } | undefined;
  return (
    e?.code === '23505' ||
    /UNIQUE constraint failed/i.test(e?.message ?? '') ||
    e?.code === 'SQLITE_CONSTRAINT'
  );
};

/** Creates a flavor: 409 for a taken id or name (Nova checks them through unique keys). */
export async function createFlavor(store: Store, nf: NewFlavor): Promise<FlavorRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.transaction(async (tx) => {
        if (await flavorsStore.byId(tx, nf.id)) throw conflict(`Flavor with ID ${nf.id} already exists.`);
        if (await flavorsStore.byName(tx, nf.name))
          throw conflict(`Flavor with name ${nf.name} already exists.`);
        const row: FlavorRow = {
          id: nf.id,
          internal_id: await flavorsStore.nextInternalId(tx),
          name: nf.name,
          vcpus: nf.vcpus,
          ram: nf.ram,
          disk: nf.disk,
          ephemeral: nf.ephemeral,
          swap: nf.swap,
          rxtx_factor: nf.rxtxFactor,
          is_public: nf.isPublic ? 1 : 0,
          disabled: 0,
          description: nf.description,
          extra_specs: '{}',
          created_at: nowIso(),
        };
        await flavorsStore.insert(tx, row);
        return row;
      });
    } catch (err) {
      // Two processes raced for the same id, name or internal id: look again.
      if (!isUniqueViolation(err) || attempt >= 5) throw err;
    }
  }
}

/** PUT /flavors/{id} (2.55): only the description can change. */
export function parseFlavorUpdate(body: unknown): string | null {
  validateBody(updateSchema, body);
  const d = (body as { flavor: Record<string, unknown> }).flavor['description'];
  return typeof d === 'string' ? d : null;
}

export async function updateFlavorDescription(
  store: Store,
  id: string,
  description: string | null,
): Promise<FlavorRow> {
  return store.transaction(async (tx) => {
    const f = await flavorsStore.byId(tx, id);
    if (!f) throw notFound(`Flavor ${id} could not be found.`);
    await flavorsStore.updateDescription(tx, id, description);
    return { ...f, description };
  });
}

/** Servers keep their embedded copy of the flavor, so deleting one in use is allowed (as in Nova). */
export async function deleteFlavor(store: Store, id: string): Promise<void> {
  const n = await store.transaction((tx) => flavorsStore.delete(tx, id));
  if (n === 0) throw notFound(`Flavor ${id} could not be found.`);
}

/** Extra specs are stored as a JSON object of strings. */
export function extraSpecsOf(f: FlavorRow): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(f.extra_specs);
    return isJsonObject(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}
