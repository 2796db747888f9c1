import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { qosSpecsStore } from './qos-specs.store.js';

type Db = Kysely<Schema>;
export type VolumeTypeRow = Schema['volume_types'];

/** A volume type with its extra specs. */
export interface VolumeTypeRecord extends VolumeTypeRow {
  extraSpecs: Record<string, string>;
  /** The projects a private type is shared with (volume_type_projects). */
  projects: string[];
  // cloud-qos-transfer: the QoS spec set associated with the type, shown to admins.
  qosSpecsId: string | null;
}

async function withSpecs(db: Db, rows: VolumeTypeRow[]): Promise<VolumeTypeRecord[]> {
  if (rows.length === 0) return [];
  const specs = await db
    .selectFrom('volume_type_extra_specs')
    .selectAll()
    .where(
      'volume_type_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('key')
    .execute();
  const byType = new Map<string, Record<string, string>>();
  for (const s of specs) {
    const m = byType.get(s.volume_type_id) ?? {};
    m[s.key] = s.value;
    byType.set(s.volume_type_id, m);
  }
  const access = await db
    .selectFrom('volume_type_projects')
    .selectAll()
    .where(
      'volume_type_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('project_id')
    .execute();
  const projects = new Map<string, string[]>();
  for (const a of access)
    projects.set(a.volume_type_id, [...(projects.get(a.volume_type_id) ?? []), a.project_id]);
  const qos = await qosSpecsStore.specsIdsByType(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...r,
    extraSpecs: byType.get(r.id) ?? {},
    projects: projects.get(r.id) ?? [],
    qosSpecsId: qos.get(r.id) ?? null,
  }));
}

/** SQL for volume_types and volume_type_extra_specs. The table is small: reads load it whole. */
export const typesStore = {
  async all(db: Db): Promise<VolumeTypeRecord[]> {
    return withSpecs(db, await db.selectFrom('volume_types').selectAll().execute());
  },

  async byId(db: Db, id: string): Promise<VolumeTypeRecord | undefined> {
    const row = await db.selectFrom('volume_types').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await withSpecs(db, [row]))[0] : undefined;
  },

  async byName(db: Db, name: string): Promise<VolumeTypeRecord | undefined> {
    const row = await db.selectFrom('volume_types').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? (await withSpecs(db, [row]))[0] : undefined;
  },

  /** Id and name of every type, for volume views. */
  names: (db: Db) => db.selectFrom('volume_types').select(['id', 'name']).execute(),

  insert: (db: Db, row: VolumeTypeRow) => db.insertInto('volume_types').values(row).execute(),

  update: (db: Db, id: string, changes: Partial<VolumeTypeRow>) =>
    db.updateTable('volume_types').set(changes).where('id', '=', id).execute(),

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('volume_type_extra_specs').where('volume_type_id', '=', id).execute();
    await db.deleteFrom('volume_type_projects').where('volume_type_id', '=', id).execute();
    await db.deleteFrom('volume_type_encryption').where('volume_type_id', '=', id).execute();
    await qosSpecsStore.forgetType(db, id);
    await db.deleteFrom('volume_types').where('id', '=', id).execute();
  },

  async upsertSpecs(db: Db, typeId: string, specs: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(specs)) {
      await db
        .insertInto('volume_type_extra_specs')
        .values({ volume_type_id: typeId, key, value })
        .onConflict((oc) => oc.columns(['volume_type_id', 'key']).doUpdateSet({ value }))
        .execute();
    }
  },

  /** Returns whether the key existed. */
  async deleteSpec(db: Db, typeId: string, key: string): Promise<boolean> {
    const res = await db
      .deleteFrom('volume_type_extra_specs')
      .where('volume_type_id', '=', typeId)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  // --- cloud14v: volume type access ---
  /** Shares the type with the project; false when it already was. */
  async addProject(db: Db, typeId: string, projectId: string): Promise<boolean> {
    const present = await db
      .selectFrom('volume_type_projects')
      .select('project_id')
      .where('volume_type_id', '=', typeId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (present) return false;
    await db
      .insertInto('volume_type_projects')
      .values({ volume_type_id: typeId, project_id: projectId })
      .execute();
    return true;
  },

  /** Stops sharing; false when it was not shared. */
  async removeProject(db: Db, typeId: string, projectId: string): Promise<boolean> {
    const res = await db
      .deleteFrom('volume_type_projects')
      .where('volume_type_id', '=', typeId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },
};
