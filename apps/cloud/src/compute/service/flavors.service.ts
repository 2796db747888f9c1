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
  /** cloud-rescue: the caller's project, which sees the private flavors shared with it. */
  projectId?: string;
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
    ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
  });
  const dir = sortDir === 'desc' ? -1 : 1;
  const cmp = (a: FlavorRow, b: FlavorRow) =>
    dir * (compareValues(sortValue(a, sortKey), sortValue(b, sortKey)) || a.internal_id - b.internal_id);
  rows.sort(cmp);

  let start = 0;
  if (marker !== undefined) {
    // The marker is looked up among the flavors the caller may see, then paged past (keyset).
    const markerRow = await flavorsStore.byId(db, marker);
    if (!markerRow || !(await visibleTo(db, markerRow, caller)))
      throw badRequest(`marker [${marker}] not found`);
    start = rows.findIndex((r) => cmp(r, markerRow) > 0);
    if (start < 0) start = rows.length;
  }
  return { flavors: rows.slice(start, start + limit), requestedLimit: query.limit };
}

/** Members see public flavors and the private ones shared with their project (flavor access). */
async function visibleTo(db: Db, f: FlavorRow, caller: Caller): Promise<boolean> {
  if (caller.isAdmin || f.is_public === 1) return true;
  return caller.projectId !== undefined && flavorsStore.hasAccess(db, f.id, caller.projectId);
}

/** cloud-rescue: a server may boot with a flavor its project can see. */
export const canUseFlavor = (db: Db, f: FlavorRow, auth: { isAdmin: boolean; projectId: string | null }) =>
  visibleTo(db, f, { isAdmin: auth.isAdmin, ...(auth.projectId ? { projectId: auth.projectId } : {}) });

/** The flavor if the caller may see it (disabled ones included), else undefined. */
export async function findVisibleFlavor(db: Db, id: string, caller: Caller): Promise<FlavorRow | undefined> {
  const f = await flavorsStore.byId(db, id);
  return f && (await visibleTo(db, f, caller)) ? f : undefined;
}

/** Flavor show: private flavors are hidden from members without access, disabled ones are not. */
export async function getFlavor(db: Db, id: string, caller: Caller): Promise<FlavorRow> {
  const f = await findVisibleFlavor(db, id, caller);
  if (!f) throw notFound(`Flavor ${id} could not be found.`);
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
  // The row first: its lock orders this after (or before) any access change of the flavor.
  const n = await store.transaction(async (tx) => {
    const deleted = await flavorsStore.delete(tx, id);
    await flavorsStore.deleteAccessOf(tx, id);
    return deleted;
  });
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

// ---------------------------------------------------------------------------------------------
// cloud-rescue: flavor access (nova/api/openstack/compute/flavor_access.py)
// ---------------------------------------------------------------------------------------------

export interface FlavorAccess {
  flavorId: string;
  projectIds: string[];
}

async function accessOf(db: Db, flavorId: string): Promise<FlavorAccess> {
  const rows = await flavorsStore.accessList(db, flavorId);
  return { flavorId, projectIds: rows.map((r) => r.project_id) };
}

/** GET /flavors/{id}/os-flavor-access: the lookup as the caller sees it, then public's 404. */
export async function listFlavorAccess(db: Db, id: string, caller: Caller): Promise<FlavorAccess> {
  const f = await getFlavor(db, id, caller);
  if (f.is_public === 1) throw notFound('Access list not available for public flavors.');
  return accessOf(db, f.id);
}

/**
 * addTenantAccess / removeTenantAccess (admins, checked by the route). Nova's messages name the
 * flavor's internal row id rather than its flavorid (captures 833, 839); so do ours, from the
 * same counter (`internal_id`).
 */
export async function changeFlavorAccess(
  store: Store,
  id: string,
  change: { add: boolean; projectId: string },
): Promise<FlavorAccess> {
  return store.transaction(async (tx) => {
    const f = await flavorsStore.lockById(store, tx, id);
    if (!f) throw notFound(`Flavor ${id} could not be found.`);
    const { projectId } = change;
    if (change.add) {
      if (f.is_public === 1) throw conflict('Can not add access to a public flavor.');
      if (await flavorsStore.hasAccess(tx, f.id, projectId)) {
        throw conflict(
          `Flavor access already exists for flavor ${f.internal_id} and project ${projectId} combination.`,
        );
      }
      await flavorsStore.addAccess(tx, f.id, projectId);
    } else if ((await flavorsStore.removeAccess(tx, f.id, projectId)) === 0) {
      throw notFound(`Flavor access not found for ${f.internal_id} / ${projectId} combination.`);
    }
    return accessOf(tx, f.id);
  });
}
