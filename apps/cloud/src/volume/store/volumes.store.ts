import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type VolumeRow = Schema['volumes'];

/** SQL for the volumes table. Pass the transaction when inside one. */
export const volumesStore = {
  byId: (db: Db, id: string) => db.selectFrom('volumes').selectAll().where('id', '=', id).executeTakeFirst(),

  /**
   * Reads a volume and, on PostgreSQL, locks its row until the transaction ends: every rule
   * that depends on a volume's attachments takes this lock first, so the rules hold across
   * processes. (SQLite transactions are serial already.)
   */
  lockById: (store: Store, tx: Db, id: string) =>
    store.forUpdate(tx.selectFrom('volumes').selectAll().where('id', '=', id)).executeTakeFirst(),

  update: (db: Db, id: string, changes: Partial<VolumeRow>) =>
    db.updateTable('volumes').set(changes).where('id', '=', id).execute(),

  insert: (db: Db, row: VolumeRow) => db.insertInto('volumes').values(row).execute(),

  delete: (db: Db, id: string) => db.deleteFrom('volumes').where('id', '=', id).execute(),
};
