import type { Kysely } from 'kysely';

/** Cinder's messages: what the volume service tells a project about its requests that failed. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_uuid', 'text')
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('message_level', 'text', (c) => c.notNull())
    .addColumn('user_message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('volume_messages_project').on('volume_messages').column('project_id').execute();
}
