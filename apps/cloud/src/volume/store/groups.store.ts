import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type GroupTypeRow = Schema['group_types'];
export type GroupRow = Schema['volume_groups'];
export type GroupSnapshotRow = Schema['group_snapshots'];

/** A group type with its specs. */
export interface GroupTypeRecord extends GroupTypeRow {
  specs: Record<string, string>;
}

/** A group with the ids of the volume types it takes, in the order they were given. */
export interface GroupRecord extends GroupRow {
  volumeTypeIds: string[];
}

const CHUNK = 500;

async function withSpecs(db: Db, rows: GroupTypeRow[]): Promise<GroupTypeRecord[]> {
  if (rows.length === 0) return [];
  const specs = await db
    .selectFrom('group_type_specs')
    .selectAll()
    .where(
      'group_type_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('key')
    .execute();
  const byType = new Map<string, Record<string, string>>();
  for (const s of specs) byType.set(s.group_type_id, { ...byType.get(s.group_type_id), [s.key]: s.value });
  return rows.map((r) => ({ ...r, specs: byType.get(r.id) ?? {} }));
}

async function withVolumeTypes(db: Db, rows: GroupRow[]): Promise<GroupRecord[]> {
  const byGroup = new Map<string, string[]>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const ids = rows.slice(i, i + CHUNK).map((r) => r.id);
    const maps = await db
      .selectFrom('volume_group_types')
      .selectAll()
      .where('group_id', 'in', ids)
      .orderBy('position')
      .execute();
    for (const m of maps) byGroup.set(m.group_id, [...(byGroup.get(m.group_id) ?? []), m.volume_type_id]);
  }
  return rows.map((r) => ({ ...r, volumeTypeIds: byGroup.get(r.id) ?? [] }));
}

/** SQL for group types, groups, group snapshots and who belongs to them. */
export const groupsStore = {
  // Group types: a small table, read whole.
  allTypes: async (db: Db) => withSpecs(db, await db.selectFrom('group_types').selectAll().execute()),

  async typeById(db: Db, id: string): Promise<GroupTypeRecord | undefined> {
    const row = await db.selectFrom('group_types').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await withSpecs(db, [row]))[0] : undefined;
  },

  async typeByName(db: Db, name: string): Promise<GroupTypeRecord | undefined> {
    const row = await db.selectFrom('group_types').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? (await withSpecs(db, [row]))[0] : undefined;
  },

  insertType: (db: Db, row: GroupTypeRow) => db.insertInto('group_types').values(row).execute(),

  updateType: (db: Db, id: string, changes: Partial<GroupTypeRow>) =>
    db.updateTable('group_types').set(changes).where('id', '=', id).execute(),

  async deleteType(db: Db, id: string): Promise<void> {
    await db.deleteFrom('group_type_specs').where('group_type_id', '=', id).execute();
    await db.deleteFrom('group_types').where('id', '=', id).execute();
  },

  async typeInUse(db: Db, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('volume_groups')
      .select('id')
      .where('group_type_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  async upsertSpecs(db: Db, typeId: string, specs: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(specs)) {
      await db
        .insertInto('group_type_specs')
        .values({ group_type_id: typeId, key, value })
        .onConflict((oc) => oc.columns(['group_type_id', 'key']).doUpdateSet({ value }))
        .execute();
    }
  },

  /** Returns whether the key existed. */
  async deleteSpec(db: Db, typeId: string, key: string): Promise<boolean> {
    const res = await db
      .deleteFrom('group_type_specs')
      .where('group_type_id', '=', typeId)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  // Groups.
  async groupById(db: Db, id: string): Promise<GroupRecord | undefined> {
    const row = await db.selectFrom('volume_groups').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await withVolumeTypes(db, [row]))[0] : undefined;
  },

  /** Reads a group and, on PostgreSQL, locks its row until the transaction ends. */
  async lockGroup(store: Store, tx: Db, id: string): Promise<GroupRecord | undefined> {
    const row = await store
      .forUpdate(tx.selectFrom('volume_groups').selectAll().where('id', '=', id))
      .executeTakeFirst();
    return row ? (await withVolumeTypes(tx, [row]))[0] : undefined;
  },

  /** One project's groups (every project's when null). */
  async groups(db: Db, projectId: string | null): Promise<GroupRecord[]> {
    let q = db.selectFrom('volume_groups').selectAll();
    if (projectId !== null) q = q.where('project_id', '=', projectId);
    return withVolumeTypes(db, await q.execute());
  },

  countGroups: async (db: Db, projectId: string): Promise<number> => {
    const row = await db
      .selectFrom('volume_groups')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  async insertGroup(db: Db, row: GroupRow, volumeTypeIds: readonly string[]): Promise<void> {
    await db.insertInto('volume_groups').values(row).execute();
    for (const [position, volume_type_id] of volumeTypeIds.entries()) {
      await db
        .insertInto('volume_group_types')
        .values({ group_id: row.id, volume_type_id, position })
        .execute();
    }
  },

  updateGroup: (db: Db, id: string, changes: Partial<GroupRow>) =>
    db.updateTable('volume_groups').set(changes).where('id', '=', id).execute(),

  /** Updates only while the group is still in `status`; returns whether it did. */
  async updateGroupIfStatus(
    db: Db,
    id: string,
    status: string,
    changes: Partial<GroupRow>,
  ): Promise<boolean> {
    const res = await db
      .updateTable('volume_groups')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  groupsByStatus: (db: Db, statuses: readonly string[]) =>
    db.selectFrom('volume_groups').select(['id', 'status']).where('status', 'in', statuses).execute(),

  groupSnapshotsByStatus: (db: Db, statuses: readonly string[]) =>
    db.selectFrom('group_snapshots').select(['id', 'status']).where('status', 'in', statuses).execute(),

  async deleteGroup(db: Db, id: string): Promise<void> {
    await db.deleteFrom('volume_group_types').where('group_id', '=', id).execute();
    await db.deleteFrom('volume_group_members').where('group_id', '=', id).execute();
    await db.deleteFrom('volume_groups').where('id', '=', id).execute();
  },

  /** Whether any group takes the volume type (Cinder keeps such a type). */
  async volumeTypeInUse(db: Db, volumeTypeId: string): Promise<boolean> {
    const row = await db
      .selectFrom('volume_group_types')
      .select('group_id')
      .where('volume_type_id', '=', volumeTypeId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  // Volume membership.
  async volumeIdsOf(db: Db, groupId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('volume_group_members')
      .select('volume_id')
      .where('group_id', '=', groupId)
      .orderBy('volume_id')
      .execute();
    return rows.map((r) => r.volume_id);
  },

  /** The group of each of these volumes that has one. */
  async groupIdsOfVolumes(db: Db, volumeIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < volumeIds.length; i += CHUNK) {
      const chunk = volumeIds.slice(i, i + CHUNK);
      if (chunk.length === 0) continue;
      const rows = await db
        .selectFrom('volume_group_members')
        .selectAll()
        .where('volume_id', 'in', chunk)
        .execute();
      for (const r of rows) out.set(r.volume_id, r.group_id);
    }
    return out;
  },

  addVolume: (db: Db, groupId: string, volumeId: string) =>
    db.insertInto('volume_group_members').values({ group_id: groupId, volume_id: volumeId }).execute(),

  removeVolume: (db: Db, volumeId: string) =>
    db.deleteFrom('volume_group_members').where('volume_id', '=', volumeId).execute(),

  // Group snapshots.
  groupSnapshotById: (db: Db, id: string) =>
    db.selectFrom('group_snapshots').selectAll().where('id', '=', id).executeTakeFirst(),

  lockGroupSnapshot: (store: Store, tx: Db, id: string) =>
    store.forUpdate(tx.selectFrom('group_snapshots').selectAll().where('id', '=', id)).executeTakeFirst(),

  groupSnapshots(db: Db, projectId: string | null): Promise<GroupSnapshotRow[]> {
    let q = db.selectFrom('group_snapshots').selectAll();
    if (projectId !== null) q = q.where('project_id', '=', projectId);
    return q.execute();
  },

  groupSnapshotsOfGroup: (db: Db, groupId: string) =>
    db.selectFrom('group_snapshots').selectAll().where('group_id', '=', groupId).execute(),

  insertGroupSnapshot: (db: Db, row: GroupSnapshotRow) =>
    db.insertInto('group_snapshots').values(row).execute(),

  updateGroupSnapshot: (db: Db, id: string, changes: Partial<GroupSnapshotRow>) =>
    db.updateTable('group_snapshots').set(changes).where('id', '=', id).execute(),

  async updateGroupSnapshotIfStatus(
    db: Db,
    id: string,
    status: string,
    changes: Partial<GroupSnapshotRow>,
  ): Promise<boolean> {
    const res = await db
      .updateTable('group_snapshots')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  async deleteGroupSnapshot(db: Db, id: string): Promise<void> {
    await db.deleteFrom('group_snapshot_members').where('group_snapshot_id', '=', id).execute();
    await db.deleteFrom('group_snapshots').where('id', '=', id).execute();
  },

  // Snapshot membership.
  async snapshotIdsOf(db: Db, groupSnapshotId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('group_snapshot_members')
      .select('snapshot_id')
      .where('group_snapshot_id', '=', groupSnapshotId)
      .orderBy('snapshot_id')
      .execute();
    return rows.map((r) => r.snapshot_id);
  },

  /** The group snapshot of each of these snapshots that has one. */
  async groupSnapshotIdsOfSnapshots(db: Db, snapshotIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < snapshotIds.length; i += CHUNK) {
      const chunk = snapshotIds.slice(i, i + CHUNK);
      if (chunk.length === 0) continue;
      const rows = await db
        .selectFrom('group_snapshot_members')
        .selectAll()
        .where('snapshot_id', 'in', chunk)
        .execute();
      for (const r of rows) out.set(r.snapshot_id, r.group_snapshot_id);
    }
    return out;
  },

  addSnapshot: (db: Db, groupSnapshotId: string, snapshotId: string) =>
    db
      .insertInto('group_snapshot_members')
      .values({ group_snapshot_id: groupSnapshotId, snapshot_id: snapshotId })
      .execute(),

  removeSnapshot: (db: Db, snapshotId: string) =>
    db.deleteFrom('group_snapshot_members').where('snapshot_id', '=', snapshotId).execute(),
};
