import type { Kysely } from 'kysely';

/**
 * Cinder's transfers: a pending hand-over of a volume to whichever project shows the auth key.
 * Only the salted hash of the key is kept; accepted or deleted transfers are removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('volume_id', 'text', (c) => c.notNull().unique())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('crypt_hash', 'text', (c) => c.notNull())
    .addColumn('no_snapshots', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('volume_transfers_project_idx')
    .on('volume_transfers')
    .column('project_id')
    .execute();
}
