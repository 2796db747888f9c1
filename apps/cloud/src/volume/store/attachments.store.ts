import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type AttachmentRow = Schema['volume_attachments'];

/** SQL for volume_attachments. Pass the transaction when inside one. */
export const attachmentsStore = {
  byId: (db: Db, id: string) => db.selectFrom('volume_attachments').selectAll().where('id', '=', id).executeTakeFirst(),

  forVolume: (db: Db, volumeId: string) =>
    db
      .selectFrom('volume_attachments')
      .selectAll()
      .where('volume_id', '=', volumeId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),

  /** Attachments of many volumes at once, for list views. */
  forVolumes: (db: Db, volumeIds: readonly string[]) =>
    volumeIds.length === 0
      ? Promise.resolve([] as AttachmentRow[])
      : db
          .selectFrom('volume_attachments')
          .selectAll()
          .where('volume_id', 'in', volumeIds)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),

  insert: (db: Db, row: AttachmentRow) => db.insertInto('volume_attachments').values(row).execute(),

  update: (db: Db, id: string, changes: Partial<AttachmentRow>) =>
    db.updateTable('volume_attachments').set(changes).where('id', '=', id).execute(),

  delete: (db: Db, id: string) => db.deleteFrom('volume_attachments').where('id', '=', id).execute(),
};
