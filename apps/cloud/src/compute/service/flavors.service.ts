import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { type FlavorRow, flavorsStore } from '../store/flavors.store.js';

type Db = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// Nova's wording for jsonschema failures (nova/api/validation/validators.py), shared with the
// os-services and os-hypervisors rules: clients and Tempest match on these texts.
// ---------------------------------------------------------------------------------------------

/** Python's `repr()` of a JSON value, as jsonschema's messages print instances. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    const quote = v.includes("'") && !v.includes('"') ? '"' : "'";
    const body = v.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\t', '\\t');
    return quote + (quote === "'" ? body.replaceAll("'", "\\'") : body) + quote;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

/** Python's `str()`: strings print bare, everything else as repr. */
export const pyStr = (v: unknown): string => (typeof v === 'string' ? v : pyRepr(v));

const schemaError = (
  field: string,
  value: unknown,
  message: string,
  where: 'field/attribute' | 'query parameters',
) => badRequest(`Invalid input for ${where} ${field}. Value: ${pyStr(value)}. ${message}`);

/** Query strings as Express parses them: repeated keys become arrays. */
export type Query = Record<string, unknown>;

const values = (q: Query, name: string): string[] => {
  const v = q[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
};

/** webob's `MultiDict.get`: the last value of a repeated parameter. */
export const lastParam = (q: Query, name: string): string | undefined => values(q, name).at(-1);

/** jsonschema's `additionalProperties: false` on a query (Nova 2.75+, os-hypervisors 2.53+). */
export function rejectUnknownParams(q: Query, allowed: readonly string[]): void {
  const extras = Object.keys(q).filter((k) => !allowed.includes(k));
  if (extras.length === 0) return;
  const verb = extras.length === 1 ? 'was' : 'were';
  throw badRequest(
    `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${verb} unexpected)`,
  );
}

/** `parameter_types.non_negative_integer` inside `multi_params` (or `single_param`). */
export function nonNegativeIntParam(q: Query, name: string, single = false): number | undefined {
  const all = values(q, name);
  if (single && all.length > 1) {
    throw schemaError(name, all, `${pyRepr(all)} is too long`, 'query parameters');
  }
  for (const v of all) {
    if (!/^[0-9]*$/.test(v))
      throw schemaError(name, v, `${pyRepr(v)} does not match '^[0-9]*$'`, 'query parameters');
    if (v.length < 1) throw schemaError(name, v, `${pyRepr(v)} is too short`, 'query parameters');
  }
  const last = all.at(-1);
  return last === undefined ? undefined : Number(last);
}

/** A string query parameter restricted to an enum. */
export function enumParam(
  q: Query,
  name: string,
  allowed: readonly unknown[],
  single = false,
): string | undefined {
  const all = values(q, name);
  if (single && all.length > 1) {
    throw schemaError(name, all, `${pyRepr(all)} is too long`, 'query parameters');
  }
  for (const v of all) {
    if (!allowed.includes(v)) {
      throw schemaError(name, v, `${pyRepr(v)} is not one of ${pyRepr(allowed)}`, 'query parameters');
    }
  }
  return all.at(-1);
}

/** `parameter_types.boolean`. */
export const NOVA_BOOLEAN_ENUM: readonly unknown[] = [
  true,
  'True',
  'TRUE',
  'true',
  '1',
  'ON',
  'On',
  'on',
  'YES',
  'Yes',
  'yes',
  false,
  'False',
  'FALSE',
  'false',
  '0',
  'OFF',
  'Off',
  'off',
  'NO',
  'No',
  'no',
];

const TRUE_STRINGS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'f', 'false', 'off', 'n', 'no'];

/** oslo's `bool_from_string(strict=True)`: null for anything it does not recognise. */
export function boolFromString(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (TRUE_STRINGS.includes(s)) return true;
  if (FALSE_STRINGS.includes(s)) return false;
  return null;
}

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
/** CONF.api.max_limit */
export const MAX_LIMIT = 1000;

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
        const b = boolFromString(raw);
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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Nova's minimum/maximum also read numeric strings (`_number_from_str`). */
function numberFrom(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function checkFlavorInt(field: string, v: unknown, min: number): void {
  const fail = (m: string) => schemaError(field, v, m, 'field/attribute');
  if (!isInteger(v) && typeof v !== 'string') throw fail(`${pyRepr(v)} is not of type 'integer', 'string'`);
  if (typeof v === 'string' && !/^[0-9]*$/.test(v)) throw fail(`${pyRepr(v)} does not match '^[0-9]*$'`);
  const n = numberFrom(v);
  if (n !== null && n < min) throw fail(`${n} is less than the minimum of ${min}`);
  if (n !== null && n > MAX_INT) throw fail(`${n} is greater than the maximum of ${MAX_INT}`);
}

/** What the schema leaves to `nova.compute.flavors.create`: whole numbers in range. */
function toInt(field: string, v: unknown, min: number): number {
  const n = typeof v === 'string' ? (v === '' ? Number.NaN : Number(v)) : Number(v);
  if (!Number.isInteger(n)) throw badRequest(`Invalid input received: ${field} must be an integer`);
  if (n < min) throw badRequest(`Invalid input received: ${field} must be >= ${min}`);
  return n;
}

const NAME_INVALID =
  "An invalid 'name' value was provided. The name must be: printable characters. Can not start or end with whitespace.";

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

/** Validates a POST /flavors body as jsonschema would, keyword by keyword, in schema order. */
export function parseFlavorCreate(body: unknown, withDescription: boolean): NewFlavor {
  if (!isObject(body)) throw badRequest(`${pyRepr(body ?? null)} is not of type 'object'`);
  const f = body['flavor'];
  if ('flavor' in body) {
    const fail = (field: string, v: unknown, m: string) => schemaError(field, v, m, 'field/attribute');
    if (!isObject(f)) throw fail('flavor', f, `${pyRepr(f)} is not of type 'object'`);
    if ('name' in f) {
      const n = f['name'];
      if (typeof n !== 'string') throw fail('name', n, `${pyRepr(n)} is not of type 'string'`);
      if (n.length < 1) throw fail('name', n, `${pyRepr(n)} is too short`);
      if (n.length > 255) throw fail('name', n, `${pyRepr(n)} is too long`);
      if (!/^(?![\s])[\P{C}]*(?<![\s])$/u.test(n)) throw badRequest(NAME_INVALID);
    }
    if ('id' in f) {
      const id = f['id'];
      if (id !== null && typeof id !== 'string' && typeof id !== 'number') {
        throw fail('id', id, `${pyRepr(id)} is not of type 'string', 'number', 'null'`);
      }
      if (typeof id === 'string') {
        if (id.length < 1) throw fail('id', id, `${pyRepr(id)} is too short`);
        if (id.length > 255) throw fail('id', id, `${pyRepr(id)} is too long`);
        if (!/^(?! )[a-zA-Z0-9. _-]+(?<! )$/.test(id)) {
          throw fail('id', id, `${pyRepr(id)} does not match '^(?! )[a-zA-Z0-9. _-]+(?<! )$'`);
        }
      }
    }
    if ('ram' in f) checkFlavorInt('ram', f['ram'], 1);
    if ('vcpus' in f) checkFlavorInt('vcpus', f['vcpus'], 1);
    if ('disk' in f) checkFlavorInt('disk', f['disk'], 0);
    if ('OS-FLV-EXT-DATA:ephemeral' in f)
      checkFlavorInt('OS-FLV-EXT-DATA:ephemeral', f['OS-FLV-EXT-DATA:ephemeral'], 0);
    if ('swap' in f) checkFlavorInt('swap', f['swap'], 0);
    if ('rxtx_factor' in f) {
      const r = f['rxtx_factor'];
      if (typeof r !== 'number' && typeof r !== 'string') {
        throw fail('rxtx_factor', r, `${pyRepr(r)} is not of type 'number', 'string'`);
      }
      if (typeof r === 'string' && !/^[0-9]+(\.[0-9]+)?$/.test(r)) {
        throw fail('rxtx_factor', r, `${pyRepr(r)} does not match '^[0-9]+(\\\\.[0-9]+)?$'`);
      }
      const n = numberFrom(r);
      if (n !== null && n <= 0)
        throw fail('rxtx_factor', r, `${n} is less than or equal to the minimum of 0`);
      if (n !== null && n > SQL_SP_FLOAT_MAX) {
        throw fail('rxtx_factor', r, `${n} is greater than the maximum of ${SQL_SP_FLOAT_MAX}`);
      }
    }
    if ('os-flavor-access:is_public' in f) {
      const p = f['os-flavor-access:is_public'];
      if (typeof p !== 'boolean' && typeof p !== 'string') {
        throw fail('os-flavor-access:is_public', p, `${pyRepr(p)} is not of type 'boolean', 'string'`);
      }
      if (!NOVA_BOOLEAN_ENUM.includes(p)) {
        throw fail(
          'os-flavor-access:is_public',
          p,
          `${pyRepr(p)} is not one of ${pyRepr(NOVA_BOOLEAN_ENUM)}`,
        );
      }
    }
    if (withDescription && 'description' in f) {
      const d = f['description'];
      if (d !== null && typeof d !== 'string') {
        throw fail('description', d, `${pyRepr(d)} is not of type 'string', 'null'`);
      }
      if (typeof d === 'string' && d.length > 65535) throw fail('description', d, `${pyRepr(d)} is too long`);
    }
    for (const req of ['name', 'ram', 'vcpus', 'disk']) {
      if (!(req in f)) throw fail('flavor', f, `${pyRepr(req)} is a required property`);
    }
    const allowed = [
      'name',
      'id',
      'ram',
      'vcpus',
      'disk',
      'OS-FLV-EXT-DATA:ephemeral',
      'swap',
      'rxtx_factor',
      'os-flavor-access:is_public',
      ...(withDescription ? ['description'] : []),
    ];
    const extras = Object.keys(f).filter((k) => !allowed.includes(k));
    if (extras.length > 0) {
      const verb = extras.length === 1 ? 'was' : 'were';
      throw fail(
        'flavor',
        f,
        `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${verb} unexpected)`,
      );
    }
  }
  if (!('flavor' in body)) throw badRequest(`'flavor' is a required property`);
  const extras = Object.keys(body).filter((k) => k !== 'flavor');
  if (extras.length > 0) {
    const verb = extras.length === 1 ? 'was' : 'were';
    throw badRequest(
      `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${verb} unexpected)`,
    );
  }
  const v = f as Record<string, unknown>;
  const rawId = v['id'];
  const isPublic =
    v['os-flavor-access:is_public'] === undefined ? true : boolFromString(v['os-flavor-access:is_public']);
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
  if (!isObject(body)) throw badRequest(`${pyRepr(body ?? null)} is not of type 'object'`);
  const fail = (field: string, v: unknown, m: string) => schemaError(field, v, m, 'field/attribute');
  if ('flavor' in body) {
    const f = body['flavor'];
    if (!isObject(f)) throw fail('flavor', f, `${pyRepr(f)} is not of type 'object'`);
    if ('description' in f) {
      const d = f['description'];
      if (d !== null && typeof d !== 'string')
        throw fail('description', d, `${pyRepr(d)} is not of type 'string', 'null'`);
      if (typeof d === 'string' && d.length > 65535) throw fail('description', d, `${pyRepr(d)} is too long`);
    } else {
      throw fail('flavor', f, `'description' is a required property`);
    }
    const extras = Object.keys(f).filter((k) => k !== 'description');
    if (extras.length > 0) {
      const verb = extras.length === 1 ? 'was' : 'were';
      throw fail(
        'flavor',
        f,
        `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${verb} unexpected)`,
      );
    }
  } else {
    throw badRequest(`'flavor' is a required property`);
  }
  const extras = Object.keys(body).filter((k) => k !== 'flavor');
  if (extras.length > 0) {
    const verb = extras.length === 1 ? 'was' : 'were';
    throw badRequest(
      `Additional properties are not allowed (${extras.map(pyRepr).join(', ')} ${verb} unexpected)`,
    );
  }
  const d = (body['flavor'] as Record<string, unknown>)['description'];
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
    return isObject(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}
