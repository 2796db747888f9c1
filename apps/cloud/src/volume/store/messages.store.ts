import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type VolumeMessageRow = Schema['volume_messages'];

export const messagesStore = {
  insert: (db: Db, row: VolumeMessageRow) => db.insertInto('volume_messages').values(row).execute(),

  byId: (db: Db, id: string) =>
    db.selectFrom('volume_messages').selectAll().where('id', '=', id).executeTakeFirst(),

  /** One project's messages, or every project's when `projectId` is null (admins). */
  list(db: Db, projectId: string | null): Promise<VolumeMessageRow[]> {
    let q = db.selectFrom('volume_messages').selectAll();
    if (projectId !== null) q = q.where('project_id', '=', projectId);
    return q.execute();
  },

  delete: (db: Db, id: string) => db.deleteFrom('volume_messages').where('id', '=', id).execute(),
};
