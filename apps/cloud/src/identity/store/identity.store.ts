import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;

export const identityStore = {
  domainByName: (db: Db, name: string) => db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst(),
  domainById: (db: Db, id: string) => db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst(),

  userById: (db: Db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
  userByName: (db: Db, domainId: string, name: string) =>
    db.selectFrom('users').selectAll().where('domain_id', '=', domainId).where('name', '=', name).executeTakeFirst(),

  projectById: (db: Db, id: string) => db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst(),
  projectByName: (db: Db, domainId: string, name: string) =>
    db
      .selectFrom('projects')
      .selectAll()
      .where('domain_id', '=', domainId)
      .where('name', '=', name)
      .executeTakeFirst(),

  /** The roles assigned directly to a user on a project (implied roles are added by the service). */
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

  rolesByNames: (db: Db, names: string[]) =>
    names.length === 0 ? Promise.resolve([]) : db.selectFrom('roles').selectAll().where('name', 'in', names).execute(),

  /** Enabled projects the user has any role on. */
  projectsOfUser: (db: Db, userId: string) =>
    db
      .selectFrom('projects')
      .selectAll('projects')
      .where('projects.enabled', '=', 1)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('role_assignments')
            .select('role_assignments.project_id')
            .whereRef('role_assignments.project_id', '=', 'projects.id')
            .where('role_assignments.user_id', '=', userId),
        ),
      )
      .orderBy('projects.name')
      .execute(),

  insertToken: (db: Db, row: Schema['tokens']) => db.insertInto('tokens').values(row).execute(),
  tokenById: (db: Db, id: string) => db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst(),
  revokeToken: (db: Db, id: string, at: string) =>
    db.updateTable('tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute(),
  deleteExpiredTokens: (db: Db, before: string) => db.deleteFrom('tokens').where('expires_at', '<', before).execute(),
};
