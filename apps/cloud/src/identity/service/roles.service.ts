import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { newHexId } from '../../platform/ids.js';
import { duplicateEntry, immutable, roleNotFound } from '../errors.js';
import { roleCreateSchema, roleUpdateSchema } from '../schemas/roles.schemas.js';
import { validated } from '../schemas/validation.js';
import { assignmentsStore } from '../store/assignments.store.js';
import { isUniqueViolation } from '../store/db.js';
import { type RoleRow, rolesStore } from '../store/roles.store.js';
import { isImmutableRole } from '../views/role.view.js';
import { enforceAdmin } from './policy.js';
import { type Query, requireMatchingId } from './projects.service.js';

export const rolesService = {
  async list(store: Store, caller: AuthContext, q: Query): Promise<RoleRow[]> {
    enforceAdmin(caller, 'list_roles');
    return rolesStore.list(store.db, q.name !== undefined ? { name: q.name } : {});
  },

  async get(store: Store, caller: AuthContext, id: string): Promise<RoleRow> {
    enforceAdmin(caller, 'get_role');
    const role = await rolesStore.byId(store.db, id);
    if (!role) throw roleNotFound(id);
    return role;
  },

  async create(store: Store, caller: AuthContext, input: unknown): Promise<RoleRow> {
    enforceAdmin(caller, 'create_role');
    const body = validated(roleCreateSchema, input);
    const row: RoleRow = { id: newHexId(), name: body.name ?? '', description: body.description ?? null };
    await store.transaction(async (tx) => {
      if (await rolesStore.byName(tx, row.name)) throw duplicateEntry('role', row.name);
      try {
        await rolesStore.insert(tx, row);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateEntry('role', row.name);
        throw err;
      }
    });
    return row;
  },

  async update(store: Store, caller: AuthContext, id: string, input: unknown): Promise<RoleRow> {
    enforceAdmin(caller, 'update_role');
    if (!(await rolesStore.byId(store.db, id))) throw roleNotFound(id);
    const body = validated(roleUpdateSchema, input);
    requireMatchingId(body, id);
    return store.transaction(async (tx) => {
      const original = await rolesStore.byId(tx, id);
      if (!original) throw roleNotFound(id);
      if (isImmutableRole(original)) throw immutable('update', 'role', id);
      const patch: Partial<RoleRow> = {};
      if (body.name !== undefined && body.name !== original.name) {
        if (await rolesStore.byName(tx, body.name)) throw duplicateEntry('role', body.name);
        patch.name = body.name;
      }
      if (body.description !== undefined) patch.description = body.description;
      if (Object.keys(patch).length > 0) {
        try {
          await rolesStore.update(tx, id, patch);
        } catch (err) {
          if (isUniqueViolation(err)) throw duplicateEntry('role', body.name ?? '');
          throw err;
        }
      }
      return { ...original, ...patch };
    });
  },

  /** Bootstrap's roles are immutable; deleting any other also removes its grants. */
  async delete(store: Store, caller: AuthContext, id: string): Promise<void> {
    enforceAdmin(caller, 'delete_role');
    await store.transaction(async (tx) => {
      const role = await rolesStore.byId(tx, id);
      if (!role) throw roleNotFound(id);
      if (isImmutableRole(role)) throw immutable('delete', 'role', id);
      await assignmentsStore.deleteForRole(tx, id);
      await rolesStore.delete(tx, id);
    });
  },
};
