import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

/** A connection or a transaction: store functions take whichever the caller holds. */
export type Db = Kysely<Schema>;

/** A unique constraint refused a row (PostgreSQL 23505; SQLite's constraint error). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  if (!e) return false;
  if (e.code === '23505') return true;
  if (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed')) return true;
  return e.cause !== undefined && e.cause !== err && isUniqueViolation(e.cause);
}

/** Keystone's `attr_as_boolean` for query filters: only the usual false words are false. */
export function queryBool(value: string): 0 | 1 {
  return ['f', 'false', 'off', 'n', 'no', '0'].includes(value.toLowerCase()) ? 0 : 1;
}
