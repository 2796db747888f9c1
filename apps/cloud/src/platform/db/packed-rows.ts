import { type RawBuilder, sql } from 'kysely';
import type { Engine } from './store.js';

/** A column reference (`alias.column`) or an SQL expression. */
export type Column = string | RawBuilder<unknown>;

/**
 * Many rows as ONE text cell holding a JSON array of row arrays, built by the database.
 * Why: @libsql/client materialises every cell with Object.defineProperty (about 1.5 µs a
 * cell: 20,000 attachments x 16 columns took ~480 ms to read while the SQL ran in 15 ms),
 * and pg parses every cell too; one string and one JSON.parse cost a fraction of that.
 */
export function packRows(engine: Engine, columns: readonly Column[], orderBy: readonly string[] = []) {
  const cols = sql.join(columns.map((c) => (typeof c === 'string' ? sql.ref(c) : c)));
  // Sorting inside the aggregate costs a temp B-tree of every row; callers that can order
  // in memory for less pass no orderBy.
  const order = orderBy.length > 0 ? sql` order by ${sql.join(orderBy.map((c) => sql.ref(c)))}` : sql``;
  return engine === 'postgres'
    ? sql<string>`coalesce(json_agg(json_build_array(${cols})${order}), '[]')::text`
    : sql<string>`json_group_array(json_array(${cols})${order})`;
}

/** The packed cell back as tuples; the caller's column list fixes each tuple's shape. */
export function unpackRows<T>(row: { rows: string | null } | undefined): T[] {
  return row?.rows ? (JSON.parse(row.rows) as T[]) : [];
}

/** Ids per `IN (...)` list: far below SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const IDS_PER_QUERY = 1000;

export function idChunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IDS_PER_QUERY) out.push(items.slice(i, i + IDS_PER_QUERY));
  return out;
}
