import { LIST_PAGE_SIZES, type ListPage } from '@sv/shared';
import { useId } from 'react';
import { Button } from '../button';

/** "21–40 of 61", or "of 41+" while the cloud has not said how many there are. */
export function rangeText(page: ListPage, shown: number, noun: string): string {
  if (shown === 0) return page.number > 1 ? `No ${noun} on page ${page.number}` : `No ${noun}`;
  const from = (page.number - 1) * page.size + 1;
  const to = from + shown - 1;
  const of = page.total !== null ? page.total.toLocaleString('en') : `${page.atLeast.toLocaleString('en')}+`;
  return `${from.toLocaleString('en')}–${to.toLocaleString('en')} of ${of} ${noun}`;
}

/** Previous / next, where we are, and how many per page. */
export function Pager({
  page,
  shown,
  noun,
  onPage,
  onSize,
}: {
  page: ListPage;
  shown: number;
  noun: string;
  onPage: (page: number, marker?: string) => void;
  onSize: (size: number) => void;
}) {
  const sizeId = useId();
  const pages = page.total !== null ? Math.max(1, Math.ceil(page.total / page.size)) : null;
  return (
    <nav aria-label={`Pages of ${noun}`} className="flex flex-wrap items-center gap-3 text-sm">
      <p className="mr-auto text-slate-700" aria-live="polite">
        {rangeText(page, shown, noun)}
      </p>
      <label htmlFor={sizeId} className="flex items-center gap-2 text-slate-700">
        Per page
        <select
          id={sizeId}
          value={page.size}
          onChange={(e) => onSize(Number(e.target.value))}
          className="rounded border border-slate-300 bg-white px-2 py-1 focus:outline-2 focus:outline-blue-700"
        >
          {LIST_PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <Button size="sm" disabled={page.number <= 1} onClick={() => onPage(page.number - 1)}>
        Previous
      </Button>
      <span className="tabular-nums text-slate-800">
        Page {page.number}
        {pages !== null ? ` of ${pages}` : ''}
      </span>
      <Button
        size="sm"
        disabled={page.nextMarker === null}
        onClick={() => page.nextMarker && onPage(page.number + 1, page.nextMarker)}
      >
        Next
      </Button>
    </nav>
  );
}
