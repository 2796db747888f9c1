import type { Kysely } from 'kysely';

/**
 * Nova's server groups (`instance_groups`, `instance_group_member` in the API database): a
 * project's group with one policy (affinity, anti-affinity or their soft forms) and, for
 * anti-affinity, the 2.64 rule `max_server_per_host`; its members are the servers created with
 * `scheduler_hints.group`. A deleted server stays a row but is no longer shown as a member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('policy', 'text', (c) => c.notNull())
    /** JSON object: `{}` or `{"max_server_per_host": N}`. */
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('server_groups_project').on('server_groups').column('project_id').execute();
  await db.schema
    .createTable('server_group_members')
    .addColumn('group_id', 'text', (c) => c.notNull())
    // A server is in at most one group (Nova takes one `group` hint).
    .addColumn('server_id', 'text', (c) => c.primaryKey())
    .execute();
  await db.schema
    .createIndex('server_group_members_group')
    .on('server_group_members')
    .column('group_id')
    .execute();
}
