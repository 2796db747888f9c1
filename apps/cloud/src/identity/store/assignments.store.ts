import type { Db } from './db.js';

export interface AssignmentFilters {
  userId?: string;
  projectId?: string;
  roleId?: string;
}

/** Role grants of users on projects (the only kind this cloud has). */
export const assignmentsStore = {
  /** Names of the roles granted directly to a user on a project (implied roles are the service's job). */
  roleNamesOn: async (db: Db, userId: string, projectId: string): Promise<string[]> => {
    const rows = await db
      .selectFrom('role_assignments')
      .innerJoin('roles', 'roles.id', 'role_assignments.role_id')
      .select('roles.name')
      .where('role_assignments.user_id', '=', userId)
      .where('role_assignments.project_id', '=', projectId)
      .execute();
    return rows.map((r) => r.name);
  },

  rolesOn: (db: Db, userId: string, projectId: string) =>
    db
      .selectFrom('role_assignments')
      .innerJoin('roles', 'roles.id', 'role_assignments.role_id')
      .selectAll('roles')
      .where('role_assignments.user_id', '=', userId)
      .where('role_assignments.project_id', '=', projectId)
      .orderBy('roles.id')
      .execute(),

  exists: async (db: Db, userId: string, projectId: string, roleId: string): Promise<boolean> =>
    (await db
      .selectFrom('role_assignments')
      .select('role_id')
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .where('role_id', '=', roleId)
      .executeTakeFirst()) !== undefined,

  /** Idempotent, as Keystone's PUT is. */
  insert: (db: Db, userId: string, projectId: string, roleId: string) =>
    db
      .insertInto('role_assignments')
      .values({ user_id: userId, project_id: projectId, role_id: roleId })
      .onConflict((oc) => oc.doNothing())
      .execute(),

  delete: async (db: Db, userId: string, projectId: string, roleId: string): Promise<number> => {
    const r = await db
      .deleteFrom('role_assignments')
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .where('role_id', '=', roleId)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  deleteForUser: (db: Db, userId: string) =>
    db.deleteFrom('role_assignments').where('user_id', '=', userId).execute(),
  deleteForProject: (db: Db, projectId: string) =>
    db.deleteFrom('role_assignments').where('project_id', '=', projectId).execute(),
  deleteForRole: (db: Db, roleId: string) =>
    db.deleteFrom('role_assignments').where('role_id', '=', roleId).execute(),

  /** Assignments with the names `include_names` shows. */
  list: (db: Db, f: AssignmentFilters) => {
    let q = db
      .selectFrom('role_assignments as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .innerJoin('projects as p', 'p.id', 'a.project_id')
      .innerJoin('roles as r', 'r.id', 'a.role_id')
      .innerJoin('domains as ud', 'ud.id', 'u.domain_id')
      .innerJoin('domains as pd', 'pd.id', 'p.domain_id')
      .select([
        'a.user_id as userId',
        'u.name as userName',
        'u.domain_id as userDomainId',
        'ud.name as userDomainName',
        'a.project_id as projectId',
        'p.name as projectName',
        'p.domain_id as projectDomainId',
        'pd.name as projectDomainName',
        'a.role_id as roleId',
        'r.name as roleName',
      ]);
    if (f.userId !== undefined) q = q.where('a.user_id', '=', f.userId);
    if (f.projectId !== undefined) q = q.where('a.project_id', '=', f.projectId);
    if (f.roleId !== undefined) q = q.where('a.role_id', '=', f.roleId);
    return q.orderBy('a.user_id').orderBy('a.project_id').orderBy('a.role_id').execute();
  },
};

export type AssignmentRow = Awaited<ReturnType<typeof assignmentsStore.list>>[number];
