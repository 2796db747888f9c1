import type { Capabilities, Volume } from '@sv/shared';
import { useWatch } from 'react-hook-form';
import { Field, fieldAria, inputClass } from '../../../components/ui/field';
import { useFlavors } from '../api/get-launch-catalog';
import { countOf, errorAt, isMulti, useLaunchForm, volumeLabel } from './launch-form';
import { QuotaPanel } from './quota-panel';

/** Step 1: what the servers are called and how many to launch. */
export function DetailsStep({ capabilities, volumes }: { capabilities: Capabilities; volumes: Volume[] }) {
  const form = useLaunchForm();
  const { errors } = form.formState;
  const [name, rawCount, boot, dataVolumes, flavorId] = useWatch({
    control: form.control,
    name: ['name', 'count', 'boot', 'dataVolumes', 'flavorId'],
  });
  const flavor = useFlavors().data?.flavors.find((f) => f.id === flavorId);
  const count = countOf({ count: rawCount });
  const nameError = errorAt(errors, 'name');
  const countError = errorAt(errors, 'count');

  // Volumes already picked that cannot go on more than one server: say so here, fix it there.
  const chosen = [
    ...(boot.source === 'volume' && boot.volumeId ? [boot.volumeId] : []),
    ...(dataVolumes ?? []).map((d) => d.volumeId),
  ];
  const plain = isMulti(count)
    ? volumes.filter((v) => chosen.includes(v.id) && !v.shared).map(volumeLabel)
    : [];

  const trimmed = name.trim();
  const preview =
    trimmed && !nameError && !countError && Number.isInteger(count) && count >= 1
      ? count === 1
        ? `The server will be called ${trimmed}.`
        : `The servers will be called ${trimmed}-1 … ${trimmed}-${count}.`
      : 'With more than one server, each gets the name followed by -1, -2, …';

  return (
    <div className="grid max-w-xl gap-5">
      <Field
        label="Server name"
        id="launch-name"
        error={nameError}
        hint="Letters, digits, dot, dash and underscore."
      >
        <input
          id="launch-name"
          autoComplete="off"
          className={inputClass}
          {...fieldAria('launch-name', nameError, true)}
          {...form.register('name')}
        />
      </Field>
      <Field label="Number of servers" id="launch-count" error={countError} hint={preview}>
        <input
          id="launch-count"
          type="number"
          inputMode="numeric"
          min={1}
          max={200}
          className={`${inputClass} max-w-32`}
          {...fieldAria('launch-count', countError, true)}
          {...form.register('count', { valueAsNumber: true })}
        />
      </Field>
      {plain.length > 0 && (
        <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          {plain.join(', ')} {plain.length === 1 ? 'is' : 'are'} not shared, so only one server can use{' '}
          {plain.length === 1 ? 'it' : 'them'}. Launch 1 server, or choose shared volumes in the next steps.
        </p>
      )}
      <QuotaPanel count={count} flavor={flavor} />
      <details className="text-sm text-slate-600">
        <summary className="cursor-pointer font-medium text-slate-800">How this cloud launches</summary>
        <p className="mt-1">{capabilities.launchStrategyReason}</p>
      </details>
    </div>
  );
}
