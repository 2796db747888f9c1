import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import type { FlavorListQuery, NewFlavor } from '../schemas/flavors.schemas.js';
import { isJsonObject, MAX_LIMIT } from '../schemas/validation.js';
import { type FlavorRow, flavorsStore } from '../store/flavors.store.js';

type Db = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// Listing (nova/api/openstack/compute/flavors.py `_get_flavors`)
// ---------------------------------------------------------------------------------------------

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

export async function listFlavors(db: Db, caller: Caller, query: FlavorListQuery): Promise<FlavorPage> {
  const { sortKey, sortDir, marker, minRam, minDisk } = query;
  const limit = Math.min(MAX_LIMIT, query.limit ?? MAX_LIMIT);
  // Only admins may query by is_public; it defaults to public flavors for them too.
  const isPublic = caller.isAdmin ? query.isPublic : true;

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
  return { flavors: rows.slice(start, start + limit), requestedLimit: query.limit };
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
