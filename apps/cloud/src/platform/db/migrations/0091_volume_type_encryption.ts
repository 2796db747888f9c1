import type { Kysely } from 'kysely';

/** Cinder's encryption table: how volumes of a type are encrypted (one row per type at most). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('volume_type_encryption')
    .addColumn('volume_type_id', 'text', (c) => c.primaryKey())
    .addColumn('encryption_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('control_location', 'text', (c) => c.notNull())
    .addColumn('cipher', 'text')
    .addColumn('key_size', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
}
