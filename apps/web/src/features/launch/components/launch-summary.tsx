import type { AttachMode, Volume } from '@sv/shared';
import type { ReactNode } from 'react';
import { ModeBadge, SharedBadge } from '../../../components/ui/badge';
import { useFlavors, useImages } from '../api/get-launch-catalog';
import { useNetworkChoices, useSecurityGroupChoices } from '../api/get-launch-choices';
import { countOf, formatRam, type LaunchFormValues, type StepId, volumeLabel } from './launch-form';

/** The launch as chosen so far, with a way back to each step. */
export function LaunchSummary({
  values,
  volumes,
  onEdit,
  headingLevel = 2,
  compact = false,
}: {
  values: LaunchFormValues;
  volumes: Volume[];
  onEdit?: ((step: StepId) => void) | undefined;
  headingLevel?: 2 | 3;
  /** The narrow side panel: names and modes only. */
  compact?: boolean;
}) {
  const flavors = useFlavors();
  const images = useImages();
  const networkChoices = useNetworkChoices().data;
  const groupChoices = useSecurityGroupChoices().data;
  const count = countOf(values);
  const flavor = flavors.data?.flavors.find((f) => f.id === values.flavorId);
  const volumeById = new Map(volumes.map((v) => [v.id, v]));
  const Heading = `h${headingLevel}` as const;
  const name = values.name.trim();

  const volumeLine = (id: string, mode: AttachMode | undefined) => {
    const v = volumeById.get(id);
    return (
      <span className="inline-flex flex-wrap items-center gap-1.5">
        <span className="break-all">{v ? volumeLabel(v) : id}</span>
        {v?.shared && !compact && <SharedBadge />}
        <ModeBadge mode={mode ?? 'rw'} />
      </span>
    );
  };

  let boot: ReactNode = <Missing />;
  const b = values.boot;
  if (b.source === 'image' && b.imageId) {
    const img = images.data?.images.find((i) => i.id === b.imageId);
    boot = `Image ${img?.name ?? b.imageId}`;
  } else if (b.source === 'volume' && b.volumeId) {
    boot = volumeLine(b.volumeId, b.mode);
  }
  const data = values.dataVolumes ?? [];

  const networkName = (id: string) => {
    const n = networkChoices?.networks.find((x) => x.id === id);
    return n ? n.name || n.id : id;
  };
  const networks: ReactNode =
    values.networks === 'none' ? (
      'No network'
    ) : values.networks === undefined ? (
      networkChoices && (!networkChoices.networkService || networkChoices.networks.length === 0) ? (
        'No network (the cloud has none)'
      ) : (
        "The cloud's choice"
      )
    ) : values.networks.length === 0 ? (
      <Missing />
    ) : (
      values.networks.map(networkName).join(', ')
    );
  const groups =
    values.securityGroups && values.securityGroups.length > 0
      ? values.securityGroups
          .map((id) => groupChoices?.securityGroups.find((g) => g.id === id)?.name ?? id)
          .join(', ')
      : "The project's default";

  const rows: { step: StepId; label: string; value: ReactNode }[] = [
    {
      step: 'details',
      label: 'Servers',
      value: name ? (
        `${Number.isFinite(count) ? count : '?'} × ${name}${Number.isFinite(count) && count > 1 ? `-1…${count}` : ''}`
      ) : (
        <Missing />
      ),
    },
    {
      step: 'flavor',
      label: 'Flavor',
      value: flavor ? `${flavor.name} (${flavor.vcpus} vCPU, ${formatRam(flavor.ramMb)})` : <Missing />,
    },
    { step: 'boot', label: 'Boot', value: boot },
    {
      step: 'data',
      label: 'Data volumes',
      value:
        data.length === 0 ? (
          'None'
        ) : (
          <ul className="space-y-1">
            {data.map((d) => (
              <li key={d.volumeId}>{volumeLine(d.volumeId, d.mode)}</li>
            ))}
          </ul>
        ),
    },
    { step: 'zone', label: 'Zone', value: values.availabilityZone || 'Any zone' },
    { step: 'networks', label: 'Networks', value: networks },
    { step: 'securityGroups', label: 'Security groups', value: groups },
    { step: 'keyPair', label: 'Key pair', value: values.keyName || 'None' },
  ];

  return (
    <section
      aria-labelledby="launch-summary-title"
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <Heading id="launch-summary-title" className="text-sm font-semibold text-slate-900">
        Your launch
      </Heading>
      <dl className="mt-2 divide-y divide-slate-100 text-sm">
        {rows.map((r) => (
          <div key={r.step} className="grid grid-cols-[6.5rem_minmax(0,1fr)_auto] items-start gap-2 py-2">
            <dt className="text-slate-600">{r.label}</dt>
            <dd className="text-slate-900">{r.value}</dd>
            {onEdit && (
              <dd>
                <button
                  type="button"
                  onClick={() => onEdit(r.step)}
                  className="rounded px-1 text-sm font-medium text-blue-800 underline hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-700"
                >
                  Edit<span className="sr-only"> {r.label.toLowerCase()}</span>
                </button>
              </dd>
            )}
          </div>
        ))}
      </dl>
    </section>
  );
}

function Missing() {
  return <span className="text-slate-600">Not chosen yet</span>;
}
