import type { Kysely } from 'kysely';

/**
 * What rebuild (issue 14, cloud-rebuild) changes on a server beyond the create-time row: the
 * user data (create, and rebuild from 2.57; admins see it as `OS-EXT-SRV-ATTR:user_data`) and the
 * trusted image certificate ids (create and rebuild from 2.63), which Nova keeps on the instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('servers').addColumn('user_data', 'text').execute();
  await db.schema.alterTable('servers').addColumn('trusted_certs', 'text').execute();
}
