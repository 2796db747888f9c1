import type { Candidate } from '@sv/shared';
import { useId, useState } from 'react';
import { SharedBadge, StatusBadge } from '../../../components/ui/badge';
import { inputClass } from '../../../components/ui/field';

/** How many holds a volume has and in which modes, e.g. "3 attachments · 2 RW, 1 RO". */
export function holdsText(a: { rw: number; ro: number } | undefined): string | null {
  if (!a || a.rw + a.ro === 0) return null;
  const total = a.rw + a.ro;
  const modes = [a.rw && `${a.rw} RW`, a.ro && `${a.ro} RO`].filter(Boolean).join(', ');
  return `${total} attachment${total === 1 ? '' : 's'} · ${modes}`;
}

/** Filtering helps only once the list is longer than a glance. */
const FILTER_FROM = 7;

/**
 * A radio group of the pre-flight's candidates. Those that cannot attach stay visible,
 * disabled, with the pre-flight's reasons beside them.
 */
export function CandidatePicker({
  kind,
  candidates,
  value,
  onChange,
  error,
}: {
  kind: 'volume' | 'server';
  candidates: Candidate[];
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
}) {
  const base = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? candidates.filter((c) => c.name.toLowerCase().includes(needle) || c.id.startsWith(needle))
    : candidates;
  const ready = shown.filter((c) => c.canAttach);
  const refused = shown.filter((c) => !c.canAttach);
  const errorId = `${base}-error`;

  if (candidates.length === 0) {
    return (
      <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-700">
        {kind === 'volume'
          ? 'This project has no volumes yet. Create one on the Volumes page.'
          : 'This project has no servers yet. Launch some on the Launch page.'}
      </p>
    );
  }

  const row = (c: Candidate) => {
    const id = `${base}-${c.id}`;
    const holds = holdsText(c.attachments);
    const ro = c.canAttach ? c.readOnlyReasons?.[0] : undefined;
    const meta = [
      holds ?? (kind === 'volume' ? 'Not attached' : null),
      ro ? `Read-only not possible: ${ro.message}` : null,
    ]
      .filter(Boolean)
      .join(' — ');
    const describedBy = [
      meta ? `${id}-meta` : null,
      c.canAttach ? null : `${id}-why`,
      error && c.id === value ? errorId : null,
    ]
      .filter(Boolean)
      .join(' ');
    return (
      <li key={c.id}>
        <label
          htmlFor={id}
          className={`flex items-start gap-3 rounded border px-3 py-2 ${
            c.canAttach
              ? `cursor-pointer hover:bg-slate-50 ${c.id === value ? 'border-blue-600 bg-blue-50/50' : 'border-slate-200'}`
              : 'cursor-not-allowed border-slate-200 bg-slate-50'
          }`}
        >
          <input
            id={id}
            type="radio"
            name={`${base}-pick`}
            value={c.id}
            checked={c.id === value}
            disabled={!c.canAttach}
            onChange={() => onChange(c.id)}
            aria-describedby={describedBy}
            className="mt-1 h-4 w-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          />
          <span className="min-w-0 flex-1">
            <span className="flex flex-wrap items-center gap-2">
              <span className={`font-medium ${c.canAttach ? 'text-slate-900' : 'text-slate-700'}`}>
                {c.name || c.id}
              </span>
              <StatusBadge status={c.status} />
              {c.shared && <SharedBadge />}
            </span>
            {meta && (
              <span id={`${id}-meta`} className="mt-0.5 block text-xs text-slate-600">
                {meta}
              </span>
            )}
            {!c.canAttach && (
              <span id={`${id}-why`} className="mt-1 block text-sm text-slate-800">
                <span className="sr-only">Cannot attach: </span>
                {c.reasons.map((r) => (
                  <span key={`${r.code}-${r.message}`} className="block">
                    <span aria-hidden="true" className="mr-1 text-red-700">
                      ⨯
                    </span>
                    {r.message}
                  </span>
                ))}
              </span>
            )}
          </span>
        </label>
      </li>
    );
  };

  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-900">
        {kind === 'volume' ? 'Volume to attach' : 'Server to attach to'}
      </legend>
      {candidates.length >= FILTER_FROM && (
        <div className="mt-2">
          <label htmlFor={`${base}-filter`} className="sr-only">
            Filter {kind}s by name
          </label>
          <input
            id={`${base}-filter`}
            type="search"
            placeholder={`Filter ${kind}s by name`}
            className={inputClass}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        </div>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      <h3 className="mt-3 text-xs font-semibold uppercase tracking-wide text-slate-700">
        Can attach ({ready.length})
      </h3>
      {ready.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          {needle
            ? `No ${kind} that can attach matches “${filter}”.`
            : `No ${kind} can be attached right now.`}
        </p>
      ) : (
        <ul className="mt-1 space-y-1.5">{ready.map(row)}</ul>
      )}
      {refused.length > 0 && (
        <>
          <h3 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-700">
            Cannot attach ({refused.length})
          </h3>
          <ul className="mt-1 space-y-1.5">{refused.map(row)}</ul>
        </>
      )}
    </fieldset>
  );
}
