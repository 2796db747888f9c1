import type { TopologyQuery } from '@sv/shared';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import type { FilterOption, FilterOptions } from '../hooks/use-filter-options';

const selectClass =
  'mt-1 block w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30';

function FilterSelect(props: {
  label: string;
  value: string | undefined;
  options: FilterOption[];
  anyLabel: string;
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  const { value, options } = props;
  // Keep a value that came from the URL selectable even when no answer listed it yet.
  const all =
    value && !options.some((o) => o.id === value) ? [{ id: value, label: value }, ...options] : options;
  return (
    <div className="min-w-40 flex-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <select
        id={id}
        className={selectClass}
        value={value ?? ''}
        onChange={(e) => props.onChange(e.target.value || undefined)}
      >
        <option value="">{props.anyLabel}</option>
        {all.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface TopologyFiltersProps {
  isAdmin: boolean;
  filters: TopologyQuery;
  options: FilterOptions;
  onFilters: (filters: TopologyQuery) => void;
  search: string;
  onSearch: (search: string) => void;
  /** Drops every filter and the search in one URL change. */
  onClear: () => void;
  /** Matches in the current view; null while the search box is empty. */
  matchCount: number | null;
  onNextMatch?: (() => void) | undefined;
}

/** Project (admins), host and volume narrow what the BFF sends; the search only highlights. */
export function TopologyFilters(props: TopologyFiltersProps) {
  const { filters, options, onFilters } = props;
  const searchId = useId();
  const countId = useId();
  const active = Boolean(filters.project || filters.host || filters.volume || props.search);
  return (
    <search aria-label="Filter the topology" className="flex flex-wrap items-end gap-3">
      {props.isAdmin && (
        <FilterSelect
          label="Project"
          value={filters.project}
          options={options.projects}
          anyLabel="All projects"
          onChange={(project) => onFilters({ ...filters, project })}
        />
      )}
      <FilterSelect
        label="Host"
        value={filters.host}
        options={options.hosts}
        anyLabel="All hosts"
        onChange={(host) => onFilters({ ...filters, host })}
      />
      <FilterSelect
        label="Volume"
        value={filters.volume}
        options={options.volumes}
        anyLabel="All volumes"
        onChange={(volume) => onFilters({ ...filters, volume })}
      />
      <div className="min-w-52 flex-[1.5]">
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
          Find a server, volume or host
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id={searchId}
            type="search"
            className={`${selectClass} mt-0`}
            placeholder="Name or ID"
            value={props.search}
            onChange={(e) => props.onSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && props.onNextMatch) {
                e.preventDefault();
                props.onNextMatch();
              }
            }}
            aria-describedby={props.matchCount === null ? undefined : countId}
          />
          {props.onNextMatch && (
            <Button
              size="sm"
              className="whitespace-nowrap"
              onClick={props.onNextMatch}
              disabled={!props.matchCount}
            >
              Next match
            </Button>
          )}
        </div>
        {props.matchCount !== null && (
          <p id={countId} className="mt-1 text-xs text-slate-700" aria-live="polite">
            {props.matchCount === 0
              ? 'No matches'
              : `${props.matchCount.toLocaleString()} match${props.matchCount === 1 ? '' : 'es'} highlighted`}
          </p>
        )}
      </div>
      {active && (
        <Button size="sm" variant="ghost" className="mb-1" onClick={props.onClear}>
          Clear filters
        </Button>
      )}
    </search>
  );
}
