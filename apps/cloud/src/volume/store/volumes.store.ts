import type { Kysely } from 'kysely';
import { idChunks, packRows, unpackRows } from '../../platform/db/packed-rows.js';
import type { Schema } from '../../platform/db/schema.js';
import type { Engine, Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type VolumeRow = Schema['volumes'];
export type VolumeColumn = keyof VolumeRow;

/** IN lists are chunked so a page of ids never exceeds the engines' parameter limits. */
const CHUNK = 500;

/** What a whole-cloud view shows of a volume: a few columns and its type's name. */
export interface VolumeSummaryRow {
  id: string;
  name: string | null;
  project_id: string;
  status: string;
  size: number;
  multiattach: number;
  volume_type: string | null;
}
const SUMMARY_COLUMNS = ['v.id', 'v.name', 'v.project_id', 'v.status', 'v.size', 'v.multiattach', 't.name'];
type SummaryTuple = [string, string | null, string, string, number, number, string | null];

/** SQL for the volumes table. Pass the transaction when inside one. */
export const volumesStore = {
  byId: (db: Db, id: string) => db.selectFrom('volumes').selectAll().where('id', '=', id).executeTakeFirst(),

  /**
   * Reads a volume and, on PostgreSQL, locks its row until the transaction ends: every rule
   * that depends on a volume's attachments takes this lock first, so the rules hold across
   * processes. (SQLite transactions are serial already.)
   */
  lockById: (store: Store, tx: Db, id: string) =>
    store.forUpdate(tx.selectFrom('volumes').selectAll().where('id', '=', id)).executeTakeFirst(),

  /**
   * `lockById` for several volumes, in id order: two transactions that lock the same volumes
   * then never wait on each other in a cycle (a deadlock PostgreSQL would break by failing one).
   */
  async lockByIds(store: Store, tx: Db, ids: readonly string[]): Promise<void> {
    for (const id of [...new Set(ids)].sort()) await volumesStore.lockById(store, tx, id);
  },

  /** Full rows for a page of ids (any order; the caller orders them). */
  async byIds(db: Db, ids: readonly string[]): Promise<VolumeRow[]> {
    const out: VolumeRow[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      if (chunk.length === 0) continue;
      out.push(...(await db.selectFrom('volumes').selectAll().where('id', 'in', chunk).execute()));
    }
    return out;
  },

  /**
   * The columns needed to filter, sort and page a listing, for one project (or all when
   * `projectId` is null), with exact-match filters (`null` matches IS NULL).
   */
  async listKeys(
    db: Db,
    opts: {
      projectId: string | null;
      exact: Partial<Record<VolumeColumn, string | number | null>>;
      columns: VolumeColumn[];
    },
  ): Promise<Partial<VolumeRow>[]> {
    let q = db.selectFrom('volumes').select(opts.columns);
    if (opts.projectId !== null) q = q.where('project_id', '=', opts.projectId);
    for (const [col, value] of Object.entries(opts.exact) as [VolumeColumn, string | number | null][]) {
      q = value === null ? q.where(col, 'is', null) : q.where(col, '=', value);
    }
    return q.execute();
  },

  /** `VolumeSummaryRow` of these volumes (`ownerProjectId`: only that project's), packed per thousand. */
  async summaries(
    db: Db,
    engine: Engine,
    ids: readonly string[],
    ownerProjectId: string | null,
  ): Promise<VolumeSummaryRow[]> {
    const out: VolumeSummaryRow[] = [];
    for (const chunk of idChunks(ids)) {
      const row = await db
        .selectFrom('volumes as v')
        .leftJoin('volume_types as t', 't.id', 'v.volume_type_id')
        .where('v.id', 'in', chunk)
        .$if(ownerProjectId !== null, (qb) => qb.where('v.project_id', '=', ownerProjectId!))
        .select(packRows(engine, SUMMARY_COLUMNS).as('rows'))
        .executeTakeFirst();
      for (const [id, name, project_id, status, size, multiattach, volume_type] of unpackRows<SummaryTuple>(
        row,
      )) {
        out.push({ id, name, project_id, status, size, multiattach, volume_type });
      }
    }
    return out;
  },

  byStatus: (db: Db, statuses: readonly string[]) =>
    db.selectFrom('volumes').selectAll().where('status', 'in', statuses).execute(),

  /** Whether any volume uses the type (Cinder refuses to change or delete such a type). */
  async typeInUse(db: Db, typeId: string): Promise<boolean> {
    const row = await db
      .selectFrom('volumes')
      .select('id')
      .where('volume_type_id', '=', typeId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Volume count and allocated GB on a backend pool, for the scheduler stats. */
  async usageOnHost(db: Db, host: string): Promise<{ count: number; gigabytes: number }> {
    const row = await db
      .selectFrom('volumes')
      .select((eb) => [
        eb.fn.countAll().as('count'),
        eb.fn.sum<number | string | null>('size').as('gigabytes'),
      ])
      .where('host', '=', host)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), gigabytes: Number(row?.gigabytes ?? 0) };
  },

  update: (db: Db, id: string, changes: Partial<VolumeRow>) =>
    db.updateTable('volumes').set(changes).where('id', '=', id).execute(),

  /** Updates only while the volume is still in `status`; returns whether it did. */
  async updateIfStatus(db: Db, id: string, status: string, changes: Partial<VolumeRow>): Promise<boolean> {
    const res = await db
      .updateTable('volumes')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  insert: (db: Db, row: VolumeRow) => db.insertInto('volumes').values(row).execute(),

  async delete(db: Db, id: string): Promise<void> {
    // cloud-qos-transfer: a force-deleted volume takes its pending transfer with it.
    await db.deleteFrom('volume_transfers').where('volume_id', '=', id).execute();
    await db.deleteFrom('volumes').where('id', '=', id).execute();
  },
};
