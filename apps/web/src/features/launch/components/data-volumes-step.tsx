import type { AttachMode, Capabilities, Volume } from '@sv/shared';
import { Fragment } from 'react';
import { useWatch } from 'react-hook-form';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useProjectVolumes } from '../api/get-launch-catalog';
import {
  countOf,
  errorAt,
  isMulti,
  safeDefaultMode,
  unusableReason,
  useLaunchForm,
  volumeLabel,
  writerRisk,
} from './launch-form';
import { ModeChoice, WriterRiskNote } from './mode-choice';
import { VolumeHolders, VolumeName, VolumeStatus } from './volume-cells';

/** Step 4: existing volumes every server gets, each read-only or read-write. */
export function DataVolumesStep({ readOnlyAttach }: { readOnlyAttach: Capabilities['readOnlyAttach'] }) {
  const form = useLaunchForm();
  const volumes = useProjectVolumes();
  const [rawCount, boot, watched] = useWatch({
    control: form.control,
    name: ['count', 'boot', 'dataVolumes'],
  });
  const picked = (watched ?? []).map((p) => ({ volumeId: p.volumeId, mode: p.mode ?? 'rw' }));
  const count = countOf({ count: rawCount });
  const { errors } = form.formState;
  const listError = errorAt(errors, 'dataVolumes') ?? errorAt(errors, 'dataVolumes.root');
  const listErrorId = 'data-volumes-error';

  if (volumes.isPending) return <Loading label="Loading volumes…" />;
  if (volumes.isError)
    return (
      <ErrorMessage
        title="The volumes could not be loaded"
        error={volumes.error}
        onRetry={() => volumes.refetch()}
      />
    );

  const bootVolumeId = boot.source === 'volume' ? boot.volumeId : null;
  const all = volumes.data.volumes.filter((v) => v.id !== bootVolumeId);
  const rows = all.map((volume) => ({ volume, reason: unusableReason(volume, count) }));
  // Picked volumes stay in the main table even when they no longer fit, so their error shows there.
  const offered = rows
    .filter((r) => r.reason === null || picked.some((p) => p.volumeId === r.volume.id))
    .sort(
      (a, b) =>
        Number(b.volume.shared) - Number(a.volume.shared) ||
        volumeLabel(a.volume).localeCompare(volumeLabel(b.volume)),
    );
  const others = rows.filter((r) => !offered.includes(r));

  const setPicked = (next: { volumeId: string; mode: AttachMode }[]) =>
    form.setValue('dataVolumes', next, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
  const toggle = (v: Volume, on: boolean) => {
    if (!on) return setPicked(picked.filter((p) => p.volumeId !== v.id));
    setPicked([...picked, { volumeId: v.id, mode: safeDefaultMode(v, count, readOnlyAttach.available) }]);
  };
  const setMode = (volumeId: string, mode: AttachMode) =>
    setPicked(picked.map((p) => (p.volumeId === volumeId ? { ...p, mode } : p)));

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        {isMulti(count)
          ? `You are launching ${count} servers, so only shared (multiattach) volumes can be added.`
          : 'Shared volumes can also go on other servers; a plain one only on this server.'}{' '}
        Adding none is fine.
      </p>
      {listError && (
        <p id={listErrorId} className="text-sm text-red-700">
          {listError}
        </p>
      )}
      {offered.length === 0 ? (
        <EmptyState title={isMulti(count) ? 'No shared volumes to add' : 'No volumes to add'}>
          {isMulti(count)
            ? 'Create a volume of a shared (multiattach) type on the Volumes page to give every server the same data.'
            : 'Create a volume on the Volumes page first, or go on without data volumes.'}
        </EmptyState>
      ) : (
        <Table caption="Volumes to attach to every server">
          <THead>
            <Th>Volume</Th>
            <Th>Status</Th>
            <Th className="text-right">Size</Th>
            <Th>Held by</Th>
            <Th>Access</Th>
          </THead>
          <TBody>
            {offered.map(({ volume: v }) => {
              const index = picked.findIndex((p) => p.volumeId === v.id);
              const pick = picked[index];
              const id = `data-volume-${v.id}`;
              const volumeError = pick ? errorAt(errors, `dataVolumes.${index}.volumeId`) : undefined;
              const modeError = pick ? errorAt(errors, `dataVolumes.${index}.mode`) : undefined;
              const risk = pick ? writerRisk(v, pick.mode, count) : null;
              const described = [volumeError ? `${id}-error` : null, listError ? listErrorId : null].filter(
                Boolean,
              );
              return (
                <Fragment key={v.id}>
                  <Tr className={`${pick ? 'bg-blue-50' : ''} ${volumeError || risk ? 'border-b-0' : ''}`}>
                    <Td>
                      <label htmlFor={id} className="flex cursor-pointer items-start gap-2">
                        <input
                          type="checkbox"
                          id={id}
                          className="mt-1"
                          checked={!!pick}
                          onChange={(e) => toggle(v, e.target.checked)}
                          aria-invalid={volumeError ? true : undefined}
                          aria-describedby={described.join(' ') || undefined}
                        />
                        <VolumeName volume={v} />
                      </label>
                    </Td>
                    <Td>
                      <VolumeStatus volume={v} />
                    </Td>
                    <Td className="whitespace-nowrap text-right tabular-nums">{v.sizeGb} GB</Td>
                    <Td>
                      <VolumeHolders volume={v} />
                    </Td>
                    <Td className="min-w-56">
                      {pick ? (
                        <ModeChoice
                          id={`${id}-mode`}
                          legend={`Access to ${volumeLabel(v)}`}
                          legendHidden
                          compact
                          value={pick.mode}
                          onChange={(mode) => setMode(v.id, mode)}
                          readOnlyAttach={readOnlyAttach}
                          error={modeError}
                        />
                      ) : (
                        <span className="text-slate-600">Not added</span>
                      )}
                    </Td>
                  </Tr>
                  {(volumeError || risk) && (
                    <tr className={pick ? 'bg-blue-50' : ''}>
                      <td colSpan={5} className="px-3 pb-3">
                        {volumeError && (
                          <p id={`${id}-error`} className="text-sm text-red-700">
                            {volumeError}
                          </p>
                        )}
                        {risk && (
                          <WriterRiskNote
                            volumeName={volumeLabel(v)}
                            newWriters={risk.newWriters}
                            existing={risk.existing}
                            readOnlyAvailable={readOnlyAttach.available}
                          />
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </TBody>
        </Table>
      )}
      {others.length > 0 && (
        <details className="rounded border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-800">
            {others.length} {others.length === 1 ? 'volume' : 'volumes'} that cannot be added, and why
          </summary>
          <ul className="mt-2 space-y-1">
            {others.map(({ volume: v, reason }) => (
              <li key={v.id} className="flex flex-wrap items-center gap-2">
                <VolumeName volume={v} />
                <span className="text-slate-700">{reason}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
