import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type VolumeServiceRow = Schema['volume_services'];

/** SQL for the volume_services table. */
export const servicesStore = {
  list(db: Db, filters: { host?: string; binary?: string }): Promise<VolumeServiceRow[]> {
    let q = db.selectFrom('volume_services').selectAll();
    if (filters.host !== undefined) q = q.where('host', '=', filters.host);
    if (filters.binary !== undefined) q = q.where('binary', '=', filters.binary);
    return q.orderBy('created_at').orderBy('binary').execute();
  },
  byArgs: (db: Db, host: string, binary: string) =>
    db
      .selectFrom('volume_services')
      .selectAll()
      .where('host', '=', host)
      .where('binary', '=', binary)
      .executeTakeFirst(),
  update: (db: Db, host: string, binary: string, changes: Partial<VolumeServiceRow>) =>
    db
      .updateTable('volume_services')
      .set(changes)
      .where('host', '=', host)
      .where('binary', '=', binary)
      .execute(),
};
