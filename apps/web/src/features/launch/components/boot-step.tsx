import type { AttachMode, Capabilities, Volume } from '@sv/shared';
import { useEffect, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useImages, useProjectVolumes } from '../api/get-launch-catalog';
import {
  countOf,
  errorAt,
  type LaunchFormValues,
  STEPS,
  safeDefaultMode,
  unusableReason,
  useLaunchForm,
  volumeLabel,
  writerRisk,
} from './launch-form';
import { ModeChoice, WriterRiskNote } from './mode-choice';
import { VolumeHolders, VolumeName, VolumeStatus } from './volume-cells';

type Boot = LaunchFormValues['boot'];
const bootFields = STEPS.find((s) => s.id === 'boot')?.fields ?? [];

const formatBytes = (n: number | null) =>
  n === null
    ? '—'
    : n >= 1 << 30
      ? `${(n / (1 << 30)).toFixed(1)} GB`
      : `${Math.max(1, Math.round(n / (1 << 20)))} MB`;

/** Step 3: boot from an image, or from a bootable volume (a shared one for many servers). */
export function BootStep({ readOnlyAttach }: { readOnlyAttach: Capabilities['readOnlyAttach'] }) {
  const form = useLaunchForm();
  const [boot, rawCount] = useWatch({ control: form.control, name: ['boot', 'count'] });
  const count = countOf({ count: rawCount });
  // Switching source and back keeps what was picked on each side.
  const last = useRef({ imageId: '', volumeId: '', mode: 'rw' as AttachMode });
  if (boot.source === 'image') last.current.imageId = boot.imageId;
  else last.current = { ...last.current, volumeId: boot.volumeId, mode: boot.mode ?? 'rw' };

  const setBoot = (next: Boot, validate = true) => {
    form.setValue('boot', next, { shouldDirty: true, shouldTouch: true });
    form.clearErrors('boot');
    if (validate) void form.trigger(bootFields);
  };
  const switchTo = (source: Boot['source']) => {
    if (source === boot.source) return;
    const { imageId, volumeId, mode } = last.current;
    setBoot(source === 'image' ? { source, imageId } : { source, volumeId, mode }, false);
  };

  return (
    <div className="space-y-5">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Boot from</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {(
            [
              ['image', 'An image', 'Each server gets its own new root disk.'],
              [
                'volume',
                'A bootable volume',
                'Every server boots from the volume itself; it must be shared for more than one.',
              ],
            ] as const
          ).map(([source, label, help]) => (
            <label
              key={source}
              htmlFor={`boot-source-${source}`}
              className={`flex max-w-xs cursor-pointer gap-2 rounded border p-2 text-sm ${
                boot.source === source ? 'border-blue-600 bg-blue-50' : 'border-slate-300 bg-white'
              }`}
            >
              <input
                type="radio"
                id={`boot-source-${source}`}
                name="boot-source"
                className="mt-0.5"
                checked={boot.source === source}
                onChange={() => switchTo(source)}
              />
              <span>
                <span className="block font-medium">{label}</span>
                <span className="block text-xs text-slate-600">{help}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {boot.source === 'image' ? (
        <ImagePicker value={boot.imageId} onPick={(imageId) => setBoot({ source: 'image', imageId })} />
      ) : (
        <BootVolumePicker
          boot={boot}
          count={count}
          readOnlyAttach={readOnlyAttach}
          onPick={(v) =>
            setBoot({
              source: 'volume',
              volumeId: v.id,
              mode: safeDefaultMode(v, count, readOnlyAttach.available),
            })
          }
          onMode={(mode) => setBoot({ source: 'volume', volumeId: boot.volumeId, mode })}
        />
      )}
    </div>
  );
}

function ImagePicker({ value, onPick }: { value: string; onPick: (id: string) => void }) {
  const form = useLaunchForm();
  const images = useImages();
  const error = errorAt(form.formState.errors, 'boot.imageId');
  const errorId = 'boot-image-error';
  // The only image there is: chosen already (a second image means a real choice).
  const only = images.data?.images.length === 1 ? images.data.images[0] : undefined;
  const onlyId = only && only.status === 'active' ? only.id : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per image list, not per onPick
  useEffect(() => {
    if (onlyId && value === '') onPick(onlyId);
  }, [onlyId, value]);
  if (images.isPending) return <Loading label="Loading images…" />;
  if (images.isError)
    return (
      <ErrorMessage
        title="The images could not be loaded"
        error={images.error}
        onRetry={() => images.refetch()}
      />
    );
  if (images.data.images.length === 0)
    return (
      <EmptyState title="No images">There is no image to boot from. Boot from a volume instead.</EmptyState>
    );
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium text-slate-800">Image</legend>
      {error && (
        <p id={errorId} className="mb-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <Table caption="Images">
        <THead>
          <Th>Image</Th>
          <Th>Status</Th>
          <Th className="text-right">Size</Th>
        </THead>
        <TBody>
          {images.data.images.map((img) => {
            const id = `image-${img.id}`;
            const inactive = img.status !== 'active';
            return (
              <Tr key={img.id}>
                <Td>
                  <label
                    htmlFor={id}
                    className={`flex items-center gap-2 font-medium ${inactive ? 'cursor-not-allowed text-slate-600' : 'cursor-pointer'}`}
                  >
                    <input
                      type="radio"
                      id={id}
                      name="boot-image"
                      checked={value === img.id}
                      disabled={inactive}
                      onChange={() => onPick(img.id)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? errorId : undefined}
                    />
                    {img.name || img.id}
                  </label>
                </Td>
                <Td>{img.status}</Td>
                <Td className="whitespace-nowrap text-right tabular-nums">{formatBytes(img.sizeBytes)}</Td>
              </Tr>
            );
          })}
        </TBody>
      </Table>
    </fieldset>
  );
}

function BootVolumePicker({
  boot,
  count,
  readOnlyAttach,
  onPick,
  onMode,
}: {
  boot: Extract<Boot, { source: 'volume' }>;
  count: number;
  readOnlyAttach: Capabilities['readOnlyAttach'];
  onPick: (volume: Volume) => void;
  onMode: (mode: AttachMode) => void;
}) {
  const form = useLaunchForm();
  const volumes = useProjectVolumes();
  const { errors } = form.formState;
  const error = errorAt(errors, 'boot.volumeId');
  const errorId = 'boot-volume-error';
  if (volumes.isPending) return <Loading label="Loading volumes…" />;
  if (volumes.isError)
    return (
      <ErrorMessage
        title="The volumes could not be loaded"
        error={volumes.error}
        onRetry={() => volumes.refetch()}
      />
    );

  const candidates = bootCandidates(volumes.data.volumes, count);
  if (candidates.length === 0)
    return (
      <EmptyState
        title="No bootable volumes"
        action={
          <Link to="/volumes" className="font-medium text-blue-800 underline">
            Go to volumes
          </Link>
        }
      >
        Create a volume from an image (a shared volume type lets many servers boot from it), then come back.
      </EmptyState>
    );
  const selected = candidates.find((c) => c.volume.id === boot.volumeId)?.volume;
  const mode = boot.mode ?? 'rw';
  const risk = selected ? writerRisk(selected, mode, count) : null;

  return (
    <div className="space-y-4">
      <fieldset aria-describedby={error ? errorId : undefined}>
        <legend className="mb-2 text-sm font-medium text-slate-800">Bootable volume</legend>
        {error && (
          <p id={errorId} className="mb-2 text-sm text-red-700">
            {error}
          </p>
        )}
        <Table caption="Bootable volumes">
          <THead>
            <Th>Volume</Th>
            <Th>Status</Th>
            <Th className="text-right">Size</Th>
            <Th>Held by</Th>
            <Th>Zone</Th>
          </THead>
          <TBody>
            {candidates.map(({ volume: v, reason }) => {
              const id = `boot-volume-${v.id}`;
              const reasonId = `${id}-reason`;
              const isSelected = v.id === boot.volumeId;
              const off = reason !== null && !isSelected;
              // Until one is picked, the error ("Choose a volume") belongs to every choice.
              const flagged = !!error && (isSelected || !boot.volumeId) && !off;
              const describedBy = [off ? reasonId : null, flagged ? errorId : null].filter(Boolean).join(' ');
              return (
                <Tr key={v.id} className={isSelected ? 'bg-blue-50' : ''}>
                  <Td>
                    <label
                      htmlFor={id}
                      className={`flex items-start gap-2 ${off ? 'cursor-not-allowed text-slate-600' : 'cursor-pointer'}`}
                    >
                      <input
                        type="radio"
                        id={id}
                        name="boot-volume"
                        className="mt-1"
                        checked={isSelected}
                        disabled={off}
                        onChange={() => onPick(v)}
                        aria-invalid={flagged || undefined}
                        aria-describedby={describedBy || undefined}
                      />
                      <span>
                        <VolumeName volume={v} />
                        {reason && (
                          <span id={reasonId} className="block text-xs text-slate-700">
                            {reason}
                          </span>
                        )}
                      </span>
                    </label>
                  </Td>
                  <Td>
                    <VolumeStatus volume={v} />
                  </Td>
                  <Td className="whitespace-nowrap text-right tabular-nums">{v.sizeGb} GB</Td>
                  <Td>
                    <VolumeHolders volume={v} />
                  </Td>
                  <Td>{v.availabilityZone}</Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      </fieldset>
      {selected?.shared && (
        <div className="max-w-2xl space-y-3">
          <ModeChoice
            id="boot-mode"
            legend={`How the servers get ${volumeLabel(selected)}`}
            value={mode}
            onChange={onMode}
            readOnlyAttach={readOnlyAttach}
            error={errorAt(errors, 'boot.mode')}
          />
          {risk && (
            <WriterRiskNote
              volumeName={volumeLabel(selected)}
              newWriters={risk.newWriters}
              existing={risk.existing}
              readOnlyAvailable={readOnlyAttach.available}
              boot
            />
          )}
        </div>
      )}
    </div>
  );
}

/** Bootable volumes, usable ones first (shared before plain), each with why it cannot be used. */
function bootCandidates(volumes: Volume[], count: number) {
  return volumes
    .filter((v) => v.bootable)
    .map((volume) => ({ volume, reason: unusableReason(volume, count) }))
    .sort(
      (a, b) =>
        Number(a.reason !== null) - Number(b.reason !== null) ||
        Number(b.volume.shared) - Number(a.volume.shared) ||
        volumeLabel(a.volume).localeCompare(volumeLabel(b.volume)),
    );
}
