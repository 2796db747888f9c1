import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type ServerPortRow = Schema['server_ports'];

/** SQL for the ports compute holds for its servers. */
export const serverPortsStore = {
  insertMany: (db: Db, rows: readonly ServerPortRow[]) =>
    rows.length === 0
      ? Promise.resolve()
      : db
          .insertInto('server_ports')
          .values([...rows])
          .execute()
          .then(() => undefined),
  forServers: (db: Db, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([] as ServerPortRow[])
      : db
          .selectFrom('server_ports')
          .selectAll()
          .where('server_id', 'in', [...ids])
          .execute(),
  deleteForServer: (db: Db, id: string) =>
    db.deleteFrom('server_ports').where('server_id', '=', id).execute(),
};
