import type { ReactNode } from 'react';
import { defaultDir, type ListView, type ViewChange } from './use-list-params';

/**
 * A column heading that sorts the list: a button (so it is reached with Tab and pressed with
 * Enter or Space), with `aria-sort` on the heading saying how the list is ordered now.
 */
export function SortHeader({
  column,
  view,
  onChange,
  children,
  className = '',
}: {
  column: string;
  view: ListView;
  onChange: (c: ViewChange) => void;
  children: ReactNode;
  className?: string;
}) {
  const active = view.sort === column;
  const next = active ? (view.dir === 'asc' ? 'desc' : 'asc') : defaultDir(column);
  return (
    <th
      scope="col"
      aria-sort={active ? (view.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      // Positioned: the screen-reader text inside stays within the table's scrolling box.
      className={`relative px-3 py-2 font-semibold ${className}`}
    >
      <button
        type="button"
        onClick={() => onChange({ sort: column, dir: next })}
        className="inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {children}
        <span aria-hidden="true" className={active ? 'text-blue-800' : 'text-slate-400'}>
          {active ? (view.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
        <span className="sr-only">
          {active ? `, sorted ${view.dir === 'asc' ? 'ascending' : 'descending'}; ` : ', '}sort{' '}
          {next === 'asc' ? 'ascending' : 'descending'}
        </span>
      </button>
    </th>
  );
}
