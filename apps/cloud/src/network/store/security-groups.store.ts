import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

type Db = Kysely<Schema>;
export type SecurityGroupRow = Schema['security_groups'];
export type SecurityGroupRuleRow = Schema['security_group_rules'];

/** SQL for security groups and their rules. */
export const securityGroupsStore = {
  visible(db: Db, projectId: string | null): Promise<SecurityGroupRow[]> {
    let q = db.selectFrom('security_groups').selectAll();
    if (projectId !== null) q = q.where('project_id', '=', projectId);
    return q.execute();
  },
  byId: (db: Db, id: string) =>
    db.selectFrom('security_groups').selectAll().where('id', '=', id).executeTakeFirst(),
  defaultOf: (db: Db, projectId: string) =>
    db
      .selectFrom('security_groups')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('default_of', '=', projectId)
      .executeTakeFirst(),
  insert: (db: Db, row: SecurityGroupRow) => db.insertInto('security_groups').values(row).execute(),
  /** The default group, unless another request made it first (the unique index decides). */
  insertDefault: (db: Db, row: SecurityGroupRow) =>
    db
      .insertInto('security_groups')
      .values(row)
      .onConflict((oc) => oc.column('default_of').doNothing())
      .executeTakeFirst(),
  update: (db: Db, id: string, patch: Partial<SecurityGroupRow>) =>
    db.updateTable('security_groups').set(patch).where('id', '=', id).execute(),
  delete: (db: Db, id: string) => db.deleteFrom('security_groups').where('id', '=', id).execute(),

  rulesOf: (db: Db, groupIds: readonly string[]) =>
    groupIds.length === 0
      ? Promise.resolve([] as SecurityGroupRuleRow[])
      : db
          .selectFrom('security_group_rules')
          .selectAll()
          .where('security_group_id', 'in', [...groupIds])
          .execute(),
  visibleRules(db: Db, projectId: string | null): Promise<SecurityGroupRuleRow[]> {
    let q = db.selectFrom('security_group_rules').selectAll();
    if (projectId !== null) {
      q = q.where((eb) =>
        eb.or([
          eb('project_id', '=', projectId),
          eb(
            'security_group_id',
            'in',
            eb
              .selectFrom('security_groups')
              .select('security_groups.id')
              .where('security_groups.project_id', '=', projectId),
          ),
        ]),
      );
    }
    return q.execute();
  },
  ruleById: (db: Db, id: string) =>
    db.selectFrom('security_group_rules').selectAll().where('id', '=', id).executeTakeFirst(),
  insertRules: (db: Db, rows: readonly SecurityGroupRuleRow[]) =>
    rows.length === 0
      ? Promise.resolve()
      : db
          .insertInto('security_group_rules')
          .values([...rows])
          .execute()
          .then(() => undefined),
  updateRule: (db: Db, id: string, patch: Partial<SecurityGroupRuleRow>) =>
    db.updateTable('security_group_rules').set(patch).where('id', '=', id).execute(),
  deleteRule: (db: Db, id: string) => db.deleteFrom('security_group_rules').where('id', '=', id).execute(),
};
