import type { Kysely } from 'kysely';

/**
 * Nova's instance actions and their events (`instance_actions`, `instance_actions_events`): one
 * action per user request on a server, kept after the server is deleted (2.21 lists them).
 * `seq` orders a server's actions as Nova's autoincrement id does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instance_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('server_id', 'text', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('project_id', 'text')
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('finish_time', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('instance_actions_server')
    .on('instance_actions')
    .columns(['server_id', 'seq'])
    .execute();
  await db.schema
    .createTable('instance_action_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('action_id', 'text', (c) => c.notNull().references('instance_actions.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('finish_time', 'text')
    .addColumn('result', 'text')
    .addColumn('traceback', 'text')
    .addColumn('host', 'text')
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('instance_action_events_action')
    .on('instance_action_events')
    .column('action_id')
    .execute();
  await db.schema
    .createIndex('instance_action_events_open')
    .on('instance_action_events')
    .columns(['server_id', 'finish_time'])
    .execute();
}
