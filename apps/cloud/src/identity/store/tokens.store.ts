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
  /**
   * A token with what validating it needs of its user and project, in one read: every request to
   * Nova and Cinder validates one, so this is one round trip instead of three.
   */
  byIdWithSubject: (db: Db, id: string) =>
    db
      .selectFrom('tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('projects as p', 'p.id', 't.project_id')
      .selectAll('t')
      .select([
        'u.enabled as user_enabled',
        'u.name as user_name',
        'u.domain_id as user_domain_id',
        'p.enabled as project_enabled',
        'p.name as project_name',
      ])
      .where('t.id', '=', id)
      .executeTakeFirst(),
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
