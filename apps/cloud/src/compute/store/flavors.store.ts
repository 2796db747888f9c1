import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Store } from '../../platform/db/store.js';

type Db = Kysely<Schema>;
export type FlavorRow = Schema['flavors'];

export interface FlavorFilters {
  /** true: public only; false: private only; null: both. */
  isPublic: boolean | null;
  /** Members never see disabled flavors in lists. */
  hideDisabled: boolean;
  minRam?: number;
  minDisk?: number;
  /** cloud-rescue: with `isPublic` true, also the private flavors shared with this project. */
  projectId?: string;
}

/** SQL for the flavors table. Pass the transaction when inside one. */
export const flavorsStore = {
  list(db: Db, f: FlavorFilters): Promise<FlavorRow[]> {
    let q = db.selectFrom('flavors').selectAll();
    if (f.isPublic === true && f.projectId !== undefined) {
      const projectId = f.projectId;
      q = q.where((eb) =>
        eb.or([
          eb('is_public', '=', 1),
          eb(
            'id',
            'in',
            eb.selectFrom('flavor_projects').select('flavor_id').where('project_id', '=', projectId),
          ),
        ]),
      );
    } else if (f.isPublic !== null) q = q.where('is_public', '=', f.isPublic ? 1 : 0);
    if (f.hideDisabled) q = q.where('disabled', '=', 0);
    if (f.minRam !== undefined) q = q.where('ram', '>=', f.minRam);
    if (f.minDisk !== undefined) q = q.where('disk', '>=', f.minDisk);
    return q.orderBy('id').orderBy('internal_id').execute();
  },

  byId: (db: Db, id: string) => db.selectFrom('flavors').selectAll().where('id', '=', id).executeTakeFirst(),

  byName: (db: Db, name: string) =>
    db.selectFrom('flavors').select('id').where('name', '=', name).executeTakeFirst(),

  async nextInternalId(db: Db): Promise<number> {
    const row = await db
      .selectFrom('flavors')
      .select((eb) => eb.fn.max('internal_id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  },

  insert: (db: Db, row: FlavorRow) => db.insertInto('flavors').values(row).execute(),

  async updateDescription(db: Db, id: string, description: string | null): Promise<void> {
    await db.updateTable('flavors').set({ description }).where('id', '=', id).execute();
  },

  // --- cloud14v: flavor extra specs ---
  async updateExtraSpecs(db: Db, id: string, extraSpecs: Record<string, string>): Promise<void> {
    await db
      .updateTable('flavors')
      .set({ extra_specs: JSON.stringify(extraSpecs) })
      .where('id', '=', id)
      .execute();
  },

  async delete(db: Db, id: string): Promise<number> {
    const r = await db.deleteFrom('flavors').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  // --- cloud-rescue: flavor access (Nova's flavor_projects) ---
  /** The flavor row, locked: two access changes of one flavor run one after the other. */
  lockById: (store: Store, tx: Db, id: string) =>
    store.forUpdate(tx.selectFrom('flavors').selectAll().where('id', '=', id)).executeTakeFirst(),

  accessList: (db: Db, flavorId: string) =>
    db
      .selectFrom('flavor_projects')
      .select('project_id')
      .where('flavor_id', '=', flavorId)
      .orderBy('project_id')
      .execute(),

  async hasAccess(db: Db, flavorId: string, projectId: string): Promise<boolean> {
    const row = await db
      .selectFrom('flavor_projects')
      .select('flavor_id')
      .where('flavor_id', '=', flavorId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row !== undefined;
  },

  addAccess: (db: Db, flavorId: string, projectId: string) =>
    db.insertInto('flavor_projects').values({ flavor_id: flavorId, project_id: projectId }).execute(),

  async removeAccess(db: Db, flavorId: string, projectId: string): Promise<number> {
    const r = await db
      .deleteFrom('flavor_projects')
      .where('flavor_id', '=', flavorId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  async deleteAccessOf(db: Db, flavorId: string): Promise<void> {
    await db.deleteFrom('flavor_projects').where('flavor_id', '=', flavorId).execute();
  },
};
