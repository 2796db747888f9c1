import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type NetworkRow = Schema['networks'];
export type SubnetRow = Schema['subnets'];

/** SQL for networks and subnets. */
export const networksStore = {
  /** Every network a project may see: its own, shared and external ones (all of them for null). */
  visible(db: Db, projectId: string | null): Promise<NetworkRow[]> {
    let q = db.selectFrom('networks').selectAll();
    if (projectId !== null) {
      q = q.where((eb) =>
        eb.or([eb('project_id', '=', projectId), eb('shared', '=', 1), eb('external', '=', 1)]),
      );
    }
    return q.execute();
  },
  byId: (db: Db, id: string) => db.selectFrom('networks').selectAll().where('id', '=', id).executeTakeFirst(),
  byIds: (db: Db, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([] as NetworkRow[])
      : db
          .selectFrom('networks')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute(),
  insert: (db: Db, row: NetworkRow) => db.insertInto('networks').values(row).execute(),
  update: (db: Db, id: string, patch: Partial<NetworkRow>) =>
    db.updateTable('networks').set(patch).where('id', '=', id).execute(),
  delete: (db: Db, id: string) => db.deleteFrom('networks').where('id', '=', id).execute(),

  subnetsOf: (db: Db, networkIds: readonly string[]) =>
    networkIds.length === 0
      ? Promise.resolve([] as SubnetRow[])
      : db
          .selectFrom('subnets')
          .selectAll()
          .where('network_id', 'in', [...networkIds])
          .execute(),
  subnetById: (db: Db, id: string) =>
    db.selectFrom('subnets').selectAll().where('id', '=', id).executeTakeFirst(),
  subnetsByIds: (db: Db, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([] as SubnetRow[])
      : db
          .selectFrom('subnets')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute(),
  insertSubnet: (db: Db, row: SubnetRow) => db.insertInto('subnets').values(row).execute(),
  updateSubnet: (db: Db, id: string, patch: Partial<SubnetRow>) =>
    db.updateTable('subnets').set(patch).where('id', '=', id).execute(),
  deleteSubnet: (db: Db, id: string) => db.deleteFrom('subnets').where('id', '=', id).execute(),
};
