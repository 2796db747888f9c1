import type { Schema } from '../../platform/db/schema.js';
import type { Db } from './db.js';

export type ProjectRow = Schema['projects'];

export interface ProjectFilters {
  name?: string;
  domainId?: string;
  enabled?: 0 | 1;
  /** A project id, or a domain id for top-level projects. */
  parentId?: string;
}

export const projectsStore = {
  byId: (db: Db, id: string) => db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst(),
  byName: (db: Db, domainId: string, name: string) =>
    db
      .selectFrom('projects')
      .selectAll()
      .where('domain_id', '=', domainId)
      .where('name', '=', name)
      .executeTakeFirst(),

  /** Ordered by id, as Keystone's SQL backend returns them. */
  list: (db: Db, f: ProjectFilters) => {
    let q = db.selectFrom('projects').selectAll();
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.domainId !== undefined) q = q.where('domain_id', '=', f.domainId);
    if (f.enabled !== undefined) q = q.where('enabled', '=', f.enabled);
    const parentId = f.parentId;
    if (parentId !== undefined) {
      q = q.where((eb) =>
        eb.or([
          eb('parent_id', '=', parentId),
          eb.and([eb('parent_id', 'is', null), eb('domain_id', '=', parentId)]),
        ]),
      );
    }
    return q.orderBy('id').execute();
  },

  /** Projects the user has any role on, ordered by id. */
  ofUser: (db: Db, userId: string, f: ProjectFilters = {}) => {
    let q = db
      .selectFrom('projects')
      .selectAll('projects')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('role_assignments')
            .select('role_assignments.project_id')
            .whereRef('role_assignments.project_id', '=', 'projects.id')
            .where('role_assignments.user_id', '=', userId),
        ),
      );
    if (f.name !== undefined) q = q.where('projects.name', '=', f.name);
    if (f.domainId !== undefined) q = q.where('projects.domain_id', '=', f.domainId);
    if (f.enabled !== undefined) q = q.where('projects.enabled', '=', f.enabled);
    return q.orderBy('projects.id').execute();
  },

  children: (db: Db, id: string) =>
    db.selectFrom('projects').selectAll().where('parent_id', '=', id).execute(),

  insert: (db: Db, row: ProjectRow) => db.insertInto('projects').values(row).execute(),
  update: (db: Db, id: string, patch: Partial<Omit<ProjectRow, 'id'>>) =>
    db.updateTable('projects').set(patch).where('id', '=', id).execute(),
  delete: (db: Db, id: string) => db.deleteFrom('projects').where('id', '=', id).execute(),
};
