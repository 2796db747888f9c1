import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { AllProjectsToggle } from '../all-projects-toggle';
import { Button } from '../button';
import type { ListView, ViewChange } from './use-list-params';

export interface Choice {
  value: string;
  label: string;
}

/** One labelled filter: a select whose empty choice is "any". */
export function FilterSelect({
  label,
  value,
  choices,
  onChange,
  anyLabel = 'Any',
}: {
  label: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  anyLabel?: string;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 max-w-[14rem] rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-blue-700"
      >
        <option value="">{anyLabel}</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export const YES_NO: readonly Choice[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

/**
 * The search box and filters above a list. The search runs on Enter or the button (each search is
 * a request to the cloud); filters apply at once. "Clear" drops search and filters, not the order.
 */
export function ListFilters({
  view,
  onChange,
  noun,
  children,
}: {
  view: ListView;
  onChange: (c: ViewChange) => void;
  noun: string;
  children: ReactNode;
}) {
  const searchId = useId();
  const [text, setText] = useState(view.q);
  // Back/forward and shared links change the URL: the box follows.
  useEffect(() => setText(view.q), [view.q]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ q: text.trim() });
  };
  const filtered = view.q || view.status || view.zone || view.shared || view.attached || view.project;
  return (
    <div className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3">
      <search className="flex min-w-0 flex-1 basis-64">
        <form onSubmit={submit} className="flex min-w-0 flex-1 items-end gap-2">
          <div className="flex min-w-0 flex-1 flex-col">
            <label htmlFor={searchId} className="text-xs font-medium text-slate-700">
              Search {noun} by name or ID
            </label>
            <input
              id={searchId}
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={255}
              placeholder="Name, part of a name, or ID"
              className="mt-1 w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-blue-700"
            />
          </div>
          <Button type="submit" size="sm">
            Search
          </Button>
        </form>
      </search>
      {children}
      {filtered && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => onChange({ q: '', status: '', zone: '', shared: '', attached: '', project: '' })}
        >
          Clear filters
        </Button>
      )}
    </div>
  );
}

/** An admin's project filter and the every-project switch, the last of a list's filters. */
export function ProjectScopeFilters({
  view,
  onChange,
  projects,
}: {
  view: ListView;
  onChange: (change: ViewChange) => void;
  projects: readonly { id: string; name: string }[];
}) {
  return (
    <>
      <FilterSelect
        label="Project"
        value={view.project}
        anyLabel={view.all ? 'Every project' : 'Mine'}
        choices={projects.map((p) => ({ value: p.id, label: p.name }))}
        onChange={(project) => onChange({ project })}
      />
      <div className="pb-1.5">
        <AllProjectsToggle checked={view.all} onChange={(all) => onChange({ all })} />
      </div>
    </>
  );
}
