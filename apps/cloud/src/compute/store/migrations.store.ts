import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type MigrationRow = Schema['migrations'];

export interface MigrationFilters {
  serverId?: string;
  status?: string;
  migrationType?: string;
  sourceCompute?: string;
  /** Source or destination host. */
  host?: string;
  userId?: string;
  projectId?: string;
  changesSince?: string;
  changesBefore?: string;
}

/** SQL for Nova's migrations table (cloud-rescue). */
export const migrationsStore = {
  async nextId(db: Db): Promise<number> {
    const row = await db
      .selectFrom('migrations')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  },

  insert: (db: Db, row: MigrationRow) => db.insertInto('migrations').values(row).execute(),

  /** The server's latest migration that is not over yet. */
  latestOpen: (db: Db, serverId: string) =>
    db
      .selectFrom('migrations')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('status', 'not in', ['confirmed', 'reverted', 'error'])
      .orderBy('id', 'desc')
      .executeTakeFirst(),

  async update(db: Db, id: number, changes: Partial<MigrationRow>): Promise<void> {
    await db.updateTable('migrations').set(changes).where('id', '=', id).execute();
  },

  /** Newest first (created_at, then id), as Nova lists them from 2.59. */
  list(db: Db, f: MigrationFilters): Promise<MigrationRow[]> {
    let q = db.selectFrom('migrations').selectAll();
    if (f.serverId !== undefined) q = q.where('server_id', '=', f.serverId);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    if (f.migrationType !== undefined) q = q.where('migration_type', '=', f.migrationType);
    if (f.sourceCompute !== undefined) q = q.where('source_compute', '=', f.sourceCompute);
    if (f.host !== undefined) {
      const host = f.host;
      q = q.where((eb) => eb.or([eb('source_compute', '=', host), eb('dest_compute', '=', host)]));
    }
    if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
    if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
    if (f.changesSince !== undefined) q = q.where('updated_at', '>=', f.changesSince);
    if (f.changesBefore !== undefined) q = q.where('updated_at', '<=', f.changesBefore);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  },

  /** Who asked for the server's latest resize or migrate (its instance action's caller). */
  requesterOf: (db: Db, serverId: string) =>
    db
      .selectFrom('instance_actions')
      .select(['user_id', 'project_id'])
      .where('server_id', '=', serverId)
      .where('action', 'in', ['resize', 'migrate'])
      .orderBy('seq', 'desc')
      .executeTakeFirst(),
};
