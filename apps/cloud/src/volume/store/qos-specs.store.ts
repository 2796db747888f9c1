import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type QosSpecsRow = Schema['volume_qos_specs'];

/** A QoS spec set with its keys parsed. */
export interface QosSpecsRecord extends Omit<QosSpecsRow, 'specs'> {
  specs: Record<string, string>;
}

const parsed = (row: QosSpecsRow): QosSpecsRecord => ({
  ...row,
  specs: JSON.parse(row.specs) as Record<string, string>,
});

/** SQL for volume_qos_specs and the types associated with them (volume_type_qos). */
export const qosSpecsStore = {
  async all(db: Db): Promise<QosSpecsRecord[]> {
    return (await db.selectFrom('volume_qos_specs').selectAll().execute()).map(parsed);
  },

  async byId(db: Db, id: string): Promise<QosSpecsRecord | undefined> {
    const row = await db.selectFrom('volume_qos_specs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? parsed(row) : undefined;
  },

  byName: (db: Db, name: string) =>
    db.selectFrom('volume_qos_specs').select('id').where('name', '=', name).executeTakeFirst(),

  insert: (db: Db, row: QosSpecsRow) => db.insertInto('volume_qos_specs').values(row).execute(),

  async update(db: Db, id: string, changes: { consumer?: string; specs?: Record<string, string> }) {
    await db
      .updateTable('volume_qos_specs')
      .set({
        ...(changes.consumer !== undefined ? { consumer: changes.consumer } : {}),
        ...(changes.specs !== undefined ? { specs: JSON.stringify(changes.specs) } : {}),
      })
      .where('id', '=', id)
      .execute();
  },

  delete: (db: Db, id: string) => db.deleteFrom('volume_qos_specs').where('id', '=', id).execute(),

  /** The types associated with a spec set, with their names, by type name. */
  associatedTypes: (db: Db, qosSpecsId: string) =>
    db
      .selectFrom('volume_type_qos')
      .innerJoin('volume_types', 'volume_types.id', 'volume_type_qos.volume_type_id')
      .select(['volume_types.id', 'volume_types.name'])
      .where('volume_type_qos.qos_specs_id', '=', qosSpecsId)
      .orderBy('volume_types.name')
      .execute(),

  async specsIdOfType(db: Db, typeId: string): Promise<string | null> {
    const row = await db
      .selectFrom('volume_type_qos')
      .select('qos_specs_id')
      .where('volume_type_id', '=', typeId)
      .executeTakeFirst();
    return row?.qos_specs_id ?? null;
  },

  associate: (db: Db, typeId: string, qosSpecsId: string) =>
    db
      .insertInto('volume_type_qos')
      .values({ volume_type_id: typeId, qos_specs_id: qosSpecsId })
      .onConflict((oc) => oc.column('volume_type_id').doNothing())
      .execute(),

  /** Clears the type's association only when it is with this spec set, as Cinder does. */
  disassociate: (db: Db, typeId: string, qosSpecsId: string) =>
    db
      .deleteFrom('volume_type_qos')
      .where('volume_type_id', '=', typeId)
      .where('qos_specs_id', '=', qosSpecsId)
      .execute(),

  disassociateAll: (db: Db, qosSpecsId: string) =>
    db.deleteFrom('volume_type_qos').where('qos_specs_id', '=', qosSpecsId).execute(),

  /** qos_specs_id of every associated type, for type views. */
  async specsIdsByType(db: Db, typeIds: readonly string[]): Promise<Map<string, string>> {
    if (typeIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('volume_type_qos')
      .selectAll()
      .where('volume_type_id', 'in', [...typeIds])
      .execute();
    return new Map(rows.map((r) => [r.volume_type_id, r.qos_specs_id]));
  },

  /** A deleted type takes its association with it. */
  forgetType: (db: Db, typeId: string) =>
    db.deleteFrom('volume_type_qos').where('volume_type_id', '=', typeId).execute(),
};
