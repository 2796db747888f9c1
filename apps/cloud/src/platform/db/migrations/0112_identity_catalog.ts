import type { Kysely } from 'kysely';

/**
 * Keystone's service, endpoint and region tables for what admins add. The cloud's own services and
 * endpoints stay derived from the URL a client reaches it at; RegionOne, which they sit in, is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_regions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('parent_region_id', 'text')
    .execute();
  await db.schema
    .createTable('catalog_services')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('catalog_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('interface', 'text', (c) => c.notNull())
    .addColumn('region_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ catalog_regions: { id: string; description: string; parent_region_id: null } }>)
    .insertInto('catalog_regions')
    .values({ id: 'RegionOne', description: '', parent_region_id: null })
    .execute();
}
