import type { Volume } from '@sv/shared';
import { useWatch } from 'react-hook-form';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, fieldAria, inputClass } from '../../../components/ui/field';
import { Loading } from '../../../components/ui/spinner';
import { useZones } from '../api/get-launch-catalog';
import { errorAt, useLaunchForm, volumeLabel } from './launch-form';

/** Step 5: where the servers run; by default the scheduler decides. */
export function ZoneStep({ volumes }: { volumes: Volume[] }) {
  const form = useLaunchForm();
  const zones = useZones();
  const [zone, boot, picked = []] = useWatch({
    control: form.control,
    name: ['availabilityZone', 'boot', 'dataVolumes'],
  });
  const error = errorAt(form.formState.errors, 'availabilityZone');

  if (zones.isPending) return <Loading label="Loading availability zones…" />;
  if (zones.isError)
    return (
      <ErrorMessage
        title="The availability zones could not be loaded"
        error={zones.error}
        onRetry={() => zones.refetch()}
      />
    );

  // Volumes in another zone than the servers are refused by clouds that forbid cross-zone attach.
  const ids = new Set([
    ...(boot.source === 'volume' ? [boot.volumeId] : []),
    ...picked.map((p) => p.volumeId),
  ]);
  const elsewhere = zone ? volumes.filter((v) => ids.has(v.id) && v.availabilityZone !== zone) : [];

  return (
    <div className="grid max-w-xl gap-4">
      <Field
        label="Availability zone"
        id="launch-zone"
        error={error}
        hint="Any zone lets the scheduler pick a host with room. Pick one to keep the servers together."
      >
        <select
          id="launch-zone"
          className={inputClass}
          {...fieldAria('launch-zone', error, true)}
          {...form.register('availabilityZone', { setValueAs: (v: unknown) => (v === '' ? undefined : v) })}
        >
          <option value="">Any zone</option>
          {zones.data.zones.map((z) => (
            <option key={z.name} value={z.name} disabled={!z.available}>
              {z.available ? z.name : `${z.name} (unavailable)`}
            </option>
          ))}
        </select>
      </Field>
      {elsewhere.length > 0 && (
        <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          {elsewhere.map((v) => `${volumeLabel(v)} is in zone ${v.availabilityZone}`).join('; ')}. Clouds that
          forbid attaching across zones will refuse it for servers in {zone}.
        </p>
      )}
    </div>
  );
}
