import { badRequest } from '../errors.js';

/**
 * Neutron's generic list handling (`neutron/api/api_common.py`, `api/v2/base.py _items`), the same
 * for every resource: filters on any attribute (repeated values match any), `fields`,
 * `sort_key`/`sort_dir` pairs, and `limit`/`marker` paging with `page_reverse` and
 * `<collection>_links`. It works on the views the caller may see.
 */

export type View = Record<string, unknown>;
export type Query = Record<string, unknown>;

const RESERVED = new Set(['fields', 'limit', 'marker', 'sort_key', 'sort_dir', 'page_reverse']);

const values = (v: unknown): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)];

export interface ListOptions {
  /** Where `_links` point: `<base>/v2.0/<collection>`. */
  collectionUrl: string;
  collection: string;
  /** Attributes that may be sorted on (neutron: the resource's DB columns). */
  sortable: readonly string[];
  /** A marker that names no resource the caller can see: the resource's NotFound. */
  markerNotFound(id: string): Error;
}

function matches(view: View, key: string, wanted: string[]): boolean {
  // `fixed_ips=ip_address=10.0.0.3` / `fixed_ips=subnet_id=...` on ports.
  if (key === 'fixed_ips') {
    const ips = (view.fixed_ips ?? []) as Record<string, string>[];
    return wanted.some((w) => {
      const [k, v] = w.split('=', 2) as [string, string | undefined];
      return ips.some((ip) => v !== undefined && ip[k] === v);
    });
  }
  if (!Object.hasOwn(view, key)) return true;
  const have = view[key];
  if (Array.isArray(have)) return wanted.some((w) => have.map(String).includes(w));
  if (typeof have === 'boolean') {
    return wanted.some((w) => ['true', '1'].includes(w.toLowerCase()) === have);
  }
  if (have === null) return wanted.includes('') || wanted.includes('None');
  return wanted.includes(String(have));
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sortsOf(q: Query, sortable: readonly string[]): [string, 'asc' | 'desc'][] {
  const keys = values(q.sort_key);
  const dirs = values(q.sort_dir);
  if (keys.length !== dirs.length && dirs.length > 0) {
    throw badRequest('The number of sort_keys and sort_dirs must be same');
  }
  for (const d of dirs) {
    if (d !== 'asc' && d !== 'desc') {
      throw badRequest(`${d} is invalid value for sort_dirs, valid value is 'asc' and 'desc'`);
    }
  }
  for (const k of keys) {
    if (!sortable.includes(k)) throw badRequest(`${k} is invalid attribute for sort_keys`);
  }
  const out = keys.map((k, i) => [k, (dirs[i] ?? 'asc') as 'asc' | 'desc'] as [string, 'asc' | 'desc']);
  if (!out.some(([k]) => k === 'id')) out.push(['id', out[0]?.[1] ?? 'asc']);
  return out;
}

function limitOf(q: Query): number | undefined {
  const raw = values(q.limit).at(-1);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw badRequest(`Limit must be an integer 0 or greater and not '${raw}'`);
  const n = Number(raw);
  return n === 0 ? undefined : n;
}

/** Only the asked-for fields of a view (`fields=`), or all of it. */
export function pickFields(view: View, q: Query): View {
  const fields = values(q.fields);
  if (fields.length === 0) return view;
  const out: View = {};
  for (const f of fields) if (Object.hasOwn(view, f)) out[f] = view[f];
  return out;
}

const quotePlus = (s: string) => encodeURIComponent(s).replaceAll('%20', '+');

/** Filters, sorts and pages the caller's views; answers `{<collection>: [...], <collection>_links?}`. */
export function listAnswer(all: View[], q: Query, o: ListOptions): Record<string, unknown> {
  let items = all.filter((v) =>
    Object.entries(q).every(([k, raw]) => RESERVED.has(k) || matches(v, k, values(raw))),
  );
  const sorts = sortsOf(q, o.sortable);
  const reverse = ['true', '1'].includes((values(q.page_reverse).at(-1) ?? '').toLowerCase());
  const order = (a: View, b: View) => {
    for (const [k, d] of sorts) {
      const c = compare(a[k], b[k]) * (d === 'desc' ? -1 : 1);
      if (c !== 0) return c;
    }
    return 0;
  };
  items.sort(reverse ? (a, b) => order(b, a) : order);
  const marker = values(q.marker).at(-1);
  const limit = limitOf(q);
  if (marker !== undefined) {
    const m = all.find((v) => v.id === marker);
    if (!m) throw o.markerNotFound(marker);
    items = items.filter((v) => (reverse ? order(m, v) > 0 : order(v, m) > 0));
  }
  let page = limit === undefined ? items : items.slice(0, limit);
  const more = limit !== undefined && items.length > limit;
  if (reverse) page = [...page].reverse();
  const out: Record<string, unknown> = { [o.collection]: page.map((v) => pickFields(v, q)) };
  if (limit !== undefined) {
    const params = Object.entries(q).flatMap(([k, raw]) =>
      k === 'marker' || k === 'page_reverse' ? [] : values(raw).map((v) => [k, v] as [string, string]),
    );
    const href = (extra: [string, string][]) =>
      `${o.collectionUrl}?${[...params, ...extra].map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&')}`;
    const links: { rel: string; href: string }[] = [];
    const first = page[0];
    const last = page.at(-1);
    if (last && (reverse ? marker !== undefined : more))
      links.push({ rel: 'next', href: href([['marker', String(last.id)]]) });
    if (first && (reverse ? more : marker !== undefined)) {
      links.push({
        rel: 'previous',
        href: href([
          ['marker', String(first.id)],
          ['page_reverse', 'True'],
        ]),
      });
    }
    if (links.length > 0) out[`${o.collection}_links`] = links;
  }
  return out;
}
