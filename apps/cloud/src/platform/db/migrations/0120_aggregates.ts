import type { Kysely } from 'kysely';

/**
 * Nova's host aggregates (`aggregates`, `aggregate_hosts`, `aggregate_metadata` in the API
 * database). Metadata is one JSON object and holds `availability_zone` as Nova's does. A deleted
 * aggregate stays as a row (Nova soft-deletes), so ids are never reused: `aggregate_ids` hands
 * them out, and its one row is the lock every aggregate change takes. A host's membership keeps
 * the zone it had before any aggregate gave it one, to go back to when it leaves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('aggregates')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createTable('aggregate_hosts')
    .addColumn('aggregate_id', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('home_zone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('aggregate_hosts_pk', ['aggregate_id', 'host'])
    .execute();
  await db.schema.createIndex('aggregate_hosts_host').on('aggregate_hosts').column('host').execute();
  await db.schema
    .createTable('aggregate_ids')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_id', 'integer', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ aggregate_ids: { id: number; last_id: number } }>)
    .insertInto('aggregate_ids')
    .values({ id: 1, last_id: 0 })
    .execute();
}
