import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type BdmRow = Schema['block_device_mappings'];

/** SQL for block_device_mappings: Nova's own record of which volumes a server holds. */
export const bdmsStore = {
  forServer: (db: Db, serverId: string) =>
    db
      .selectFrom('block_device_mappings')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('created_at')
      .orderBy('uuid')
      .execute(),

  forServers: (db: Db, serverIds: readonly string[]) =>
    serverIds.length === 0
      ? Promise.resolve([] as BdmRow[])
      : db.selectFrom('block_device_mappings').selectAll().where('server_id', 'in', serverIds).execute(),

  forVolume: (db: Db, volumeId: string) =>
    db.selectFrom('block_device_mappings').selectAll().where('volume_id', '=', volumeId).execute(),

  insert: (db: Db, row: BdmRow) => db.insertInto('block_device_mappings').values(row).execute(),

  update: (db: Db, uuid: string, changes: Partial<BdmRow>) =>
    db.updateTable('block_device_mappings').set(changes).where('uuid', '=', uuid).execute(),

  delete: (db: Db, uuid: string) => db.deleteFrom('block_device_mappings').where('uuid', '=', uuid).execute(),
};
