import type { Kysely } from 'kysely';

/**
 * Cinder's quality_of_service_specs (one row per spec set here, its keys as a JSON object) and the
 * volume type's qos_specs_id, kept beside the type so the types table stays as it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_qos_specs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('specs', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('volume_type_qos')
    .addColumn('volume_type_id', 'text', (c) => c.primaryKey())
    .addColumn('qos_specs_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('volume_type_qos_specs_idx')
    .on('volume_type_qos')
    .column('qos_specs_id')
    .execute();
}
