import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('volume_type_extra_specs')
    .addColumn('volume_type_id', 'text', (c) => c.notNull().references('volume_types.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('volume_type_extra_specs_pk', ['volume_type_id', 'key'])
    .execute();
  await db.schema
    .createTable('volumes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attach_status', 'text', (c) => c.notNull().defaultTo('detached'))
    .addColumn('volume_type_id', 'text', (c) => c.notNull())
    .addColumn('availability_zone', 'text', (c) => c.notNull())
    .addColumn('bootable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('multiattach', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('host', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('readonly_flag', 'text')
    .addColumn('migration_status', 'text')
    .addColumn('snapshot_id', 'text')
    .addColumn('source_volid', 'text')
    .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('launched_at', 'text')
    .execute();
  await db.schema
    .createIndex('volumes_project')
    .on('volumes')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('volume_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('volume_id', 'text', (c) => c.notNull().references('volumes.id'))
    .addColumn('instance_uuid', 'text')
    .addColumn('attached_host', 'text')
    .addColumn('mountpoint', 'text')
    .addColumn('attach_status', 'text', (c) => c.notNull())
    .addColumn('attach_mode', 'text', (c) => c.notNull().defaultTo('null'))
    .addColumn('connector', 'text')
    .addColumn('connection_info', 'text')
    .addColumn('attached_at', 'text')
    .addColumn('detached_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema
    .createIndex('volume_attachments_volume')
    .on('volume_attachments')
    .column('volume_id')
    .execute();
  await db.schema
    .createIndex('volume_attachments_instance')
    .on('volume_attachments')
    .column('instance_uuid')
    .execute();
}
