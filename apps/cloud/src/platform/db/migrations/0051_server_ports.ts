import type { Kysely } from 'kysely';

/**
 * Nova's side of a server's networking (its network info cache): the ports a server holds, in
 * order, and whether the user brought the port (kept, only unbound, when the server goes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_ports')
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('port_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('preserve_on_delete', 'integer', (c) => c.notNull())
    .addColumn('tag', 'text')
    .addPrimaryKeyConstraint('server_ports_pk', ['server_id', 'port_id'])
    .execute();
}
