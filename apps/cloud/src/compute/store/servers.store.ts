import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type ServerRow = Schema['servers'];

/** SQL for the servers table. Pass the transaction when inside one. */
export const serversStore = {
  byId: (db: Db, id: string) =>
    db.selectFrom('servers').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst(),

  /** Reads a server and, on PostgreSQL, locks its row until the transaction ends. */
  lockById: (store: Store, tx: Db, id: string) =>
    store
      .forUpdate(tx.selectFrom('servers').selectAll().where('id', '=', id).where('deleted', '=', 0))
      .executeTakeFirst(),

  insert: (db: Db, row: ServerRow) => db.insertInto('servers').values(row).execute(),

  update: (db: Db, id: string, changes: Partial<ServerRow>) =>
    db.updateTable('servers').set(changes).where('id', '=', id).execute(),
};
