import { Kysely, sql } from 'kysely';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibsqlDialect } from './libsql-dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: ad-hoc tables, no schema type
let db: Kysely<any>;

beforeEach(() => {
  db = new Kysely({ dialect: new LibsqlDialect(new Database(':memory:')) });
});
afterEach(async () => {
  await db.destroy();
});

describe('LibsqlDialect', () => {
  it('keeps the first value of a column name that occurs twice, as joins here expect', async () => {
    const { rows } = await sql`select 1 as a, 2 as a, 3 as b`.execute(db);
    expect(rows).toEqual([{ a: 1, b: 3 }]);
  });

  it('reuses prepared statements, and a schema change shows in a statement prepared before it', async () => {
    await sql`create table t (id integer primary key, a text)`.execute(db);
    await db.insertInto('t').values({ id: 1, a: 'x' }).execute();
    const all = () => db.selectFrom('t').selectAll().execute();
    expect(await all()).toEqual([{ id: 1, a: 'x' }]);
    expect(await all()).toEqual([{ id: 1, a: 'x' }]);
    await sql`alter table t add column b text default 'new'`.execute(db);
    expect(await all()).toEqual([{ id: 1, a: 'x', b: 'new' }]);
  });

  it('answers writes with the rows they changed, and takes booleans as 0/1', async () => {
    await sql`create table t (id integer primary key, flag integer)`.execute(db);
    await db
      .insertInto('t')
      .values([
        { id: 1, flag: true },
        { id: 2, flag: false },
      ])
      .execute();
    const res = await db.updateTable('t').set({ flag: 2 }).where('flag', '=', true).executeTakeFirst();
    expect(res.numUpdatedRows).toBe(1n);
    expect(await db.selectFrom('t').selectAll().orderBy('id').execute()).toEqual([
      { id: 1, flag: 2 },
      { id: 2, flag: 0 },
    ]);
  });

  it("reports a unique violation with SQLite's base code and message", async () => {
    await sql`create table t (id integer primary key)`.execute(db);
    await db.insertInto('t').values({ id: 1 }).execute();
    const err = await db
      .insertInto('t')
      .values({ id: 1 })
      .execute()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SQLITE_CONSTRAINT', extendedCode: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect((err as Error).message).toContain('UNIQUE constraint failed');
  });

  it('rolls a failed transaction back and hands the connection on clean', async () => {
    await sql`create table t (id integer primary key)`.execute(db);
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('t').values({ id: 1 }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('t').values({ id: 2 }).execute();
    });
    expect(await db.selectFrom('t').select('id').execute()).toEqual([{ id: 2 }]);
  });
});
