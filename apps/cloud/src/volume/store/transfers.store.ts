import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type TransferRow = Schema['volume_transfers'];

/** SQL for volume_transfers. Pass the transaction when inside one. */
export const transfersStore = {
  byId: (db: Db, id: string) =>
    db.selectFrom('volume_transfers').selectAll().where('id', '=', id).executeTakeFirst(),

  /** Reads a transfer and, on PostgreSQL, locks it: of two accepts (or an accept and a delete) one wins. */
  lockById: (store: Store, tx: Db, id: string) =>
    store.forUpdate(tx.selectFrom('volume_transfers').selectAll().where('id', '=', id)).executeTakeFirst(),

  /** One project's transfers (every project's when null), newest first. */
  list: (db: Db, projectId: string | null) => {
    let q = db.selectFrom('volume_transfers').selectAll();
    if (projectId !== null) q = q.where('project_id', '=', projectId);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  },

  insert: (db: Db, row: TransferRow) => db.insertInto('volume_transfers').values(row).execute(),

  delete: (db: Db, id: string) => db.deleteFrom('volume_transfers').where('id', '=', id).execute(),
};
