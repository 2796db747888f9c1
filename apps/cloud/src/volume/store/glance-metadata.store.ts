import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
type Kind = 'volume' | 'snapshot';

const CHUNK = 500;

/** SQL for volume_glance_metadata: the image metadata of volumes and snapshots. */
export const glanceMetadataStore = {
  async get(db: Db, resourceId: string): Promise<Record<string, string>> {
    const rows = await db
      .selectFrom('volume_glance_metadata')
      .select(['key', 'value'])
      .where('resource_id', '=', resourceId)
      .orderBy('key')
      .execute();
    const out: Record<string, string> = Object.create(null);
    for (const r of rows) out[r.key] = r.value;
    return out;
  },

  /** The image metadata of several resources, by id (ids without any are absent). */
  async forMany(db: Db, ids: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const out = new Map<string, Record<string, string>>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      if (chunk.length === 0) continue;
      const rows = await db
        .selectFrom('volume_glance_metadata')
        .select(['resource_id', 'key', 'value'])
        .where('resource_id', 'in', chunk)
        .orderBy('key')
        .execute();
      for (const r of rows) {
        const m = out.get(r.resource_id) ?? Object.create(null);
        m[r.key] = r.value;
        out.set(r.resource_id, m);
      }
    }
    return out;
  },

  /** Sets these keys (adding or replacing), leaving the others. */
  async set(db: Db, kind: Kind, resourceId: string, values: Record<string, string>): Promise<void> {
    const keys = Object.keys(values);
    if (keys.length === 0) return;
    await db
      .deleteFrom('volume_glance_metadata')
      .where('resource_id', '=', resourceId)
      .where('key', 'in', keys)
      .execute();
    await db
      .insertInto('volume_glance_metadata')
      .values(
        keys.map((key) => ({
          resource_id: resourceId,
          resource_kind: kind,
          key,
          value: values[key] as string,
        })),
      )
      .execute();
  },

  async deleteKey(db: Db, resourceId: string, key: string): Promise<boolean> {
    const res = await db
      .deleteFrom('volume_glance_metadata')
      .where('resource_id', '=', resourceId)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  deleteAll: (db: Db, resourceId: string) =>
    db.deleteFrom('volume_glance_metadata').where('resource_id', '=', resourceId).execute(),

  /** Copies one resource's image metadata to another (volume -> snapshot -> volume). */
  async copy(db: Db, fromId: string, kind: Kind, toId: string): Promise<void> {
    await glanceMetadataStore.set(db, kind, toId, await glanceMetadataStore.get(db, fromId));
  },
};
