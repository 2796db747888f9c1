import type { Schema } from '../../platform/db/schema.js';
import type { Db } from './db.js';

export type TokenRow = Schema['tokens'];

/**
 * Tokens by the sha256 of their text. `audit_id` holds the token's audit chain, comma-separated
 * (its own id, then the id of the token it was rescoped from), as Keystone's `audit_ids` lists it.
 */
export const tokensStore = {
  insert: (db: Db, row: TokenRow) => db.insertInto('tokens').values(row).execute(),
  byId: (db: Db, id: string) => db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst(),
  revoke: (db: Db, id: string, at: string) =>
    db
      .updateTable('tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute(),
  revokeForUser: (db: Db, userId: string, at: string) =>
    db
      .updateTable('tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute(),
  revokeForProject: (db: Db, projectId: string, at: string) =>
    db
      .updateTable('tokens')
      .set({ revoked_at: at })
      .where('project_id', '=', projectId)
      .where('revoked_at', 'is', null)
      .execute(),
  revokeForUserOnProject: (db: Db, userId: string, projectId: string, at: string) =>
    db
      .updateTable('tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .where('revoked_at', 'is', null)
      .execute(),
  deleteExpired: (db: Db, before: string) =>
    db.deleteFrom('tokens').where('expires_at', '<', before).execute(),
};
