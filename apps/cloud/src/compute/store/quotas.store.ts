import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;

const asMap = (rows: { resource: string; hard_limit: number }[]) =>
  Object.fromEntries(rows.map((r) => [r.resource, Number(r.hard_limit)])) as Record<string, number>;

/** SQL for Nova's quotas and quota classes. Pass the transaction when inside one. */
export const computeQuotasStore = {
  /** The limits set for a project (userId ''), or for one user of it. */
  async limits(db: Db, projectId: string, userId = ''): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('compute_quotas')
      .select(['resource', 'hard_limit'])
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .execute();
    return asMap(rows);
  },

  async setLimit(db: Db, projectId: string, userId: string, resource: string, limit: number): Promise<void> {
    await db
      .insertInto('compute_quotas')
      .values({ project_id: projectId, user_id: userId, resource, hard_limit: limit })
      .onConflict((oc) =>
        oc.columns(['project_id', 'user_id', 'resource']).doUpdateSet({ hard_limit: limit }),
      )
      .execute();
  },

  /** A project's limits and its users' (no user: everything of the project). */
  async deleteAll(db: Db, projectId: string, userId?: string): Promise<void> {
    let q = db.deleteFrom('compute_quotas').where('project_id', '=', projectId);
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    await q.execute();
  },

  /** What a project's (or one user's) servers use: Nova counts instances, cores and RAM. */
  async serverUsage(db: Db, projectId: string, userId?: string) {
    let q = db
      .selectFrom('servers')
      .select('flavor')
      .where('project_id', '=', projectId)
      .where('deleted', '=', 0);
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    const rows = await q.execute();
    let cores = 0;
    let ram = 0;
    for (const r of rows) {
      const f = JSON.parse(r.flavor) as { vcpus?: number; ram?: number };
      cores += Number(f.vcpus ?? 0);
      ram += Number(f.ram ?? 0);
    }
    return { instances: rows.length, cores, ram };
  },

  async classLimits(db: Db, className: string): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('compute_quota_classes')
      .select(['resource', 'hard_limit'])
      .where('class_name', '=', className)
      .execute();
    return asMap(rows);
  },

  async setClassLimit(db: Db, className: string, resource: string, limit: number): Promise<void> {
    await db
      .insertInto('compute_quota_classes')
      .values({ class_name: className, resource, hard_limit: limit })
      .onConflict((oc) => oc.columns(['class_name', 'resource']).doUpdateSet({ hard_limit: limit }))
      .execute();
  },
};
