import type { Store } from '../../platform/db/store.js';
import { badRequest, conflict, notFound, policyForbidden } from '../../platform/http/errors.js';
import { isUuidLike, newUuid } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { type GroupTypeRecord, groupsStore } from '../store/groups.store.js';
import type { Caller } from './caller.js';
import { invalidSortKey, type ListParams, paginate, processSortParams } from './paging.js';

/** The group type Cinder's migration makes for consistency group snapshots (capture 940). */
export const CGSNAPSHOT_GROUP_TYPE = {
  name: 'default_cgsnapshot_type',
  description: 'Default group type for migrating cgsnapshot',
  specs: { consistent_group_snapshot_enabled: '<is> True' },
} as const;

export const groupTypeNotFound = (id: string) => notFound(`Group type ${id} could not be found.`);
const specNotFound = (typeId: string, key: string) =>
  notFound(`Group Type ${typeId} has no extra spec with key ${key}.`);

/** policies/group_types.py and group_type_specs.py: every change, and the specs, are the admin's. */
export const GROUP_TYPE_RULES = {
  create: 'group:group_types:create',
  update: 'group:group_types:update',
  delete: 'group:group_types:delete',
  specsGetAll: 'group:group_types_specs:get_all',
  specsGet: 'group:group_types_specs:get',
  specsCreate: 'group:group_types_specs:create',
  specsUpdate: 'group:group_types_specs:update',
  specsDelete: 'group:group_types_specs:delete',
} as const;

// No prototype: the keys come from the request.
const SORTABLE: Record<string, keyof GroupTypeRecord> = Object.assign(Object.create(null), {
  id: 'id',
  name: 'name',
  description: 'description',
  is_public: 'is_public',
  created_at: 'created_at',
});

/** A private group type is the admins' alone (Cinder has no group type access API in use here). */
const visible = (caller: Caller, t: GroupTypeRecord | undefined) =>
  t && (caller.isAdmin || t.is_public === 1) ? t : undefined;

/** Cinder's group types (v3/group_types.py, group_specs.py, volume/group_types.py). */
export function createGroupTypesService(store: Store) {
  const db = store.db;

  async function mustGet(caller: Caller, id: string): Promise<GroupTypeRecord> {
    const t = visible(caller, await groupsStore.typeById(db, id));
    if (!t) throw groupTypeNotFound(id);
    return t;
  }

  async function mustGetForAdmin(id: string): Promise<GroupTypeRecord> {
    const t = await groupsStore.typeById(db, id);
    if (!t) throw groupTypeNotFound(id);
    return t;
  }

  return {
    /** Admins: public ones by default, `is_public=None` for all; members always the public ones. */
    async list(caller: Caller, params: ListParams, isPublic: boolean | null): Promise<GroupTypeRecord[]> {
      const sort = processSortParams(params.sortKeys, params.sortDirs);
      for (const k of sort.keys) if (!(k in SORTABLE)) throw invalidSortKey();
      const rows = (await groupsStore.allTypes(db)).filter((t) =>
        caller.isAdmin ? isPublic === null || (t.is_public === 1) === isPublic : t.is_public === 1,
      );
      const marker = params.marker !== null ? await mustGet(caller, params.marker) : null;
      const sortValue = (t: GroupTypeRecord, k: string) => {
        const v = t[SORTABLE[k] as keyof GroupTypeRecord];
        return typeof v === 'string' || typeof v === 'number' ? v : null;
      };
      return paginate(rows, sort, sortValue, marker, params.offset, params.limit);
    },

    show: (caller: Caller, id: string) => mustGet(caller, id),

    /** `default_group_type` is unset on the reference cloud, as in devstack (capture 941). */
    async defaultType(_caller: Caller): Promise<GroupTypeRecord> {
      throw notFound('Default group type can not be found.');
    },

    /** get_group_type_by_name_or_id: a uuid-looking value is an id, anything else a name. */
    async byNameOrId(caller: Caller, ident: string): Promise<GroupTypeRecord> {
      if (isUuidLike(ident)) {
        const t = visible(caller, await groupsStore.typeById(db, ident));
        if (!t) throw groupTypeNotFound(ident);
        return t;
      }
      const t = visible(caller, await groupsStore.typeByName(db, ident));
      if (!t) throw notFound(`Group type with name ${ident} could not be found.`);
      return t;
    },

    async create(
      caller: Caller,
      input: { name: string; description: string | null; isPublic: boolean; specs: Record<string, string> },
    ): Promise<GroupTypeRecord> {
      if (!caller.isAdmin) throw policyForbidden(GROUP_TYPE_RULES.create);
      return store.transaction(async (tx) => {
        if (await groupsStore.typeByName(tx, input.name)) {
          throw conflict(`Group Type ${input.name} already exists.`);
        }
        const id = newUuid();
        await groupsStore.insertType(tx, {
          id,
          name: input.name,
          description: input.description,
          is_public: input.isPublic ? 1 : 0,
          created_at: nowIso(),
        });
        await groupsStore.upsertSpecs(tx, id, input.specs);
        return (await groupsStore.typeById(tx, id)) as GroupTypeRecord;
      });
    },

    async update(
      caller: Caller,
      id: string,
      input: { name?: string | null; description?: string | null; isPublic?: boolean | null },
    ): Promise<GroupTypeRecord> {
      if (!caller.isAdmin) throw policyForbidden(GROUP_TYPE_RULES.update);
      const name = input.name ?? null;
      const description = input.description ?? null;
      const isPublic = input.isPublic ?? null;
      if (name !== null && name.trim().length === 0) throw badRequest('Group type name can not be empty.');
      if (name === null && description === null && isPublic === null) {
        throw badRequest('Specify group type name, description or a combination thereof.');
      }
      return store.transaction(async (tx) => {
        if (!(await groupsStore.typeById(tx, id))) throw groupTypeNotFound(id);
        if (name !== null) {
          const other = await groupsStore.typeByName(tx, name);
          if (other && other.id !== id) throw conflict(`Group Type ${name} already exists.`);
        }
        await groupsStore.updateType(tx, id, {
          ...(name !== null ? { name } : {}),
          ...(description !== null ? { description } : {}),
          ...(isPublic !== null ? { is_public: isPublic ? 1 : 0 } : {}),
        });
        return (await groupsStore.typeById(tx, id)) as GroupTypeRecord;
      });
    },

    async delete(caller: Caller, id: string): Promise<void> {
      if (!caller.isAdmin) throw policyForbidden(GROUP_TYPE_RULES.delete);
      await store.transaction(async (tx) => {
        if (!(await groupsStore.typeById(tx, id))) throw groupTypeNotFound(id);
        if (await groupsStore.typeInUse(tx, id)) {
          throw badRequest(
            `Target group type is still in use. Group Type ${id} deletion is not allowed with groups present with the type.`,
          );
        }
        await groupsStore.deleteType(tx, id);
      });
    },

    async specs(caller: Caller, typeId: string): Promise<Record<string, string>> {
      if (!caller.isAdmin) throw policyForbidden(GROUP_TYPE_RULES.specsGetAll);
      return (await mustGetForAdmin(typeId)).specs;
    },

    async spec(caller: Caller, typeId: string, key: string): Promise<string> {
      if (!caller.isAdmin) throw policyForbidden(GROUP_TYPE_RULES.specsGet);
      const value = (await mustGetForAdmin(typeId)).specs[key];
      if (value === undefined) throw specNotFound(typeId, key);
      return value;
    },

    async setSpecs(
      caller: Caller,
      typeId: string,
      specs: Record<string, string>,
      action: 'create' | 'update',
      opts: { uriMismatch?: boolean } = {},
    ): Promise<void> {
      if (!caller.isAdmin) {
        throw policyForbidden(
          action === 'create' ? GROUP_TYPE_RULES.specsCreate : GROUP_TYPE_RULES.specsUpdate,
        );
      }
      await store.transaction(async (tx) => {
        if (!(await groupsStore.typeById(tx, typeId))) throw groupTypeNotFound(typeId);
        if (opts.uriMismatch) throw badRequest('Request body and URI mismatch');
        await groupsStore.upsertSpecs(tx, typeId, specs);
      });
    },

    async deleteSpec(caller: Caller, typeId: string, key: string): Promise<void> {
      if (!caller.isAdmin) throw policyForbidden(GROUP_TYPE_RULES.specsDelete);
      await store.transaction(async (tx) => {
        if (!(await groupsStore.typeById(tx, typeId))) throw groupTypeNotFound(typeId);
        if (!(await groupsStore.deleteSpec(tx, typeId, key))) throw specNotFound(typeId, key);
      });
    },
  };
}

export type GroupTypesService = ReturnType<typeof createGroupTypesService>;
