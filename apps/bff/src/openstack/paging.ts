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
