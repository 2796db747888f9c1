import type { Kysely } from 'kysely';

/**
 * When Nova accepted a detach of the mapping (null otherwise). The host finishes a detach after
 * the answer, so this is what lets a restarted cloud finish it rather than forget it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('block_device_mappings').addColumn('detach_requested_at', 'text').execute();
}
