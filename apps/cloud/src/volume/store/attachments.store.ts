import { type Kysely, sql } from 'kysely';
import { idChunks, packRows, unpackRows } from '../../platform/db/packed-rows.js';
import type { Schema } from '../../platform/db/schema.js';
import type { Engine } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type AttachmentRow = Schema['volume_attachments'];

/** Columns an attachment list may be sorted by: never null, so a keyset marker works. */
export type AttachmentSortColumn = 'id' | 'created_at' | 'volume_id' | 'attach_status';

/** A filtered, paged attachment query (Cinder's `VolumeAttachmentList.get_all[_by_project]`). */
export interface AttachmentQuery {
  /** Only attachments of this project's volumes; null for every project (admin `all_tenants`). */
  projectId: string | null;
  volumeId?: string;
  attachStatus?: string;
  instanceUuid?: string;
  /** Sort order, ending with unique tie-breakers (created_at, id). */
  sort: { column: AttachmentSortColumn; direction: 'asc' | 'desc' }[];
  /** Rows after this one in the sort order (Cinder's marker). */
  after?: AttachmentRow;
  limit: number;
  offset: number;
}

/** What a whole-cloud view shows of an attachment. */
export type AttachmentState = Pick<
  AttachmentRow,
  'id' | 'attach_mode' | 'attach_status' | 'mountpoint' | 'created_at' | 'attached_at' | 'updated_at'
>;
const STATE_COLUMNS = [
  'id',
  'attach_mode',
  'attach_status',
  'mountpoint',
  'created_at',
  'attached_at',
  'updated_at',
];
type StateTuple = [string, string, string, string | null, string, string | null, string | null];

/** SQL for volume_attachments. Pass the transaction when inside one. */
export const attachmentsStore = {
  byId: (db: Db, id: string) =>
    db.selectFrom('volume_attachments').selectAll().where('id', '=', id).executeTakeFirst(),

  async byIds(db: Db, ids: readonly string[]): Promise<AttachmentRow[]> {
    const out: AttachmentRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      out.push(...(await db.selectFrom('volume_attachments').selectAll().where('id', 'in', chunk).execute()));
    }
    return out;
  },

  /**
   * `AttachmentState` of these attachments (or of every one), a packed row per thousand ids
   * (`platform/db/packed-rows.ts`).
   */
  async states(db: Db, engine: Engine, ids: readonly string[] | 'all'): Promise<AttachmentState[]> {
    const out: AttachmentState[] = [];
    for (const chunk of ids === 'all' ? [null] : idChunks(ids)) {
      const row = await db
        .selectFrom('volume_attachments')
        .$if(chunk !== null, (qb) => qb.where('id', 'in', chunk!))
        .select(packRows(engine, STATE_COLUMNS).as('rows'))
        .executeTakeFirst();
      for (const t of unpackRows<StateTuple>(row)) {
        out.push({
          id: t[0],
          attach_mode: t[1],
          attach_status: t[2],
          mountpoint: t[3],
          created_at: t[4],
          attached_at: t[5],
          updated_at: t[6],
        });
      }
    }
    return out;
  },

  /** An attachment with its volume's project, for visibility checks. */
  byIdWithProject: (db: Db, id: string) =>
    db
      .selectFrom('volume_attachments as a')
      .innerJoin('volumes as v', 'v.id', 'a.volume_id')
      .selectAll('a')
      .select('v.project_id as project_id')
      .where('a.id', '=', id)
      .executeTakeFirst(),

  /** `byIdWithProject` for a batch of attachments. */
  byIdsWithProject: (db: Db, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('volume_attachments as a')
          .innerJoin('volumes as v', 'v.id', 'a.volume_id')
          .selectAll('a')
          .select('v.project_id as project_id')
          .where('a.id', 'in', [...ids])
          .execute(),

  forVolume: (db: Db, volumeId: string) =>
    db
      .selectFrom('volume_attachments')
      .selectAll()
      .where('volume_id', '=', volumeId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),

  /**
   * The distinct attach statuses of a volume's attachments: all the status rule needs, and a
   * handful of rows however many servers share the volume.
   */
  statusesForVolume: async (db: Db, volumeId: string): Promise<string[]> => {
    const rows = await db
      .selectFrom('volume_attachments')
      .select('attach_status')
      .distinct()
      .where('volume_id', '=', volumeId)
      .execute();
    return rows.map((r) => r.attach_status);
  },

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

  /** Every attachment held by one server (Nova looks them up by instance). */
  forInstance: (db: Db, instanceUuid: string) =>
    db
      .selectFrom('volume_attachments')
      .selectAll()
      .where('instance_uuid', '=', instanceUuid)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),

  /** One page of attachments in a single query, whatever the number of volumes. */
  list: (db: Db, q: AttachmentQuery) => {
    let query = db.selectFrom('volume_attachments as a').selectAll('a');
    if (q.projectId !== null) {
      const projectId = q.projectId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('volumes as v')
            .select('v.id')
            .whereRef('v.id', '=', 'a.volume_id')
            .where('v.project_id', '=', projectId),
        ),
      );
    }
    if (q.volumeId !== undefined) query = query.where('a.volume_id', '=', q.volumeId);
    if (q.attachStatus !== undefined) query = query.where('a.attach_status', '=', q.attachStatus);
    if (q.instanceUuid !== undefined) query = query.where('a.instance_uuid', '=', q.instanceUuid);
    const after = q.after;
    if (after) {
      // Keyset paging: (k1 beyond m1) or (k1 = m1 and k2 beyond m2) or ...
      query = query.where((eb) =>
        eb.or(
          q.sort.map((s, i) =>
            eb.and([
              ...q.sort.slice(0, i).map((p) => eb(`a.${p.column}`, '=', after[p.column])),
              eb(`a.${s.column}`, s.direction === 'desc' ? '<' : '>', after[s.column]),
            ]),
          ),
        ),
      );
    }
    for (const s of q.sort) query = query.orderBy(`a.${s.column}`, s.direction);
    return query.limit(q.limit).offset(q.offset).execute();
  },

  insert: (db: Db, row: AttachmentRow) => db.insertInto('volume_attachments').values(row).execute(),

  /**
   * Writes `columns` of many existing rows, each its own values, a statement per hundred (an
   * upsert of the whole rows that only ever takes the update branch).
   */
  updateEach: async (
    db: Db,
    rows: readonly AttachmentRow[],
    columns: readonly (keyof AttachmentRow & string)[],
  ) => {
    const set = Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]));
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto('volume_attachments')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) => oc.column('id').doUpdateSet(set as Partial<AttachmentRow>))
        .execute();
    }
  },

  /** Many rows, a statement per hundred. */
  insertMany: async (db: Db, rows: readonly AttachmentRow[]) => {
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto('volume_attachments')
        .values(rows.slice(i, i + 100))
        .execute();
    }
  },

  update: (db: Db, id: string, changes: Partial<AttachmentRow>) =>
    db.updateTable('volume_attachments').set(changes).where('id', '=', id).execute(),

  delete: (db: Db, id: string) => db.deleteFrom('volume_attachments').where('id', '=', id).execute(),

  deleteMany: async (db: Db, ids: readonly string[]) => {
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .deleteFrom('volume_attachments')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  },
};
