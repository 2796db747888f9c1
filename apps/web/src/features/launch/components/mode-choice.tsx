import type { AttachMode, Capabilities } from '@sv/shared';
import { ModeBadge } from '../../../components/ui/badge';

/**
 * Read-write or read-only for one volume. When the cloud cannot attach read-only, that choice
 * stays visible but disabled, with the cloud's reason linked to it.
 */
export function ModeChoice({
  id,
  legend,
  legendHidden = false,
  value,
  onChange,
  readOnlyAttach,
  error,
  compact = false,
}: {
  id: string;
  legend: string;
  legendHidden?: boolean;
  value: AttachMode;
  onChange: (mode: AttachMode) => void;
  readOnlyAttach: Capabilities['readOnlyAttach'];
  error?: string | undefined;
  compact?: boolean;
}) {
  const roOff = !readOnlyAttach.available;
  const reasonId = `${id}-ro-reason`;
  const errorId = `${id}-error`;
  const options: { mode: AttachMode; label: string; help: string }[] = [
    { mode: 'rw', label: 'Read-write', help: 'Each server can change the data.' },
    { mode: 'ro', label: 'Read-only', help: 'Servers can read but never change it: safe to share widely.' },
  ];
  return (
    <fieldset aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend className={legendHidden ? 'sr-only' : 'text-sm font-medium text-slate-800'}>{legend}</legend>
      <div className={compact ? 'flex flex-wrap gap-x-4 gap-y-1' : 'mt-1 grid gap-2 sm:grid-cols-2'}>
        {options.map((o) => {
          const disabled = o.mode === 'ro' && roOff;
          const optionId = `${id}-${o.mode}`;
          return (
            <label
              key={o.mode}
              htmlFor={optionId}
              className={
                compact
                  ? `inline-flex items-center gap-1.5 text-sm ${disabled ? 'cursor-not-allowed text-slate-600' : 'cursor-pointer text-slate-800'}`
                  : `flex gap-2 rounded border p-2 text-sm ${
                      value === o.mode ? 'border-blue-600 bg-blue-50' : 'border-slate-300 bg-white'
                    } ${disabled ? 'cursor-not-allowed bg-slate-100 text-slate-600' : 'cursor-pointer'}`
              }
            >
              <input
                type="radio"
                id={optionId}
                name={id}
                value={o.mode}
                checked={value === o.mode}
                disabled={disabled}
                onChange={() => onChange(o.mode)}
                aria-describedby={disabled ? reasonId : undefined}
                className={compact ? '' : 'mt-0.5'}
              />
              {compact ? (
                o.label
              ) : (
                <span>
                  <span className="flex items-center gap-2 font-medium">
                    {o.label} <ModeBadge mode={o.mode} />
                  </span>
                  <span className="block text-xs text-slate-600">{o.help}</span>
                </span>
              )}
            </label>
          );
        })}
      </div>
      {roOff && (
        <p id={reasonId} className="mt-1 text-xs text-slate-600">
          Read-only is not available. {readOnlyAttach.reason ?? 'This cloud cannot attach volumes read-only.'}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const namesOf = (names: string[]) =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;

/**
 * The two-writers risk: several servers writing one block device at once corrupts an ordinary
 * file system, so read-only for all but one writer is the safe default.
 */
export function WriterRiskNote({
  volumeName,
  newWriters,
  existing,
  boot = false,
  readOnlyAvailable,
}: {
  volumeName: string;
  newWriters: number;
  existing: string[];
  boot?: boolean;
  readOnlyAvailable: boolean;
}) {
  const total = newWriters + existing.length;
  return (
    <div className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
      <p className="font-semibold">
        {total} servers would write to {volumeName} at the same time
      </p>
      <p className="mt-0.5">
        {existing.length > 0 &&
          `It already has ${existing.length === 1 ? 'a read-write holder' : `${existing.length} read-write holders`} (${namesOf(existing)}). `}
        {boot
          ? 'Booting several servers read-write from one disk corrupts it unless the OS is built for a shared root. '
          : 'Ext4, XFS and NTFS are not built for this: without a cluster file system (GFS2, OCFS2) or fencing in your application, data gets corrupted. '}
        {!readOnlyAvailable
          ? 'This cloud cannot attach read-only, so launch one server with it, or go ahead only if your workload coordinates its writes.'
          : boot
            ? 'Choose read-only: every server then boots from the same unchanging disk (keep what they write on a data volume).'
            : 'Choose read-only here, and give write access to one server only (attach it read-write to that server afterwards).'}
      </p>
    </div>
  );
}
