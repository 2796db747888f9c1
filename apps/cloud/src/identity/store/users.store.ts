import type { Schema } from '../../platform/db/schema.js';
import type { Db } from './db.js';

export type UserRow = Schema['users'];

export const usersStore = {
  byId: (db: Db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
  byName: (db: Db, domainId: string, name: string) =>
    db
      .selectFrom('users')
      .selectAll()
      .where('domain_id', '=', domainId)
      .where('name', '=', name)
      .executeTakeFirst(),

  /** Ordered by id, as Keystone's SQL backend returns them. */
  list: (db: Db, f: { name?: string; domainId?: string; enabled?: 0 | 1 }) => {
    let q = db.selectFrom('users').selectAll();
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.domainId !== undefined) q = q.where('domain_id', '=', f.domainId);
    if (f.enabled !== undefined) q = q.where('enabled', '=', f.enabled);
    return q.orderBy('id').execute();
  },

  insert: (db: Db, row: UserRow) => db.insertInto('users').values(row).execute(),
  update: (db: Db, id: string, patch: Partial<Omit<UserRow, 'id'>>) =>
    db.updateTable('users').set(patch).where('id', '=', id).execute(),
  delete: (db: Db, id: string) => db.deleteFrom('users').where('id', '=', id).execute(),
};
