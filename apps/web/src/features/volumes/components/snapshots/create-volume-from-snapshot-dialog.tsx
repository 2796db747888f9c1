import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateVolumeFromSnapshotRequest,
  createVolumeFromSnapshotRequestSchema,
  type Snapshot,
} from '@sv/shared';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { Field, FormAlert, fieldAria, inputClass } from '../../../../components/ui/field';
import { showSubmitError } from '../../../../lib/form-errors';
import { useCreateVolumeFromSnapshot } from '../../api/snapshots';
import { useVolumeTypes } from '../../api/get-volume-types';
import { typeLabel } from '../create-volume-dialog';

type FormIn = z.input<typeof createVolumeFromSnapshotRequestSchema>;
const FIELDS = ['name', 'sizeGb', 'type'] as const;

/** A new volume holding a snapshot's data: at least the snapshot's size, of a type the cloud allows. */
export function CreateVolumeFromSnapshotDialog({
  snapshot,
  onClose,
  onCreated,
}: {
  snapshot: Snapshot;
  onClose: () => void;
  onCreated?: (volumeId: string, name: string) => void;
}) {
  const base = useId();
  const id = (f: string) => `${base}-${f}`;
  const types = useVolumeTypes();
  const create = useCreateVolumeFromSnapshot();
  const schema = createVolumeFromSnapshotRequestSchema.superRefine((v, ctx) => {
    if (v.sizeGb !== undefined && v.sizeGb < snapshot.sizeGb) {
      ctx.addIssue({
        code: 'custom',
        path: ['sizeGb'],
        message: `Size must be at least the snapshot's ${snapshot.sizeGb} GB`,
      });
    }
  });
  const form = useForm<FormIn, unknown, CreateVolumeFromSnapshotRequest>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: {
      name: `${snapshot.name || 'snapshot'}-volume`,
      sizeGb: snapshot.sizeGb,
      type: undefined,
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const created = await create.mutateAsync({ ...values, snapshotId: snapshot.id });
      onCreated?.(created.volumeId, values.name);
      onClose();
    } catch (err) {
      showSubmitError(form.setError, err, FIELDS, 'The volume could not be created. Try again.');
    }
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title="Create volume from snapshot"
      description={`The new volume starts as a copy of snapshot ${snapshot.name || snapshot.id} (${snapshot.sizeGb} GB).`}
      busy={isSubmitting}
      onSubmit={onSubmit}
      footer={
        <>
          <Button onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={isSubmitting}>
            Create volume
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
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-[10rem_1fr]">
          <Field label="Size (GB)" id={id('sizeGb')} error={errors.sizeGb?.message}>
            <input
              id={id('sizeGb')}
              type="number"
              inputMode="numeric"
              min={snapshot.sizeGb}
              max={16384}
              step={1}
              className={inputClass}
              {...fieldAria(id('sizeGb'), errors.sizeGb?.message)}
              {...form.register('sizeGb', { valueAsNumber: true })}
            />
          </Field>
          <Field
            label="Type"
            id={id('type')}
            error={errors.type?.message}
            hint="A shared (multiattach) type lets several servers hold the new volume."
          >
            <select
              id={id('type')}
              className={inputClass}
              disabled={types.isPending}
              {...fieldAria(id('type'), errors.type?.message, true)}
              {...form.register('type', { setValueAs: (v) => (v === '' ? undefined : v) })}
            >
              <option value="">{types.isPending ? 'Loading types…' : "The snapshot's type"}</option>
              {types.data?.map((t) => (
                <option key={t.id} value={t.name}>
                  {typeLabel(t)}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </div>
    </Dialog>
  );
}
