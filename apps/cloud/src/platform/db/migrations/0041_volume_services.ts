import type { Kysely } from 'kysely';

/** Cinder's services table, as far as the API shows it: which ones are disabled or frozen. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_services')
    .addColumn('binary', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('availability_zone', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('frozen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addPrimaryKeyConstraint('volume_services_pk', ['host', 'binary'])
    .execute();
}
