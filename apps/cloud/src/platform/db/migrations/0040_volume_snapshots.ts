import type { Kysely } from 'kysely';

/**
 * Cinder's snapshots and its volume_glance_metadata (the image properties a volume created from
 * an image carries, copied to its snapshots and to volumes made from them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('volume_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('volume_size', 'integer', (c) => c.notNull())
    .addColumn('volume_type_id', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema.createIndex('volume_snapshots_volume').on('volume_snapshots').column('volume_id').execute();
  await db.schema
    .createIndex('volume_snapshots_project')
    .on('volume_snapshots')
    .columns(['project_id', 'created_at'])
    .execute();
  // One row per key of a volume's or a snapshot's image metadata (ids are uuids, never shared).
  await db.schema
    .createTable('volume_glance_metadata')
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('resource_kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('volume_glance_metadata_pk', ['resource_id', 'key'])
    .execute();
}
