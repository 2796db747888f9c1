import type { Kysely } from 'kysely';

/**
 * Nova's migrations: one row per resize or cold migrate, written by the conductor when it starts
 * one and moved on by the hosts (pre-migrating, migrating, post-migrating, finished, confirmed or
 * reverted, or error). `id` is Nova's integer id; the flavor ids are the internal flavor ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('migrations')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('migration_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_compute', 'text')
    .addColumn('source_node', 'text')
    .addColumn('dest_compute', 'text')
    .addColumn('dest_node', 'text')
    .addColumn('dest_host', 'text')
    .addColumn('old_instance_type_id', 'integer')
    .addColumn('new_instance_type_id', 'integer')
    .addColumn('user_id', 'text')
    .addColumn('project_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema.createIndex('migrations_server').on('migrations').column('server_id').execute();
}
