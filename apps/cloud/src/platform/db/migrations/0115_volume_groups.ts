import type { Kysely } from 'kysely';

/**
 * Cinder's generic volume groups (3.11-3.20): group types and their specs, groups with the volume
 * types they take, group snapshots, and which volumes and snapshots belong to them. Membership
 * lives in its own tables so the volume and snapshot rows keep their shape.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('group_type_specs')
    .addColumn('group_type_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_type_specs_pk', ['group_type_id', 'key'])
    .execute();
  await db.schema
    .createTable('volume_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('availability_zone', 'text', (c) => c.notNull())
    .addColumn('group_type_id', 'text', (c) => c.notNull())
    .addColumn('group_snapshot_id', 'text')
    .addColumn('source_group_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema.createIndex('volume_groups_project').on('volume_groups').column('project_id').execute();
  await db.schema
    .createTable('volume_group_types')
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('volume_type_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('volume_group_types_pk', ['group_id', 'volume_type_id'])
    .execute();
  await db.schema
    .createTable('volume_group_members')
    .addColumn('volume_id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('volume_group_members_group')
    .on('volume_group_members')
    .column('group_id')
    .execute();
  await db.schema
    .createTable('group_snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('group_type_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema
    .createTable('group_snapshot_members')
    .addColumn('snapshot_id', 'text', (c) => c.primaryKey())
    .addColumn('group_snapshot_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('group_snapshot_members_group_snapshot')
    .on('group_snapshot_members')
    .column('group_snapshot_id')
    .execute();
}
