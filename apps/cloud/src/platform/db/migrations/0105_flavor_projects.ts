import type { Kysely } from 'kysely';

/** Nova's flavor_projects: the projects a private flavor is shared with (flavor access). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flavor_projects')
    .addColumn('flavor_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('flavor_projects_pk', ['flavor_id', 'project_id'])
    .execute();
}
