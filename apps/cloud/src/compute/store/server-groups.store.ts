import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type ServerGroupRow = Schema['server_groups'];

/** SQL for server groups and their members. Pass the transaction when inside one. */
export const serverGroupsStore = {
  byId: (db: Db, id: string) =>
    db.selectFrom('server_groups').selectAll().where('id', '=', id).executeTakeFirst(),

  /** A project's groups (every project's when `projectId` is null), oldest first, as Nova pages them. */
  list(
    db: Db,
    projectId: string | null,
    limit: number | undefined,
    offset: number,
  ): Promise<ServerGroupRow[]> {
    let q = db.selectFrom('server_groups').selectAll().orderBy('created_at').orderBy('id');
    if (projectId !== null) q = q.where('project_id', '=', projectId);
    if (limit !== undefined) q = q.limit(limit);
    if (offset > 0) q = q.offset(offset);
    return q.execute();
  },

  insert: (db: Db, row: ServerGroupRow) => db.insertInto('server_groups').values(row).execute(),

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('server_group_members').where('group_id', '=', id).execute();
    await db.deleteFrom('server_groups').where('id', '=', id).execute();
  },

  async countFor(db: Db, projectId: string, userId?: string): Promise<number> {
    let q = db
      .selectFrom('server_groups')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('project_id', '=', projectId);
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  },

  /** The live (not deleted) members of the groups, with the host each runs on (null: not placed yet). */
  liveMembers(
    db: Db,
    groupIds: readonly string[],
  ): Promise<{ group_id: string; server_id: string; host: string | null }[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('server_group_members as m')
      .innerJoin('servers as s', 's.id', 'm.server_id')
      .select(['m.group_id', 'm.server_id', 's.host'])
      .where('m.group_id', 'in', groupIds)
      .where('s.deleted', '=', 0)
      .orderBy('s.created_at')
      .orderBy('s.launch_index')
      .execute();
  },

  ofServers: (db: Db, serverIds: readonly string[]) =>
    serverIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('server_group_members').selectAll().where('server_id', 'in', serverIds).execute(),

  groupOfServer: (db: Db, serverId: string) =>
    db
      .selectFrom('server_group_members')
      .select('group_id')
      .where('server_id', '=', serverId)
      .executeTakeFirst(),

  async addMembers(db: Db, groupId: string, serverIds: readonly string[]): Promise<void> {
    if (serverIds.length === 0) return;
    await db
      .insertInto('server_group_members')
      .values(serverIds.map((server_id) => ({ group_id: groupId, server_id })))
      .execute();
  },
};
