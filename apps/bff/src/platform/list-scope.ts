import type { ListPage } from '@sv/shared';
import { forbidden } from './errors.js';
import type { SessionData } from './session-store.js';

/** An OpenStack id as the dashboard searches for one: a whole UUID, with or without dashes. */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
export const looksLikeId = (q: string): boolean => UUID.test(q);

/** Whose resources a list shows: the user's project, one project, or every project (admins). */
export interface ListScope {
  allProjects: boolean;
  projectId: string | undefined;
}

/** Members see their own project only; `all` and `project` are an admin's. */
export function listScope(
  session: SessionData,
  q: { all: boolean; project?: string | undefined },
): ListScope {
  if ((q.all || q.project !== undefined) && !session.isAdmin) {
    throw forbidden('Only administrators can list other projects.');
  }
  return { allProjects: q.all && q.project === undefined, projectId: q.project };
}

/** Whether an item found by id belongs in this scope (an admin's lookup by id sees every project). */
export function inScope(session: SessionData, scope: ListScope, projectId: string | null): boolean {
  if (scope.projectId !== undefined) return projectId === scope.projectId;
  if (scope.allProjects) return true;
  return projectId === null || projectId === session.project.id;
}

/** Text as a regular expression that matches exactly it (Nova's name filter is a regex). */
export function literalRegex(text: string): string {
  // `|` stays: Nova escapes it itself before matching (`_safe_regex_mysql`).
  return text.replace(/[.*+?^${}()[\]\\]/g, '\\$&');
}

/** Where a page sits: the exact total when known (counted, or this is the last page), else a lower bound. */
export function pageInfo(
  number: number,
  size: number,
  itemCount: number,
  nextMarker: string | null,
  counted: number | null,
): ListPage {
  const before = (number - 1) * size;
  const total = counted ?? (nextMarker === null ? before + itemCount : null);
  return { number, size, nextMarker, total, atLeast: total ?? before + itemCount + 1 };
}

/** Runs `fn` on every item, at most `width` at a time, keeping the order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  width: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
