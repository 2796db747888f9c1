import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { newHexId } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { domainNotFound, duplicateEntry, unauthorized, userNotFound, validationMessage } from '../errors.js';
import { hashPassword, verifyPassword } from '../password.js';
import { passwordChangeSchema, userCreateSchema, userUpdateSchema } from '../schemas/users.schemas.js';
import { validated } from '../schemas/validation.js';
import { assignmentsStore } from '../store/assignments.store.js';
import { isUniqueViolation, queryBool } from '../store/db.js';
import { domainsStore } from '../store/domains.store.js';
import { type UserRow, usersStore } from '../store/users.store.js';
import { enforce, enforceAdmin, isAdmin } from './policy.js';
import { domainOfCaller, type Query, requireMatchingId } from './projects.service.js';
import { revokeTokens } from './tokens.service.js';

/** A user without a password gets a hash nothing matches. */
const hashOrNone = async (password: string | null | undefined) => (password ? hashPassword(password) : '');

/** `email` is a free attribute in Keystone (stored in `extra`); this cloud keeps it when it is a string. */
const emailOf = (v: unknown) => (typeof v === 'string' ? v : null);

/** Keystone refuses a domain's id as a user's default project. */
async function checkDefaultProject(store: Store, id: string | null | undefined): Promise<void> {
  if (id && (await domainsStore.byId(store.db, id))) {
    throw validationMessage(`User's default project ID cannot be a domain ID: ${id}`);
  }
}

export const usersService = {
  async list(store: Store, caller: AuthContext, q: Query): Promise<UserRow[]> {
    enforceAdmin(caller, 'list_users');
    return usersStore.list(store.db, {
      ...(q.name !== undefined ? { name: q.name } : {}),
      ...(q.domain_id !== undefined ? { domainId: q.domain_id } : {}),
      ...(q.enabled !== undefined ? { enabled: queryBool(q.enabled) } : {}),
    });
  },

  /** Admins, and the user themself. */
  async get(store: Store, caller: AuthContext, id: string): Promise<UserRow> {
    const user = await usersStore.byId(store.db, id);
    enforce('get_user', isAdmin(caller) || (user !== undefined && caller.userId === user.id));
    if (!user) throw userNotFound(id);
    return user;
  },

  async create(store: Store, caller: AuthContext, input: unknown): Promise<UserRow> {
    enforceAdmin(caller, 'create_user');
    const body = validated(userCreateSchema, input);
    const domainId = body.domain_id || (await domainOfCaller(store.db, caller));
    if (!(await domainsStore.byId(store.db, domainId))) throw domainNotFound(domainId);
    await checkDefaultProject(store, body.default_project_id);
    const name = body.name ?? '';
    const row: UserRow = {
      id: newHexId(),
      name,
      domain_id: domainId,
      password_hash: await hashOrNone(body.password),
      enabled: body.enabled === false ? 0 : 1,
      email: emailOf(body.email),
      description: body.description ?? null,
      default_project_id: body.default_project_id ?? null,
      created_at: nowIso(),
    };
    await store.transaction(async (tx) => {
      if (await usersStore.byName(tx, domainId, name)) throw duplicateEntry('user', name, domainId);
      try {
        await usersStore.insert(tx, row);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateEntry('user', name, domainId);
        throw err;
      }
    });
    return row;
  },

  /** PATCH: a new password or disabling the user ends every token they hold. */
  async update(store: Store, caller: AuthContext, id: string, input: unknown): Promise<UserRow> {
    enforceAdmin(caller, 'update_user');
    if (!(await usersStore.byId(store.db, id))) throw userNotFound(id);
    const body = validated(userUpdateSchema, input);
    requireMatchingId(body, id);
    await checkDefaultProject(store, body.default_project_id);
    const passwordHash = body.password !== undefined ? await hashOrNone(body.password) : undefined;
    return store.transaction(async (tx) => {
      const original = await usersStore.byId(tx, id);
      if (!original) throw userNotFound(id);
      if ('domain_id' in body && body.domain_id !== original.domain_id)
        throw validationMessage('Cannot change Domain ID');
      const patch: Partial<UserRow> = {};
      if (body.name !== undefined && body.name !== original.name) {
        const other = await usersStore.byName(tx, original.domain_id, body.name);
        if (other && other.id !== id) throw duplicateEntry('user', body.name, body.domain_id);
        patch.name = body.name;
      }
      if (body.enabled !== undefined) patch.enabled = body.enabled ? 1 : 0;
      if ('email' in body) patch.email = emailOf(body.email);
      if ('description' in body) patch.description = body.description ?? null;
      if ('default_project_id' in body) patch.default_project_id = body.default_project_id ?? null;
      if (passwordHash !== undefined) patch.password_hash = passwordHash;
      if (Object.keys(patch).length > 0) {
        try {
          await usersStore.update(tx, id, patch);
        } catch (err) {
          if (isUniqueViolation(err)) throw duplicateEntry('user', body.name ?? '', body.domain_id);
          throw err;
        }
      }
      if (passwordHash !== undefined || (patch.enabled === 0 && original.enabled === 1))
        await revokeTokens.ofUser(tx, id);
      return { ...original, ...patch };
    });
  },

  async delete(store: Store, caller: AuthContext, id: string): Promise<void> {
    enforceAdmin(caller, 'delete_user');
    await store.transaction(async (tx) => {
      if (!(await usersStore.byId(tx, id))) throw userNotFound(id);
      await assignmentsStore.deleteForUser(tx, id);
      await revokeTokens.ofUser(tx, id);
      await usersStore.delete(tx, id);
    });
  },

  /**
   * POST /v3/users/{id}/password: no token needed, the original password is the credential. Every
   * failure is the generic 401; success ends the user's tokens.
   */
  async changePassword(store: Store, id: string, input: unknown): Promise<void> {
    const body = validated(passwordChangeSchema, input);
    const user = await usersStore.byId(store.db, id);
    if (!user?.enabled || !(await verifyPassword(body.original_password, user.password_hash))) {
      throw unauthorized();
    }
    const passwordHash = await hashPassword(body.password);
    await store.transaction(async (tx) => {
      await usersStore.update(tx, id, { password_hash: passwordHash });
      await revokeTokens.ofUser(tx, id);
    });
  },
};
