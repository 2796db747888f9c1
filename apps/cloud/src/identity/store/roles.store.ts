import type { Schema } from '../../platform/db/schema.js';
import type { Db } from './db.js';

export type RoleRow = Schema['roles'];

export const rolesStore = {
  byId: (db: Db, id: string) => db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst(),
  byName: (db: Db, name: string) =>
    db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst(),
  byNames: (db: Db, names: string[]) =>
    names.length === 0
      ? Promise.resolve([])
      : db.selectFrom('roles').selectAll().where('name', 'in', names).execute(),
  list: (db: Db, f: { name?: string }) => {
    let q = db.selectFrom('roles').selectAll();
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    return q.orderBy('id').execute();
  },
  insert: (db: Db, row: RoleRow) => db.insertInto('roles').values(row).execute(),
  update: (db: Db, id: string, patch: Partial<Omit<RoleRow, 'id'>>) =>
    db.updateTable('roles').set(patch).where('id', '=', id).execute(),
  delete: (db: Db, id: string) => db.deleteFrom('roles').where('id', '=', id).execute(),
};
