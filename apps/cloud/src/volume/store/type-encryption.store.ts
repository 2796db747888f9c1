import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type TypeEncryptionRow = Schema['volume_type_encryption'];

export const typeEncryptionStore = {
  forType: (db: Db, typeId: string) =>
    db
      .selectFrom('volume_type_encryption')
      .selectAll()
      .where('volume_type_id', '=', typeId)
      .executeTakeFirst(),

  insert: (db: Db, row: TypeEncryptionRow) => db.insertInto('volume_type_encryption').values(row).execute(),

  update: (db: Db, typeId: string, changes: Partial<TypeEncryptionRow>) =>
    db.updateTable('volume_type_encryption').set(changes).where('volume_type_id', '=', typeId).execute(),

  delete: (db: Db, typeId: string) =>
    db.deleteFrom('volume_type_encryption').where('volume_type_id', '=', typeId).execute(),
};
