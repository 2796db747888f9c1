import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../../src/platform/db/store.js';

/**
 * A fingerprint of every row of every table: per table, its row count and a hash of its rows in
 * a canonical order. No table is left out: nothing in this cloud writes on a read or on a refused
 * request (tokens are written when issued or revoked, never when validated), so any difference
 * after a refusal is a bug.
 *
 * PostgreSQL hashes in SQL (one round trip); in-memory SQLite hands the rows over, sorted and hashed
 * here, which is as cheap.
 */
export type Digest = Record<string, string>;

export async function digester(store: Store): Promise<() => Promise<Digest>> {
  const db = store.db;
  if (store.engine === 'postgres') {
    const tables = (
      await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(db)
    ).rows.map((r) => r.name);
    const query = tables
      .map(
        (t) =>
          `select '${t}' as name, count(*)::text || ':' || md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as digest from "${t}" x`,
      )
      .join(' union all ');
    return async () => {
      const rows = (await sql.raw<{ name: string; digest: string }>(query).execute(db)).rows;
      return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
    };
  }

  const tables = (
    await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by 1`.execute(db)
  ).rows.map((r) => r.name);
  const parts: string[] = [];
  for (const t of tables) {
    const cols = (await sql<{ name: string }>`select name from pragma_table_info(${t})`.execute(db)).rows.map(
      (c) => `"${c.name}"`,
    );
    parts.push(`select '${t}' as name, json_array(${cols.join(', ')}) as r from "${t}"`);
  }
  const query = parts.join(' union all ');
  return async () => {
    const rows = (await sql.raw<{ name: string; r: string }>(query).execute(db)).rows;
    const byTable = new Map<string, string[]>(tables.map((t) => [t, []]));
    for (const row of rows) byTable.get(row.name)!.push(row.r);
    const out: Digest = {};
    for (const [t, rs] of byTable) {
      rs.sort();
      out[t] = `${rs.length}:${createHash('sha256').update(rs.join('\n')).digest('hex')}`;
    }
    return out;
  };
}

/** The tables whose digests differ. */
export function changedTables(before: Digest, after: Digest): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((t) => before[t] !== after[t]).sort();
}
