import type { Kysely } from 'kysely';

/**
 * Quotas as Nova and Cinder keep them: per-project limits (and Nova's per-user ones, `user_id`
 * non-empty), and quota classes (only `default` is used). A resource with no row takes its class's
 * limit, else the service's configured default. Each service has its own tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const service of ['compute', 'volume']) {
    await db.schema
      .createTable(`${service}_quotas`)
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('resource', 'text', (c) => c.notNull())
      .addColumn('hard_limit', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${service}_quotas_pk`, ['project_id', 'user_id', 'resource'])
      .execute();
    await db.schema
      .createTable(`${service}_quota_classes`)
      .addColumn('class_name', 'text', (c) => c.notNull())
      .addColumn('resource', 'text', (c) => c.notNull())
      .addColumn('hard_limit', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${service}_quota_classes_pk`, ['class_name', 'resource'])
      .execute();
  }
}
