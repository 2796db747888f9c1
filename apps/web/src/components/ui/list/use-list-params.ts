import { DEFAULT_PAGE_SIZE, LIST_PAGE_SIZES } from '@sv/shared';
import { useSearchParams } from 'react-router';

/** A list's view, as its URL says: shareable, and the same after a reload. */
export interface ListView {
  q: string;
  status: string;
  zone: string;
  shared: '' | 'yes' | 'no';
  attached: '' | 'yes' | 'no';
  project: string;
  all: boolean;
  sort: string;
  dir: 'asc' | 'desc';
  limit: number;
  page: number;
  marker: string;
}

export type ViewChange = Partial<Omit<ListView, 'page' | 'marker'>>;

/** Newest first by creation time (as Nova and Cinder list), A→Z and smallest first otherwise. */
export const defaultDir = (sort: string): 'asc' | 'desc' => (sort === 'created' ? 'desc' : 'asc');

const yesNo = (v: string | null): '' | 'yes' | 'no' => (v === 'yes' || v === 'no' ? v : '');
const positive = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/**
 * The view in the URL's query (`?q=web&status=ACTIVE&sort=name&dir=asc&page=3`), and how to change
 * it: a new search, filter, order or page size starts again at page 1; paging keeps the rest.
 * Admin-only parts (`all`, `project`) are ignored for members.
 */
export function useListView(opts: { isAdmin: boolean; sortKeys: readonly string[]; defaultSort: string }) {
  const [params, setParams] = useSearchParams();
  const rawSort = params.get('sort') ?? '';
  const sort = opts.sortKeys.includes(rawSort) ? rawSort : opts.defaultSort;
  const rawDir = params.get('dir');
  const limit = positive(params.get('limit'), DEFAULT_PAGE_SIZE);
  const view: ListView = {
    q: params.get('q') ?? '',
    status: params.get('status') ?? '',
    zone: params.get('zone') ?? '',
    shared: yesNo(params.get('shared')),
    attached: yesNo(params.get('attached')),
    project: opts.isAdmin ? (params.get('project') ?? '') : '',
    all: opts.isAdmin && params.get('all') === '1',
    sort,
    dir: rawDir === 'asc' || rawDir === 'desc' ? rawDir : defaultDir(sort),
    limit: (LIST_PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
    page: positive(params.get('page'), 1),
    marker: params.get('marker') ?? '',
  };

  const write = (next: ListView) =>
    setParams(() => {
      const p = new URLSearchParams();
      if (next.q) p.set('q', next.q);
      if (next.status) p.set('status', next.status);
      if (next.zone) p.set('zone', next.zone);
      if (next.shared) p.set('shared', next.shared);
      if (next.attached) p.set('attached', next.attached);
      if (next.project) p.set('project', next.project);
      if (next.all) p.set('all', '1');
      if (next.sort !== opts.defaultSort) p.set('sort', next.sort);
      if (next.dir !== defaultDir(next.sort)) p.set('dir', next.dir);
      if (next.limit !== DEFAULT_PAGE_SIZE) p.set('limit', String(next.limit));
      if (next.page > 1) p.set('page', String(next.page));
      if (next.marker && next.page > 1) p.set('marker', next.marker);
      return p;
    });

  return {
    view,
    /** A new search, filter, order or page size: back to page 1. */
    change: (c: ViewChange) => write({ ...view, ...c, page: 1, marker: '' }),
    /** Page `page`, starting after `marker` when known (else the BFF skips the pages before). */
    goTo: (page: number, marker = '') => write({ ...view, page, marker }),
  };
}

/** The BFF query for a view: only what differs from the defaults. */
export function viewQuery(view: ListView): string {
  const p = new URLSearchParams();
  if (view.q.trim()) p.set('q', view.q.trim());
  if (view.status) p.set('status', view.status);
  if (view.zone) p.set('zone', view.zone);
  if (view.shared) p.set('shared', view.shared);
  if (view.attached) p.set('attached', view.attached);
  if (view.project) p.set('project', view.project);
  else if (view.all) p.set('all', '1');
  p.set('sort', view.sort);
  p.set('dir', view.dir);
  p.set('limit', String(view.limit));
  p.set('page', String(view.page));
  if (view.marker && view.page > 1) p.set('marker', view.marker);
  return p.toString();
}
