import type { Kysely } from 'kysely';

/**
 * Nova's key pairs (`key_pairs` in the API database): one name per user, an integer id that
 * `GET /os-keypairs/{name}` shows, and the public key with its fingerprint. A server keeps the key's name
 * (`servers.key_name`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('keypairs')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('keypairs_user_name', ['user_id', 'name'])
    .execute();
}
