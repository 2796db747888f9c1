import type { Ref } from 'react';
import type { ChangeHandler } from 'react-hook-form';

/**
 * The guard rail before a second read-write attachment: says what goes wrong, and asks for an
 * explicit acknowledgement (or offers read-only instead).
 */
export function WritersWarning({
  id,
  count,
  names,
  canSwitchToReadOnly,
  onReadOnly,
  error,
  ref,
  ...checkbox
}: {
  id: string;
  count: number;
  names: string[];
  canSwitchToReadOnly: boolean;
  onReadOnly: () => void;
  error?: string | undefined;
  name: string;
  onChange: ChangeHandler;
  onBlur: ChangeHandler;
  ref: Ref<HTMLInputElement>;
}) {
  const who = names.length > 0 ? names.join(', ') : `${count} server${count === 1 ? '' : 's'}`;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <h3 id={`${id}-title`} className="font-semibold">
        This would add another writer
      </h3>
      <p id={`${id}-text`} className="mt-1">
        The volume is already attached read-write to {who}. Two writers need a cluster file system such as
        GFS2 or OCFS2; without one, data will be corrupted.
      </p>
      <div className="mt-2 flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          ref={ref}
          {...checkbox}
          aria-describedby={error ? `${id}-error` : `${id}-text`}
          aria-invalid={error ? true : undefined}
          className="mt-0.5 h-4 w-4 accent-amber-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        />
        <label htmlFor={id} className="font-medium">
          The servers use a cluster file system; attach read-write anyway
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-red-800">
          {error}
        </p>
      )}
      {canSwitchToReadOnly && (
        <button
          type="button"
          onClick={onReadOnly}
          className="mt-2 rounded text-sm font-medium text-blue-800 underline hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          Attach read-only instead
        </button>
      )}
    </section>
  );
}
