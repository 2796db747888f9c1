import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound, policyForbidden } from '../../platform/http/errors.js';
import { isUuidLike, newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { typesStore, type VolumeTypeRecord } from '../store/types.store.js';
import { volumesStore } from '../store/volumes.store.js';
// --- cloud-groups ---
import { groupsStore } from '../store/groups.store.js';
import type { Caller } from './caller.js';
import { invalidSortKey, type ListParams, paginate, processSortParams } from './paging.js';

/** Cinder's `default_volume_type`, which devstack leaves at `__DEFAULT__`. */
export const DEFAULT_TYPE_NAME = '__DEFAULT__';

/** policies/type_extra_specs.py USER_VISIBLE_EXTRA_SPECS: what non-admins see of a type's specs. */
const USER_VISIBLE_EXTRA_SPECS = ['RESKEY:availability_zones', 'multiattach', 'replication_enabled'];

export const MULTIATTACH_SPEC = '<is> True';

/** volume_types `_is_multiattach`: only this exact value counts. */
export const isMultiattachType = (t: { extraSpecs: Record<string, string> }) =>
  t.extraSpecs['multiattach'] === MULTIATTACH_SPEC;

export function visibleSpecs(caller: Caller, specs: Record<string, string>): Record<string, string> {
  if (caller.isAdmin) return specs;
  const out: Record<string, string> = {};
  for (const k of USER_VISIBLE_EXTRA_SPECS) if (k in specs) out[k] = specs[k] as string;
  return out;
}

/** A private type is visible to admins and to the projects it is shared with. */
const canSee = (caller: Caller, t: VolumeTypeRecord) =>
  caller.isAdmin || t.is_public === 1 || t.projects.includes(caller.projectId);
const visible = (caller: Caller, t: VolumeTypeRecord | undefined) => (t && canSee(caller, t) ? t : undefined);

const typeNotFound = (id: string) => notFound(`Volume type ${id} could not be found.`);
const typeNameNotFound = (name: string) => notFound(`Volume type with name ${name} could not be found.`);

// No prototype: the keys come from the request, and `constructor` must not find a column.
const SORTABLE: Record<string, keyof VolumeTypeRecord> = Object.assign(Object.create(null), {
  id: 'id',
  name: 'name',
  description: 'description',
  is_public: 'is_public',
  created_at: 'created_at',
});

export interface TypeFilters {
  /** Admins: true (the default), false, or null for all. Members always get public types. */
  isPublic: boolean | null;
  extraSpecs: Record<string, string> | null;
}

export function createTypesService(store: Store) {
  const db = store.db;

  async function mustGet(caller: Caller, id: string): Promise<VolumeTypeRecord> {
    const t = visible(caller, await typesStore.byId(db, id));
    if (!t) throw typeNotFound(id);
    return t;
  }

  return {
    async list(caller: Caller, params: ListParams, filters: TypeFilters): Promise<VolumeTypeRecord[]> {
      const sort = processSortParams(params.sortKeys, params.sortDirs);
      let rows = (await typesStore.all(db)).filter((t) =>
        caller.isAdmin
          ? filters.isPublic === null || (t.is_public === 1) === filters.isPublic
          : canSee(caller, t),
      );
      if (filters.extraSpecs) {
        const wanted = Object.entries(filters.extraSpecs);
        rows = rows.filter((t) => wanted.every(([k, v]) => t.extraSpecs[k] === v));
      }
      let marker: VolumeTypeRecord | null = null;
      if (params.marker !== null) marker = await mustGet(caller, params.marker);
      for (const k of sort.keys) if (!(k in SORTABLE)) throw invalidSortKey();
      const sortValue = (t: VolumeTypeRecord, k: string) => {
        const v = t[SORTABLE[k] as keyof VolumeTypeRecord];
        return typeof v === 'string' || typeof v === 'number' ? v : null;
      };
      return paginate(rows, sort, sortValue, marker, params.offset, params.limit);
    },

    show: (caller: Caller, id: string) => mustGet(caller, id),

    async defaultType(_caller: Caller): Promise<VolumeTypeRecord> {
      const t = await typesStore.byName(db, DEFAULT_TYPE_NAME);
      if (!t) throw notFound('Default volume type can not be found.');
      return t;
    },

    /**
     * volume_types.get_by_name_or_id: a uuid-looking value is tried as an id, then as a name;
     * anything else is a name. `elevated` (retype) also finds private types.
     */
    async byNameOrId(caller: Caller, ident: string, elevated = false): Promise<VolumeTypeRecord> {
      const as: Caller = elevated ? { ...caller, isAdmin: true } : caller;
      if (isUuidLike(ident)) {
        const byId = visible(as, await typesStore.byId(db, ident));
        if (byId) return byId;
        const byName = visible(as, await typesStore.byName(db, ident));
        if (byName) return byName;
        throw typeNotFound(ident);
      }
      const t = visible(as, await typesStore.byName(db, ident));
      if (!t) throw typeNameNotFound(ident);
      return t;
    },

    async create(
      caller: Caller,
      input: {
        name: string;
        description: string | null;
        extraSpecs: Record<string, string>;
        isPublic: boolean;
      },
    ): Promise<VolumeTypeRecord> {
      if (!caller.isAdmin) throw policyForbidden('volume_extension:type_create');
      return store.transaction(async (tx) => {
        if (await typesStore.byName(tx, input.name))
          throw conflict(`Volume Type ${input.name} already exists.`);
        const id = newUuid();
        await typesStore.insert(tx, {
          id,
          name: input.name,
          description: input.description,
          is_public: input.isPublic ? 1 : 0,
          created_at: nowIso(),
        });
        await typesStore.upsertSpecs(tx, id, input.extraSpecs);
        return (await typesStore.byId(tx, id)) as VolumeTypeRecord;
      });
    },

    async update(
      caller: Caller,
      id: string,
      input: { name?: string | null; description?: string | null; isPublic?: boolean | null },
    ): Promise<VolumeTypeRecord> {
      if (!caller.isAdmin) throw policyForbidden('volume_extension:type_update');
      const name = input.name ?? null;
      const description = input.description ?? null;
      const isPublic = input.isPublic ?? null;
      if (name && name.trim().length === 0) throw badRequest('Volume type name can not be empty.');
      if (name === null && description === null && isPublic === null) {
        throw badRequest('Specify volume type name, description, is_public or a combination thereof.');
      }
      return store.transaction(async (tx) => {
        const t = await typesStore.byId(tx, id);
        if (!t) throw typeNotFound(id);
        if (name) {
          const other = await typesStore.byName(tx, name);
          if (other && other.id !== id) throw conflict(`Volume Type ${name} already exists.`);
        }
        await typesStore.update(tx, id, {
          ...(name ? { name } : {}),
          ...(description !== null ? { description } : {}),
          ...(isPublic !== null ? { is_public: isPublic ? 1 : 0 } : {}),
        });
        return (await typesStore.byId(tx, id)) as VolumeTypeRecord;
      });
    },

    async delete(caller: Caller, id: string): Promise<void> {
      if (!caller.isAdmin) throw policyForbidden('volume_extension:type_delete');
      await store.transaction(async (tx) => {
        const t = await typesStore.byId(tx, id);
        if (!t) throw typeNotFound(id);
        if (t.name === DEFAULT_TYPE_NAME) {
          throw badRequest(`The volume type ${id} is a default volume type and cannot be deleted.`);
        }
        if (await volumesStore.typeInUse(tx, id)) {
          throw badRequest(`Volume Type ${id} deletion is not allowed with volumes present with the type.`);
        }
        // --- cloud-groups: a type a group takes stays (asked the reference).
        if (await groupsStore.volumeTypeInUse(tx, id))
          throw badRequest('Target volume type is still in use.');
        await typesStore.delete(tx, id);
      });
    },

    async extraSpecs(caller: Caller, typeId: string): Promise<Record<string, string>> {
      const t = await mustGet(caller, typeId);
      return visibleSpecs(caller, t.extraSpecs);
    },

    async extraSpec(caller: Caller, typeId: string, key: string): Promise<string> {
      const specs = visibleSpecs(caller, (await mustGet(caller, typeId)).extraSpecs);
      const value = specs[key];
      if (value === undefined) throw notFound(`Volume Type ${typeId} has no extra specs with key ${key}.`);
      return value;
    },

    /**
     * types_extra_specs create/update: admin only, refused while any volume uses the type, and
     * (create only, as in Cinder) refused when it would combine cacheable and multiattach.
     */
    async setExtraSpecs(
      caller: Caller,
      typeId: string,
      specs: Record<string, string>,
      action: 'create' | 'update',
      opts: { uriMismatch?: boolean } = {},
    ): Promise<void> {
      if (!caller.isAdmin) throw policyForbidden(`volume_extension:types_extra_specs:${action}`);
      await store.transaction(async (tx) => {
        if (await volumesStore.typeInUse(tx, typeId)) throw badRequest('Volume Type is currently in use.');
        const t = await typesStore.byId(tx, typeId);
        if (!t) throw typeNotFound(typeId);
        if (opts.uriMismatch) throw badRequest('Request body and URI mismatch');
        if (action === 'create') {
          const isTrue = (k: string, from: Record<string, string>) => from[k] === MULTIATTACH_SPEC;
          if (
            (isTrue('multiattach', specs) && isTrue('cacheable', t.extraSpecs)) ||
            (isTrue('cacheable', specs) && isTrue('multiattach', t.extraSpecs)) ||
            (isTrue('cacheable', specs) && isTrue('multiattach', specs))
          ) {
            throw badRequest('cacheable cannot be set with multiattach.');
          }
        }
        await typesStore.upsertSpecs(tx, typeId, specs);
      });
    },

    async deleteExtraSpec(caller: Caller, typeId: string, key: string): Promise<void> {
      await mustGet(caller, typeId);
      if (!caller.isAdmin) throw policyForbidden('volume_extension:types_extra_specs:delete');
      await store.transaction(async (tx) => {
        if (await volumesStore.typeInUse(tx, typeId)) throw badRequest('Volume Type is currently in use.');
        if (!(await typesStore.deleteSpec(tx, typeId, key))) {
          throw notFound(`Volume Type ${typeId} has no extra specs with key ${key}.`);
        }
      });
    },

    // --- cloud14v: volume type access ---
    /** `os-volume-type-access`: who a private type is shared with (admins; none for a public type). */
    async accessList(caller: Caller, typeId: string): Promise<string[]> {
      if (!caller.isAdmin) throw policyForbidden('volume_extension:volume_type_access:get_all_for_type');
      const t = await mustGet(caller, typeId);
      if (t.is_public === 1) throw notFound('Access list not available for public volume types.');
      return t.projects;
    },

    /** addProjectAccess / removeProjectAccess (admins): only a private type has an access list. */
    async changeAccess(caller: Caller, typeId: string, projectId: string, add: boolean): Promise<void> {
      const rule = add ? 'addProjectAccess' : 'removeProjectAccess';
      if (!caller.isAdmin) throw policyForbidden(`volume_extension:volume_type_access:${rule}`);
      await store.transaction(async (tx) => {
        const t = await typesStore.byId(tx, typeId);
        if (!t) throw typeNotFound(typeId);
        if (t.is_public === 1) {
          throw badRequest(
            'Invalid volume type: Type access modification is not applicable to public volume type.',
          );
        }
        const combination = `${typeId} / ${projectId} combination`;
        if (add && !(await typesStore.addProject(tx, typeId, projectId))) {
          throw conflict(`Volume type access for ${combination} already exists.`);
        }
        if (!add && !(await typesStore.removeProject(tx, typeId, projectId))) {
          throw notFound(`Volume type access not found for ${combination}.`);
        }
      });
    },

    /** Every type's id and name, for volume views (one small query per request). */
    names: async () => new Map((await typesStore.names(db)).map((t) => [t.id, t.name])),
  };
}

export type TypesService = ReturnType<typeof createTypesService>;
