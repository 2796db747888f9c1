import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateSnapshotRequest,
  type CreateSnapshotRequestInput,
  createSnapshotRequestSchema,
  type Snapshot,
  type Volume,
} from '@sv/shared';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { Field, FormAlert, fieldAria, inputClass } from '../../../../components/ui/field';
import { showSubmitError } from '../../../../lib/form-errors';
import { useCreateSnapshot } from '../../api/snapshots';

const FIELDS = ['name', 'description', 'force'] as const;

export const IN_USE_EXPLAINED =
  'This volume is attached to a server. A snapshot taken now holds only what has reached the disk, as after a power cut: stop writes on the servers (or flush the file system) for a clean copy.';

/** Why a volume cannot be snapshotted now, or null (in use is allowed, with the user's say-so). */
export function snapshotBlock(v: Volume): string | null {
  if (v.status === 'available' || v.status === 'in-use') return null;
  return `A volume that is ${v.status} cannot be snapshotted.`;
}

export function CreateSnapshotDialog({
  volume,
  onClose,
  onCreated,
}: {
  volume: Volume;
  onClose: () => void;
  onCreated?: (snapshot: Snapshot) => void;
}) {
  const base = useId();
  const id = (f: string) => `${base}-${f}`;
  const create = useCreateSnapshot();
  const inUse = volume.status === 'in-use';
  const form = useForm<CreateSnapshotRequestInput, unknown, CreateSnapshotRequest>({
    resolver: zodResolver(createSnapshotRequestSchema),
    mode: 'onChange',
    defaultValues: { name: `${volume.name || 'volume'}-snapshot`, description: undefined, force: false },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    if (inUse && !values.force) {
      form.setError('force', { message: 'Tick this to snapshot a volume that is in use.' });
      return;
    }
    try {
      const snapshot = await create.mutateAsync({ ...values, volumeId: volume.id });
      onCreated?.(snapshot);
      onClose();
    } catch (err) {
      showSubmitError(form.setError, err, FIELDS, 'The snapshot could not be created. Try again.');
    }
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Snapshot ${volume.name || volume.id}`}
      busy={isSubmitting}
      onSubmit={onSubmit}
      footer={
        <>
          <Button onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={isSubmitting}>
            Create snapshot
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <FormAlert message={errors.root?.message} />
        <Field label="Name" id={id('name')} error={errors.name?.message}>
          <input
            id={id('name')}
            className={inputClass}
            autoComplete="off"
            {...fieldAria(id('name'), errors.name?.message)}
            {...form.register('name')}
          />
        </Field>
        <Field label="Description (optional)" id={id('description')} error={errors.description?.message}>
          <textarea
            id={id('description')}
            rows={2}
            className={inputClass}
            {...fieldAria(id('description'), errors.description?.message)}
            {...form.register('description', { setValueAs: (v) => (v === '' ? undefined : v) })}
          />
        </Field>
        {inUse && (
          <div className="flex items-start gap-2 rounded border border-amber-300 bg-amber-50 p-3">
            <input
              id={id('force')}
              type="checkbox"
              className="mt-0.5 h-4 w-4 accent-blue-700"
              aria-describedby={`${id('force-hint')}${errors.force ? ` ${id('force-error')}` : ''}`}
              aria-invalid={errors.force ? true : undefined}
              {...form.register('force')}
            />
            <div className="text-sm">
              <label htmlFor={id('force')} className="font-medium text-slate-900">
                Snapshot it while it is in use
              </label>
              <p id={id('force-hint')} className="text-amber-950">
                {IN_USE_EXPLAINED}
              </p>
              {errors.force && (
                <p id={id('force-error')} className="mt-1 text-red-800">
                  {errors.force.message}
                </p>
              )}
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}
