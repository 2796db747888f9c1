import { badRequest, type OpenStackError } from '../../platform/http/errors.js';

/**
 * Cinder's list parameters (api/common.py get_pagination_params / get_sort_params and
 * db/sqlalchemy process_sort_params / paginate_query), shared by volumes and types.
 */
export const MAX_LIMIT = 1000;
const DB_MAX_INT = 0x7fffffff;

/** The query string as Cinder's webob MultiDict sees it: ordered pairs, last value wins on get. */
export class QueryParams {
  constructor(readonly pairs: readonly [string, string][]) {}

  static fromUrl(url: string): QueryParams {
    const q = url.indexOf('?');
    return new QueryParams(q < 0 ? [] : [...new URLSearchParams(url.slice(q + 1))]);
  }

  has(key: string): boolean {
    return this.pairs.some(([k]) => k === key);
  }

  get(key: string): string | undefined {
    let out: string | undefined;
    for (const [k, v] of this.pairs) if (k === key) out = v;
    return out;
  }

  without(...keys: string[]): QueryParams {
    return new QueryParams(this.pairs.filter(([k]) => !keys.includes(k)));
  }

  /** Key -> last value, in first-seen key order. */
  toRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of this.pairs) out[k] = v;
    return out;
  }
}

export type SortDir = 'asc' | 'desc';

export interface ListParams {
  limit: number;
  marker: string | null;
  offset: number;
  /** Requested keys and directions, not yet validated (that happens in the query, as in Cinder). */
  sortKeys: string[];
  sortDirs: string[];
  /** Everything else: the filters. */
  filters: QueryParams;
}

/** Python int() of a query string value, or null. */
function pyInt(v: string): number | null {
  const t = v.trim().replaceAll('_', '');
  return /^[+-]?\d+$/.test(t) ? Number(t) : null;
}

/** get_pagination_params + get_sort_params: pops them off the parameters, leaving the filters. */
export function parseListParams(params: QueryParams, defaultSortKey = 'created_at'): ListParams {
  let limit = MAX_LIMIT;
  const rawLimit = params.get('limit');
  if (rawLimit !== undefined) {
    const n = pyInt(rawLimit);
    if (n === null) throw badRequest('limit param must be an integer');
    if (n < 0) throw badRequest('limit param must be positive');
    limit = Math.min(n, MAX_LIMIT);
  }
  const marker = params.get('marker') ?? null;
  let offset = 0;
  const rawOffset = params.get('offset');
  if (rawOffset !== undefined) {
    const n = pyInt(rawOffset);
    if (n === null) throw badRequest('offset must be an integer.');
    if (n < 0) throw badRequest('offset must be >= 0');
    if (n > DB_MAX_INT) throw badRequest(`offset must be <= ${DB_MAX_INT}`);
    offset = n;
  }
  if (params.has('sort') && (params.has('sort_key') || params.has('sort_dir'))) {
    throw badRequest(
      "The 'sort_key' and 'sort_dir' parameters are deprecated and cannot be used with the 'sort' parameter.",
    );
  }
  const sortKeys: string[] = [];
  const sortDirs: string[] = [];
  const sort = params.get('sort');
  if (sort !== undefined) {
    for (const part of sort.trim().split(',')) {
      const i = part.indexOf(':');
      const key = i < 0 ? part : part.slice(0, i);
      const dir = i < 0 ? '' : part.slice(i + 1);
      sortKeys.push(key.trim());
      sortDirs.push((dir || 'desc').trim());
    }
  } else {
    sortKeys.push((params.get('sort_key') ?? defaultSortKey).trim());
    sortDirs.push((params.get('sort_dir') ?? 'desc').trim());
  }
  return {
    limit,
    marker,
    offset,
    sortKeys,
    sortDirs,
    filters: params.without('limit', 'marker', 'offset', 'sort', 'sort_key', 'sort_dir'),
  };
}

/** process_sort_params: validated directions, with created_at and id appended as tie-breakers. */
export function processSortParams(keys: string[], dirs: string[]): { keys: string[]; dirs: SortDir[] } {
  const defaultDir = (dirs[0] ?? 'desc') as SortDir;
  const outDirs: SortDir[] = [];
  for (const d of dirs) {
    if (d !== 'asc' && d !== 'desc') {
      throw badRequest("Invalid input received: Unknown sort direction, must be 'desc' or 'asc'.");
    }
    outDirs.push(d);
  }
  while (outDirs.length < keys.length) outDirs.push(defaultDir);
  if (outDirs.length > keys.length) {
    throw badRequest('Invalid input received: Sort direction array size exceeds sort key array size.');
  }
  const outKeys = [...keys];
  for (const k of ['created_at', 'id']) {
    if (!outKeys.includes(k)) {
      outKeys.push(k);
      outDirs.push(defaultDir);
    }
  }
  return { keys: outKeys, dirs: outDirs };
}

export const invalidSortKey = (): OpenStackError => badRequest('Invalid input received: Invalid sort key');

type SortValue = string | number | null;

/** MySQL's ordering, which the recorded cloud uses: NULL first, strings case-insensitively. */
export function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const la = String(a).toLowerCase();
  const lb = String(b).toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : 0;
}

/**
 * paginate_query: rows sorted by the keys, those after the marker's position, then offset and
 * limit. `sortValue` reads a sort key of a row (validated by the caller).
 */
export function paginate<T>(
  rows: T[],
  sort: { keys: string[]; dirs: SortDir[] },
  sortValue: (row: T, key: string) => SortValue,
  marker: T | null,
  offset: number,
  limit: number,
): T[] {
  const cmp = (a: T, b: T): number => {
    for (let i = 0; i < sort.keys.length; i++) {
      const key = sort.keys[i] as string;
      const c = compareValues(sortValue(a, key), sortValue(b, key));
      if (c !== 0) return sort.dirs[i] === 'desc' ? -c : c;
    }
    return 0;
  };
  let out = [...rows].sort(cmp);
  if (marker !== null) out = out.filter((r) => cmp(r, marker) > 0);
  return out.slice(offset, offset + limit);
}

/** Python's urllib.parse.urlencode (quote_plus) for next links. */
export function urlencode(pairs: readonly [string, string][]): string {
  const q = (s: string) =>
    encodeURIComponent(s)
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  return pairs.map(([k, v]) => `${q(k)}=${q(v)}`).join('&');
}

/**
 * _get_collection_links: a `next` link when the page is as long as the limit asked for (or as
 * the total count when it was requested), whose query repeats the request's with the marker last.
 */
export function nextLink(
  collectionUrl: string,
  params: QueryParams,
  items: { id: string }[],
  limit: number,
  itemCount?: number,
): { rel: 'next'; href: string }[] {
  const count = itemCount || items.length;
  const last = items.at(-1);
  if (!last || limit > count) return [];
  const pairs: [string, string][] = [...params.without('marker').pairs, ['marker', last.id]];
  return [{ rel: 'next', href: `${collectionUrl}?${urlencode(pairs)}` }];
}

/** oslo strutils.bool_from_string(strict=True) behind Cinder's get_bool_param. */
export function boolParam(name: string, value: string | undefined, fallback = false): boolean {
  if (value === undefined) return fallback;
  const v = value.trim().toLowerCase();
  if (['1', 't', 'true', 'on', 'y', 'yes'].includes(v)) return true;
  if (['0', 'f', 'false', 'off', 'n', 'no'].includes(v)) return false;
  throw badRequest(`Value '${value}' for '${name}' is not a boolean.`);
}
