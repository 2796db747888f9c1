import type { Kysely } from 'kysely';

/** Cinder's volume_type_projects: the projects a private volume type is shared with. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_type_projects')
    .addColumn('volume_type_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('volume_type_projects_pk', ['volume_type_id', 'project_id'])
    .execute();
}
