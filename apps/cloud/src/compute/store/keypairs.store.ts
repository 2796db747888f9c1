import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type KeypairRow = Schema['keypairs'];

/** SQL for the keypairs table. Pass the transaction when inside one. */
export const keypairsStore = {
  byName: (db: Db, userId: string, name: string) =>
    db
      .selectFrom('keypairs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst(),

  /** A user's key pairs (at most the key pair quota: the service sorts and pages them). */
  listForUser: (db: Db, userId: string): Promise<KeypairRow[]> =>
    db.selectFrom('keypairs').selectAll().where('user_id', '=', userId).execute(),

  async countForUser(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('keypairs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  async nextId(db: Db): Promise<number> {
    const row = await db
      .selectFrom('keypairs')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  },

  insert: (db: Db, row: KeypairRow) => db.insertInto('keypairs').values(row).execute(),

  async delete(db: Db, userId: string, name: string): Promise<number> {
    const r = await db
      .deleteFrom('keypairs')
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};
