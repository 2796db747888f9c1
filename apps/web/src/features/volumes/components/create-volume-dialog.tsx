import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateVolumeRequest,
  createVolumeRequestSchema,
  type Volume,
  type VolumeType,
} from '@sv/shared';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, FormAlert, fieldAria, inputClass } from '../../../components/ui/field';
import { showSubmitError } from '../../../lib/form-errors';
import { useCreateVolume } from '../api/create-volume';
import { useImages } from '../api/get-images';
import { useVolumeTypes } from '../api/get-volume-types';

type FormIn = z.input<typeof createVolumeRequestSchema>;

const GIB = 1024 ** 3;
const FIELDS = ['name', 'description', 'sizeGb', 'type', 'bootable', 'imageId'] as const;

/** How a volume type reads in the picker: the multiattach one says what it is for. */
export function typeLabel(t: VolumeType): string {
  if (t.shared) return t.name === 'multiattach' ? 'Shared (multiattach)' : `Shared (multiattach) · ${t.name}`;
  if (t.name === '__DEFAULT__') return 'Standard (__DEFAULT__)';
  return t.name;
}

// An empty <select> or text box means "not given", which the schema spells undefined.
const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export function CreateVolumeDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated?: (volume: Volume) => void;
}) {
  return open ? <CreateVolumeForm onClose={onClose} onCreated={onCreated} /> : null;
}

function CreateVolumeForm({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated?: ((volume: Volume) => void) | undefined;
}) {
  const base = useId();
  const id = (f: string) => `${base}-${f}`;
  const types = useVolumeTypes();
  const images = useImages();
  const create = useCreateVolume();

  const imageList = images.data ?? [];
  // The image must fit: Cinder refuses a volume smaller than its image.
  const schema = createVolumeRequestSchema.superRefine((v, ctx) => {
    const image = v.bootable && v.imageId ? imageList.find((i) => i.id === v.imageId) : undefined;
    if (image?.sizeBytes && v.sizeGb * GIB < image.sizeBytes) {
      ctx.addIssue({
        code: 'custom',
        path: ['sizeGb'],
        message: `Image ${image.name} needs at least ${Math.ceil(image.sizeBytes / GIB)} GB`,
      });
    }
  });

  const form = useForm<FormIn, unknown, CreateVolumeRequest>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { name: '', description: undefined, sizeGb: 10, type: undefined, bootable: false },
  });
  const { errors, isSubmitting } = form.formState;
  const bootable = useWatch({ control: form.control, name: 'bootable' });
  const typeName = useWatch({ control: form.control, name: 'type' });
  const chosenType = types.data?.find((t) => t.name === typeName);

  const onSubmit = form.handleSubmit(async (values) => {
    const data: CreateVolumeRequest = values.bootable ? values : { ...values, imageId: undefined };
    try {
      const volume = await create.mutateAsync(data);
      onCreated?.(volume);
      onClose();
    } catch (err) {
      showSubmitError(form.setError, err, FIELDS, 'The volume could not be created. Try again.');
    }
  });

  const typeHint = chosenType?.shared
    ? 'Can be attached to several servers at once, each read-write or read-only.'
    : 'Attaches to one server at a time. Choose Shared (multiattach) to attach it to several.';

  return (
    <Dialog
      open
      onClose={onClose}
      title="Create volume"
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
              min={1}
              max={16384}
              step={1}
              className={inputClass}
              {...fieldAria(id('sizeGb'), errors.sizeGb?.message)}
              {...form.register('sizeGb', { valueAsNumber: true })}
            />
          </Field>
          <Field label="Type" id={id('type')} error={errors.type?.message} hint={typeHint}>
            <select
              id={id('type')}
              className={inputClass}
              disabled={types.isPending}
              {...fieldAria(id('type'), errors.type?.message, true)}
              {...form.register('type', { setValueAs: emptyToUndefined })}
            >
              <option value="">{types.isPending ? 'Loading types…' : 'Cloud default'}</option>
              {types.data?.map((t) => (
                <option key={t.id} value={t.name}>
                  {typeLabel(t)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {types.isError && (
          <p className="text-sm text-red-700">
            The volume types could not be loaded; the cloud default is used.
          </p>
        )}
        <Field label="Description (optional)" id={id('description')} error={errors.description?.message}>
          <textarea
            id={id('description')}
            rows={2}
            className={inputClass}
            {...fieldAria(id('description'), errors.description?.message)}
            {...form.register('description', { setValueAs: emptyToUndefined })}
          />
        </Field>
        <div className="flex items-start gap-2">
          <input
            id={id('bootable')}
            type="checkbox"
            className="mt-0.5 h-4 w-4 accent-blue-700"
            aria-describedby={id('bootable-hint')}
            {...form.register('bootable', {
              onChange: (e: { target: { checked: boolean } }) => {
                if (!e.target.checked) form.setValue('imageId', undefined, { shouldValidate: true });
              },
            })}
          />
          <div>
            <label htmlFor={id('bootable')} className="text-sm font-medium text-slate-900">
              Bootable
            </label>
            <p id={id('bootable-hint')} className="text-xs text-slate-600">
              Servers can boot from it. Choose an image to copy onto it, or leave it empty.
            </p>
          </div>
        </div>
        {bootable && (
          <Field
            label="Image"
            id={id('imageId')}
            error={
              errors.imageId?.message ?? (images.isError ? 'The images could not be loaded.' : undefined)
            }
          >
            <select
              id={id('imageId')}
              className={inputClass}
              disabled={images.isPending}
              {...fieldAria(id('imageId'), errors.imageId?.message)}
              {...form.register('imageId', {
                setValueAs: emptyToUndefined,
                onChange: () => form.trigger('sizeGb'),
              })}
            >
              <option value="">
                {images.isPending ? 'Loading images…' : 'No image (empty bootable volume)'}
              </option>
              {imageList.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.name}
                  {i.sizeBytes ? ` (${Math.ceil(i.sizeBytes / GIB)} GB)` : ''}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
    </Dialog>
  );
}
