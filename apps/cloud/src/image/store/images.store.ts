import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type ImageRow = Schema['images'];

export interface ImageFilters {
  name?: string;
  status?: string;
  visibility?: string;
  owner?: string;
  diskFormat?: string;
  containerFormat?: string;
}

/** SQL for the images table (seeded at start; Glance only reads it). */
export const imagesStore = {
  list(db: Db, f: ImageFilters): Promise<ImageRow[]> {
    let q = db.selectFrom('images').selectAll();
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    if (f.visibility !== undefined) q = q.where('visibility', '=', f.visibility);
    if (f.owner !== undefined) q = q.where('owner', '=', f.owner);
    if (f.diskFormat !== undefined) q = q.where('disk_format', '=', f.diskFormat);
    if (f.containerFormat !== undefined) q = q.where('container_format', '=', f.containerFormat);
    return q.execute();
  },

  byId: (db: Db, id: string) => db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst(),

  async byIds(db: Db, ids: readonly string[]): Promise<ImageRow[]> {
    const out: ImageRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      out.push(...(await db.selectFrom('images').selectAll().where('id', 'in', chunk).execute()));
    }
    return out;
  },
};
