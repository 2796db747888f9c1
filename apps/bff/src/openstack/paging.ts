/**
 * OpenStack's marker paging, followed to the end. Nova and Cinder answer a list with at most
 * `limit` items and, when more remain, a `next` link in `<collection>_links`; the next page starts
 * after the last item's id.
 */

interface Link {
  rel: string;
  href: string;
}

/** One page of a collection as the cloud answers it: `{ servers: [...], servers_links: [...] }`. */
export type CollectionPage<Item> = Record<string, Item[] | Link[] | undefined>;

/** How many items each page asks for. */
export const PAGE_SIZE = 1000;

/** `?a=1&b=2` from the given parameters (undefined ones left out), or '' when none is left. */
export function queryString(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * Every item of `collection`, page after page. `fetchPage` gets the paging parameters to add to
 * its query (`limit`, and `marker` after the first page) and returns the answer's body.
 */
export async function listAllPages<Item extends { id: string }>(
  collection: string,
  fetchPage: (paging: { limit: string; marker?: string }) => Promise<CollectionPage<Item>>,
  pageSize = PAGE_SIZE,
): Promise<Item[]> {
  const out: Item[] = [];
  let marker: string | undefined;
  for (;;) {
    const body = await fetchPage({ limit: String(pageSize), ...(marker !== undefined ? { marker } : {}) });
    const page = (body[collection] ?? []) as Item[];
    out.push(...page);
    const links = (body[`${collection}_links`] ?? []) as Link[];
    const last = page.at(-1);
    if (!links.some((l) => l.rel === 'next') || !last) return out;
    marker = last.id;
  }
}

// --- L: one page at a time ---

/** What a paged call asks the cloud for: how many, after which item, and whether to count (Cinder 3.45). */
export interface PagingParams {
  limit: string;
  marker?: string;
}

/** An answer that may carry the cloud's count of every match (Cinder's `with_count`). */
export type CountedPage<Item> = Record<string, Item[] | Link[] | number | undefined>;

/** The most items a filtered page reads from the cloud before it stops and says where it got to. */
export const SCAN_LIMIT = 2000;

export interface OnePage<Item> {
  items: Item[];
  /** The id to start the next page after; null when nothing follows. */
  nextMarker: string | null;
  /** The cloud's count of every match, when it gave one. */
  count: number | null;
}

/**
 * One page of `size` items starting after `marker`. Without `keep`, one call asks for `size + 1`
 * items: the extra one only says whether a next page exists. With `keep` (a filter the cloud cannot
 * apply), pages are read one after another and filtered here until `size + 1` items are kept, the
 * collection ends, or `scanLimit` items were read (then the page ends early and `nextMarker` is the
 * last item read, so the next page goes on from there).
 */
export async function onePage<Item extends { id: string }>(
  collection: string,
  fetchPage: (paging: PagingParams) => Promise<CountedPage<Item>>,
  opts: { size: number; marker?: string; keep?: (item: Item) => boolean; scanLimit?: number },
): Promise<OnePage<Item>> {
  const { size, keep } = opts;
  const scanLimit = opts.scanLimit ?? SCAN_LIMIT;
  const batch = keep ? Math.min(Math.max(size + 1, 100), PAGE_SIZE) : size + 1;
  const kept: Item[] = [];
  let marker = opts.marker;
  let count: number | null = null;
  let read = 0;
  for (;;) {
    const body = await fetchPage({ limit: String(batch), ...(marker !== undefined ? { marker } : {}) });
    if (count === null && typeof body.count === 'number') count = body.count;
    const page = (body[collection] ?? []) as Item[];
    for (const item of page) {
      read += 1;
      if (keep && !keep(item)) continue;
      kept.push(item);
      if (kept.length > size) {
        const items = kept.slice(0, size);
        return { items, nextMarker: items.at(-1)?.id ?? null, count };
      }
    }
    const last = page.at(-1);
    // A short page is the end, whatever the links say (Nova links a full last page).
    if (!last || page.length < batch) return { items: kept, nextMarker: null, count };
    if (read >= scanLimit) return { items: kept, nextMarker: last.id, count };
    marker = last.id;
  }
}

/** Where a later page starts: after `marker`, or nowhere when the collection has only `total` items. */
export type Skipped = { marker: string | undefined } | { marker: null; total: number };

/**
 * The marker that starts item number `skip + 1`: the id of the `skip`-th item, read page by page
 * (with `fetchPage` answering ids at least, and `keep` as in onePage). Undefined when `skip` is 0;
 * null, with the number of items there are, when there are no more than `skip`.
 */
export async function markerAfter<Item extends { id: string }>(
  collection: string,
  fetchPage: (paging: PagingParams) => Promise<CountedPage<Item>>,
  skip: number,
  keep?: (item: Item) => boolean,
): Promise<Skipped> {
  if (skip <= 0) return { marker: undefined };
  let seen = 0;
  let marker: string | undefined;
  for (;;) {
    const batch = keep ? PAGE_SIZE : Math.min(skip - seen, PAGE_SIZE);
    const body = await fetchPage({ limit: String(batch), ...(marker !== undefined ? { marker } : {}) });
    const page = (body[collection] ?? []) as Item[];
    for (const item of page) {
      if (keep && !keep(item)) continue;
      seen += 1;
      if (seen === skip) return { marker: item.id };
    }
    const last = page.at(-1);
    if (!last || page.length < batch) return { marker: null, total: seen };
    marker = last.id;
  }
}

/**
 * Page number `page` of a list read `size` at a time: from `marker` when the client kept one, else
 * after skipping the pages before it (`skipPager` answers ids at least). Past the end: no items, and
 * the count of every item there is.
 */
export async function pageAt<Item extends { id: string }>(
  collection: string,
  pager: (paging: PagingParams) => Promise<CountedPage<Item>>,
  skipPager: (paging: PagingParams) => Promise<CountedPage<{ id: string }>>,
  opts: { page: number; size: number; marker?: string; keep?: (item: Item) => boolean },
): Promise<OnePage<Item>> {
  let marker = opts.marker;
  if (marker === undefined && opts.page > 1) {
    const skipped = await markerAfter<{ id: string }>(
      collection,
      skipPager,
      (opts.page - 1) * opts.size,
      opts.keep as ((item: { id: string }) => boolean) | undefined,
    );
    if (skipped.marker === null) return { items: [], nextMarker: null, count: skipped.total };
    marker = skipped.marker;
  }
  return onePage(collection, pager, {
    size: opts.size,
    ...(marker !== undefined ? { marker } : {}),
    ...(opts.keep ? { keep: opts.keep } : {}),
  });
}
