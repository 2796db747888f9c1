import type { Store } from '../../platform/db/store.js';
import type { AuthContext } from '../../platform/http/context.js';
import { projectNotFound, roleAssignmentNotFound, roleNotFound, userNotFound } from '../errors.js';
import { type AssignmentRow, assignmentsStore } from '../store/assignments.store.js';
import type { Db } from '../store/db.js';
import { projectsStore } from '../store/projects.store.js';
import type { RoleRow } from '../store/roles.store.js';
import { rolesStore } from '../store/roles.store.js';
import { usersStore } from '../store/users.store.js';
import { enforceAdmin } from './policy.js';
import type { Query } from './projects.service.js';
import { revokeTokens } from './tokens.service.js';

export interface Grant {
  projectId: string;
  userId: string;
  roleId: string;
}

/**
 * Keystone builds a grant call's policy target before it checks policy, so a missing role, user or
 * project is a 404 whoever asks (in that order). Revoking tolerates a user that is gone.
 */
async function resolveTarget(
  db: Db,
  g: Partial<Grant> & { projectId: string; userId: string },
  allowMissingUser = false,
) {
  if (g.roleId !== undefined && !(await rolesStore.byId(db, g.roleId))) throw roleNotFound(g.roleId);
  if (!allowMissingUser && !(await usersStore.byId(db, g.userId))) throw userNotFound(g.userId);
  if (!(await projectsStore.byId(db, g.projectId))) throw projectNotFound(g.projectId);
}

export const assignmentsService = {
  /** GET/HEAD .../roles/{role}: 204 when granted. */
  async check(store: Store, caller: AuthContext, g: Grant): Promise<void> {
    await resolveTarget(store.db, g);
    enforceAdmin(caller, 'check_grant');
    if (!(await assignmentsStore.exists(store.db, g.userId, g.projectId, g.roleId))) {
      throw roleAssignmentNotFound(g.roleId, g.userId, g.projectId);
    }
  },

  async grant(store: Store, caller: AuthContext, g: Grant): Promise<void> {
    await resolveTarget(store.db, g);
    enforceAdmin(caller, 'create_grant');
    await store.transaction((tx) => assignmentsStore.insert(tx, g.userId, g.projectId, g.roleId));
  },

  /** Removing a grant ends the user's tokens on that project, as Keystone's revocation event does. */
  async revoke(store: Store, caller: AuthContext, g: Grant): Promise<void> {
    await resolveTarget(store.db, g, true);
    enforceAdmin(caller, 'revoke_grant');
    await store.transaction(async (tx) => {
      if ((await assignmentsStore.delete(tx, g.userId, g.projectId, g.roleId)) === 0) {
        throw roleAssignmentNotFound(g.roleId, g.userId, g.projectId);
      }
      await revokeTokens.ofUserOnProject(tx, g.userId, g.projectId);
    });
  },

  /** GET /v3/projects/{p}/users/{u}/roles: the roles granted directly. */
  async listGrants(store: Store, caller: AuthContext, projectId: string, userId: string): Promise<RoleRow[]> {
    await resolveTarget(store.db, { projectId, userId });
    enforceAdmin(caller, 'list_grants');
    return assignmentsStore.rolesOn(store.db, userId, projectId);
  },

  /** GET /v3/role_assignments with the `user.id`, `scope.project.id` and `role.id` filters. */
  async list(store: Store, caller: AuthContext, q: Query): Promise<AssignmentRow[]> {
    enforceAdmin(caller, 'list_role_assignments');
    // Only user grants on projects exist here: a domain, group or system filter matches nothing.
    if (['scope.domain.id', 'group.id', 'scope.system'].some((k) => q[k] !== undefined)) return [];
    return assignmentsStore.list(store.db, {
      ...(q['user.id'] !== undefined ? { userId: q['user.id'] } : {}),
      ...(q['scope.project.id'] !== undefined ? { projectId: q['scope.project.id'] } : {}),
      ...(q['role.id'] !== undefined ? { roleId: q['role.id'] } : {}),
    });
  },
};
