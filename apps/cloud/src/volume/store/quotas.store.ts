import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;

const asMap = (rows: { resource: string; hard_limit: number }[]) =>
  Object.fromEntries(rows.map((r) => [r.resource, Number(r.hard_limit)])) as Record<string, number>;

/** SQL for Cinder's quotas and quota classes, and the usage they are checked against. */
export const volumeQuotasStore = {
  async limits(db: Db, projectId: string): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('volume_quotas')
      .select(['resource', 'hard_limit'])
      .where('project_id', '=', projectId)
      .where('user_id', '=', '')
      .execute();
    return asMap(rows);
  },

  async setLimit(db: Db, projectId: string, resource: string, limit: number): Promise<void> {
    await db
      .insertInto('volume_quotas')
      .values({ project_id: projectId, user_id: '', resource, hard_limit: limit })
      .onConflict((oc) =>
        oc.columns(['project_id', 'user_id', 'resource']).doUpdateSet({ hard_limit: limit }),
      )
      .execute();
  },

  async deleteAll(db: Db, projectId: string): Promise<void> {
    await db.deleteFrom('volume_quotas').where('project_id', '=', projectId).execute();
  },

  async classLimits(db: Db, className: string): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('volume_quota_classes')
      .select(['resource', 'hard_limit'])
      .where('class_name', '=', className)
      .execute();
    return asMap(rows);
  },

  async setClassLimit(db: Db, className: string, resource: string, limit: number): Promise<void> {
    await db
      .insertInto('volume_quota_classes')
      .values({ class_name: className, resource, hard_limit: limit })
      .onConflict((oc) => oc.columns(['class_name', 'resource']).doUpdateSet({ hard_limit: limit }))
      .execute();
  },

  /** A project's volumes (those that consume quota: every one not deleted) by type: count and size. */
  usageByType: (db: Db, projectId: string) =>
    db.selectFrom('volumes').select(['volume_type_id', 'size']).where('project_id', '=', projectId).execute(),

  // --- cloud14v: snapshots count against quota ---
  /** A project's snapshots (every one not deleted) by type, with their volume's size. */
  snapshotUsageByType: (db: Db, projectId: string) =>
    db
      .selectFrom('volume_snapshots')
      .select(['volume_type_id', 'volume_size as size'])
      .where('project_id', '=', projectId)
      .execute(),
};
