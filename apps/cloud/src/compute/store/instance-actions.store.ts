import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type InstanceActionRow = Schema['instance_actions'];
export type InstanceActionEventRow = Schema['instance_action_events'];

/** SQL for instance actions and their events. */
export const instanceActionsStore = {
  nextSeq: async (db: Db, serverId: string): Promise<number> => {
    const row = await db
      .selectFrom('instance_actions')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('server_id', '=', serverId)
      .executeTakeFirst();
    return Number(row?.seq ?? 0) + 1;
  },

  insert: (db: Db, row: InstanceActionRow) => db.insertInto('instance_actions').values(row).execute(),

  insertEvent: (db: Db, row: InstanceActionEventRow) =>
    db.insertInto('instance_action_events').values(row).execute(),

  /** A server's actions, newest first (Nova: created_at desc, id desc). */
  forServer: (db: Db, serverId: string) =>
    db
      .selectFrom('instance_actions')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('seq', 'desc')
      .execute(),

  byRequestId: (db: Db, serverId: string, requestId: string) =>
    db
      .selectFrom('instance_actions')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('request_id', '=', requestId)
      .orderBy('seq', 'desc')
      .executeTakeFirst(),

  events: (db: Db, actionId: string) =>
    db
      .selectFrom('instance_action_events')
      .selectAll()
      .where('action_id', '=', actionId)
      .orderBy('start_time')
      .orderBy('id')
      .execute(),

  /** Unfinished events of some servers. */
  openEvents: (db: Db, serverIds: readonly string[]) =>
    serverIds.length === 0
      ? Promise.resolve([] as InstanceActionEventRow[])
      : db
          .selectFrom('instance_action_events')
          .selectAll()
          .where('server_id', 'in', [...serverIds])
          .where('finish_time', 'is', null)
          .execute(),

  finishEvent: (
    db: Db,
    id: string,
    changes: Pick<InstanceActionEventRow, 'finish_time' | 'result' | 'traceback' | 'host'>,
  ) => db.updateTable('instance_action_events').set(changes).where('id', '=', id).execute(),

  touchAction: (
    db: Db,
    id: string,
    changes: Partial<Pick<InstanceActionRow, 'message' | 'updated_at' | 'finish_time'>>,
  ) => db.updateTable('instance_actions').set(changes).where('id', '=', id).execute(),
};
