import type { Kysely } from 'kysely';

/**
 * What the server's own API keeps beside the create-time row (issue 14, C1): the access addresses
 * and the disk config asked at create (or set by update, rebuild and resize), who locked the
 * server (Nova's `locked_by`: `owner` or `admin`) and the guest's encrypted password (metadata
 * service's `password`, cleared by DELETE os-server-password).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('servers').addColumn('access_ip_v4', 'text').execute();
  await db.schema.alterTable('servers').addColumn('access_ip_v6', 'text').execute();
  await db.schema
    .alterTable('servers')
    .addColumn('auto_disk_config', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('servers').addColumn('locked_by', 'text').execute();
  await db.schema.alterTable('servers').addColumn('password', 'text').execute();
}
