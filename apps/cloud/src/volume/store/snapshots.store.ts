import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type SnapshotRow = Schema['volume_snapshots'];
export type SnapshotColumn = keyof SnapshotRow;

const CHUNK = 500;

/** SQL for the volume_snapshots table. Pass the transaction when inside one. */
export const snapshotsStore = {
  byId: (db: Db, id: string) =>
    db.selectFrom('volume_snapshots').selectAll().where('id', '=', id).executeTakeFirst(),

  /** Reads a snapshot and, on PostgreSQL, locks its row until the transaction ends. */
  lockById: (store: Store, tx: Db, id: string) =>
    store.forUpdate(tx.selectFrom('volume_snapshots').selectAll().where('id', '=', id)).executeTakeFirst(),

  async byIds(db: Db, ids: readonly string[]): Promise<SnapshotRow[]> {
    const out: SnapshotRow[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      if (chunk.length > 0) {
        out.push(...(await db.selectFrom('volume_snapshots').selectAll().where('id', 'in', chunk).execute()));
      }
    }
    return out;
  },

  /** One project's snapshots (every project's when null), with exact-match filters. */
  async list(
    db: Db,
    opts: { projectId: string | null; exact: Partial<Record<SnapshotColumn, string | number>> },
  ): Promise<SnapshotRow[]> {
    let q = db.selectFrom('volume_snapshots').selectAll();
    if (opts.projectId !== null) q = q.where('project_id', '=', opts.projectId);
    for (const [col, value] of Object.entries(opts.exact) as [SnapshotColumn, string | number][]) {
      q = q.where(col, '=', value);
    }
    return q.execute();
  },

  forVolume: (db: Db, volumeId: string) =>
    db.selectFrom('volume_snapshots').selectAll().where('volume_id', '=', volumeId).execute(),

  byStatus: (db: Db, statuses: readonly string[]) =>
    db.selectFrom('volume_snapshots').selectAll().where('status', 'in', statuses).execute(),

  insert: (db: Db, row: SnapshotRow) => db.insertInto('volume_snapshots').values(row).execute(),

  update: (db: Db, id: string, changes: Partial<SnapshotRow>) =>
    db.updateTable('volume_snapshots').set(changes).where('id', '=', id).execute(),

  /** Updates only while the snapshot is still in `status`; returns whether it did. */
  async updateIfStatus(db: Db, id: string, status: string, changes: Partial<SnapshotRow>): Promise<boolean> {
    const res = await db
      .updateTable('volume_snapshots')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  delete: (db: Db, id: string) => db.deleteFrom('volume_snapshots').where('id', '=', id).execute(),
};
