import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { newHexId } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import {
  conflict,
  domainNotFound,
  duplicateEntry,
  forbiddenNotSecurity,
  projectNotFound,
  validationMessage,
} from '../errors.js';
import { type ProjectBody, projectCreateSchema, projectUpdateSchema } from '../schemas/projects.schemas.js';
import { validated } from '../schemas/validation.js';
import { assignmentsStore } from '../store/assignments.store.js';
import { type Db, isUniqueViolation, queryBool } from '../store/db.js';
import { domainsStore } from '../store/domains.store.js';
import { type ProjectRow, projectsStore } from '../store/projects.store.js';
import { enforce, enforceAdmin, isAdmin } from './policy.js';
import { revokeTokens } from './tokens.service.js';

export type Query = Record<string, string | undefined>;

/** Keystone's `_require_matching_id`: a body may repeat the id, never change it. */
export function requireMatchingId(body: { id?: unknown }, id: string): void {
  if ('id' in body && body.id !== id) throw validationMessage('Cannot change ID');
}

/** The domain a create call without `domain_id` lands in: the token's project's domain. */
export async function domainOfCaller(db: Db, caller: AuthContext): Promise<string> {
  if (caller.projectId) {
    const p = await projectsStore.byId(db, caller.projectId);
    if (p) return p.domain_id;
  }
  return 'default';
}

const nameConflictOnCreate = (name: string, id: string) =>
  conflict(
    'project',
    `it is not permitted to have two projects with either the same name or same id in the same domain: name is ${name}, project id ${id}`,
  );

export const projectsService = {
  async list(store: Store, caller: AuthContext, q: Query): Promise<ProjectRow[]> {
    enforceAdmin(caller, 'list_projects');
    // Projects acting as domains are listed only on request; this cloud keeps domains apart.
    if (q.is_domain !== undefined && queryBool(q.is_domain) === 1) return [];
    return projectsStore.list(store.db, {
      ...(q.name !== undefined ? { name: q.name } : {}),
      ...(q.domain_id !== undefined ? { domainId: q.domain_id } : {}),
      ...(q.enabled !== undefined ? { enabled: queryBool(q.enabled) } : {}),
      ...(q.parent_id !== undefined ? { parentId: q.parent_id } : {}),
    });
  },

  /** Admins, and tokens scoped to the project itself. */
  async get(store: Store, caller: AuthContext, id: string): Promise<ProjectRow> {
    const project = await projectsStore.byId(store.db, id);
    enforce('get_project', isAdmin(caller) || (project !== undefined && caller.projectId === project.id));
    if (!project) throw projectNotFound(id);
    return project;
  },

  async create(store: Store, caller: AuthContext, input: unknown): Promise<ProjectRow> {
    enforceAdmin(caller, 'create_project');
    const body: ProjectBody = validated(projectCreateSchema, input);
    const id = newHexId();
    return store.transaction(async (tx) => {
      const domainId = body.domain_id || (await domainOfCaller(tx, caller));
      const name = (body.name ?? '').trim();
      // Keystone reports a missing domain or parent as a 400 (ValidationError wrapping the NotFound).
      const domain = await domainsStore.byId(tx, domainId);
      if (!domain) throw validationMessage(domainNotFound(domainId).message);
      let parentId: string | null = null;
      if (body.parent_id && body.parent_id !== domainId) {
        const parent = await projectsStore.byId(tx, body.parent_id);
        if (!parent) throw validationMessage(projectNotFound(body.parent_id).message);
        if (parent.domain_id !== domainId) {
          throw validationMessage(
            `Cannot create project, since it specifies its domain_id ${domainId}, but specifies a parent in a different domain (${parent.domain_id}).`,
          );
        }
        if (!parent.enabled) {
          throw validationMessage(
            `cannot create a project in a branch containing a disabled project: ${parent.id}`,
          );
        }
        parentId = parent.id;
      }
      if (await projectsStore.byName(tx, domainId, name)) throw nameConflictOnCreate(name, id);
      const row: ProjectRow = {
        id,
        name,
        domain_id: domainId,
        description: body.description ?? '',
        enabled: body.enabled === false ? 0 : 1,
        parent_id: parentId,
        created_at: nowIso(),
      };
      try {
        await projectsStore.insert(tx, row);
      } catch (err) {
        if (isUniqueViolation(err)) throw nameConflictOnCreate(name, id);
        throw err;
      }
      return row;
    });
  },

  async update(store: Store, caller: AuthContext, id: string, input: unknown): Promise<ProjectRow> {
    enforceAdmin(caller, 'update_project');
    const body = validated(projectUpdateSchema, input);
    requireMatchingId(body, id);
    return store.transaction(async (tx) => {
      const original = await projectsStore.byId(tx, id);
      if (!original) throw projectNotFound(id);
      if ('domain_id' in body && body.domain_id !== original.domain_id)
        throw validationMessage('Cannot change Domain ID');
      if ('parent_id' in body && body.parent_id !== (original.parent_id ?? original.domain_id)) {
        throw forbiddenNotSecurity('Update of `parent_id` is not allowed.');
      }
      if ('is_domain' in body && body.is_domain !== false)
        throw validationMessage('Update of `is_domain` is not allowed.');
      const patch: Partial<ProjectRow> = {};
      if (body.name !== undefined && body.name !== original.name) {
        patch.name = body.name.trim();
        const other = await projectsStore.byName(tx, original.domain_id, patch.name);
        if (other && other.id !== id) throw duplicateEntry('project', body.name, body.domain_id ?? undefined);
      }
      if ('description' in body) patch.description = body.description ?? '';
      if (body.enabled !== undefined) {
        patch.enabled = body.enabled ? 1 : 0;
        if (original.enabled === 0 && body.enabled && original.parent_id) {
          const parent = await projectsStore.byId(tx, original.parent_id);
          if (parent && !parent.enabled)
            throw forbiddenNotSecurity(`Cannot enable project ${id} since it has disabled parents`);
        }
        if (original.enabled === 1 && !body.enabled) {
          const children = await projectsStore.children(tx, id);
          if (children.some((c) => c.enabled)) {
            throw forbiddenNotSecurity(
              `Cannot disable project ${id} since its subtree contains enabled projects.`,
            );
          }
        }
      }
      if (Object.keys(patch).length > 0) {
        try {
          await projectsStore.update(tx, id, patch);
        } catch (err) {
          if (isUniqueViolation(err))
            throw duplicateEntry('project', body.name ?? '', body.domain_id ?? undefined);
          throw err;
        }
      }
      // Disabling a project ends the tokens scoped to it, as Keystone's revocation event does.
      if (patch.enabled === 0) await revokeTokens.ofProject(tx, id);
      return { ...original, ...patch };
    });
  },

  async delete(store: Store, caller: AuthContext, id: string): Promise<void> {
    enforceAdmin(caller, 'delete_project');
    await store.transaction(async (tx) => {
      const project = await projectsStore.byId(tx, id);
      if (!project) throw projectNotFound(id);
      if ((await projectsStore.children(tx, id)).length > 0) {
        throw forbiddenNotSecurity(
          `Cannot delete the project ${id} since it is not a leaf in the hierarchy. Use the cascade option if you want to delete a whole subtree.`,
        );
      }
      await assignmentsStore.deleteForProject(tx, id);
      await revokeTokens.ofProject(tx, id);
      await projectsStore.delete(tx, id);
    });
  },

  /** GET /v3/auth/projects: the enabled projects the caller may scope to. */
  async forCaller(store: Store, caller: AuthContext): Promise<ProjectRow[]> {
    return projectsStore.ofUser(store.db, caller.userId, { enabled: 1 });
  },

  /** GET /v3/users/{id}/projects: admins, or the user themself. */
  async ofUser(store: Store, caller: AuthContext, userId: string, q: Query): Promise<ProjectRow[]> {
    enforce('list_user_projects', isAdmin(caller) || caller.userId === userId);
    return projectsStore.ofUser(store.db, userId, {
      ...(q.name !== undefined ? { name: q.name } : {}),
      ...(q.domain_id !== undefined ? { domainId: q.domain_id } : {}),
      ...(q.enabled !== undefined ? { enabled: queryBool(q.enabled) } : {}),
    });
  },
};
