import type { Db } from './db.js';

export const domainsStore = {
  byId: (db: Db, id: string) => db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst(),
  byName: (db: Db, name: string) =>
    db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst(),
  list: (db: Db, f: { name?: string; enabled?: 0 | 1 }) => {
    let q = db.selectFrom('domains').selectAll();
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.enabled !== undefined) q = q.where('enabled', '=', f.enabled);
    return q.orderBy('id').execute();
  },
};
