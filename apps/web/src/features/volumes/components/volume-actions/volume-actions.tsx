import type { Capabilities, Volume, VolumeType } from '@sv/shared';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { ConfirmDialog, Dialog } from '../../../../components/ui/dialog';
import { ErrorMessage } from '../../../../components/ui/error-message';
import { Field, fieldAria, inputClass } from '../../../../components/ui/field';
import { isTransitional } from '../../../../components/ui/status';
import { useVolumeTypes } from '../../api/get-volume-types';
import { useExtendVolume, useRetypeVolume, useSetVolumeBootable } from '../../api/volume-actions';
import { liveHold } from '../holds';

const MAX_GB = 16_384;

/** Why the volume cannot be extended now, or null (the cloud still decides). */
export function extendBlock(v: Volume, caps: Capabilities): string | null {
  if (v.sizeGb >= MAX_GB) return `It is already ${MAX_GB.toLocaleString('en-US')} GB, the largest size.`;
  if (isTransitional(v.status)) return `It is ${v.status} right now; wait until that finishes.`;
  if (v.status === 'in-use' && caps.volume && !versionAtLeast(caps.volume.maxVersion, '3.42')) {
    return `This cloud's block storage API stops at ${caps.volume.maxVersion}; extending an attached volume needs 3.42. Detach it first.`;
  }
  if (v.status !== 'available' && v.status !== 'in-use')
    return `A volume that is ${v.status} cannot be extended.`;
  return null;
}

/** Why the type cannot be changed now, or null. */
export function retypeBlock(v: Volume): string | null {
  if (isTransitional(v.status)) return `It is ${v.status} right now; wait until that finishes.`;
  if (v.status !== 'available' && v.status !== 'in-use')
    return `A volume that is ${v.status} cannot change type.`;
  return null;
}

/** What changing from the volume's type to `to` means for sharing, or why the cloud will refuse it. */
export function retypeConsequence(
  v: Volume,
  to: VolumeType | undefined,
): { text: string; blocked: boolean } | null {
  if (!to || to.shared === v.shared) return null;
  const attached = v.attachments.some(liveHold) || v.status !== 'available';
  if (attached) {
    return {
      blocked: true,
      text: to.shared
        ? 'The volume becomes shared (multiattach) only while it is detached: the cloud refuses this change for a volume that is attached. Detach it first.'
        : 'A shared volume stops being shared only while it is detached: the cloud refuses this change for a volume that is attached. Detach it from every server first.',
    };
  }
  return {
    blocked: false,
    text: to.shared
      ? 'The volume becomes shared (multiattach): several servers can then hold it at once. Two writers need a cluster file system, or data will be corrupted.'
      : 'The volume stops being shared: from then on only one server can hold it at a time.',
  };
}

function versionAtLeast(version: string, wanted: string): boolean {
  const [am = 0, an = 0] = version.split('.').map(Number);
  const [bm = 0, bn = 0] = wanted.split('.').map(Number);
  return am - bm > 0 || (am === bm && an >= bn);
}

/** Extend, Change type and Bootable on the volume page; each says why when it cannot be used now. */
export function VolumeActions({
  volume: v,
  capabilities,
  onNotice,
}: {
  volume: Volume;
  capabilities: Capabilities;
  onNotice: (text: string) => void;
}) {
  const ids = { extend: useId(), retype: useId(), boot: useId() };
  const [open, setOpen] = useState<'extend' | 'retype' | 'bootable' | null>(null);
  const noExtend = extendBlock(v, capabilities);
  const noRetype = retypeBlock(v);
  const noBoot = isTransitional(v.status) ? `It is ${v.status} right now; wait until that finishes.` : null;
  const close = () => setOpen(null);

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          onClick={() => setOpen('extend')}
          disabled={noExtend !== null}
          aria-describedby={noExtend ? ids.extend : undefined}
        >
          Extend
        </Button>
        <Button
          onClick={() => setOpen('retype')}
          disabled={noRetype !== null}
          aria-describedby={noRetype ? ids.retype : undefined}
        >
          Change type
        </Button>
        <Button
          onClick={() => setOpen('bootable')}
          disabled={noBoot !== null}
          aria-describedby={noBoot ? ids.boot : undefined}
        >
          {v.bootable ? 'Mark not bootable' : 'Mark bootable'}
        </Button>
      </div>
      {noExtend && (
        <p id={ids.extend} className="max-w-md text-right text-sm text-slate-700">
          Extend: {noExtend}
        </p>
      )}
      {noRetype && (
        <p id={ids.retype} className="max-w-md text-right text-sm text-slate-700">
          Change type: {noRetype}
        </p>
      )}
      {noBoot && (
        <p id={ids.boot} className="max-w-md text-right text-sm text-slate-700">
          Bootable: {noBoot}
        </p>
      )}
      {open === 'extend' && <ExtendDialog volume={v} onClose={close} onDone={onNotice} />}
      {open === 'retype' && <RetypeDialog volume={v} onClose={close} onDone={onNotice} />}
      {open === 'bootable' && <BootableDialog volume={v} onClose={close} onDone={onNotice} />}
    </div>
  );
}

interface DialogArgs {
  volume: Volume;
  onClose: () => void;
  onDone: (text: string) => void;
}

function ExtendDialog({ volume: v, onClose, onDone }: DialogArgs) {
  const id = useId();
  const extend = useExtendVolume();
  const min = v.sizeGb + 1;
  const [size, setSize] = useState(String(min));
  const [fieldError, setFieldError] = useState<string | undefined>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(size);
    if (size.trim() === '' || !Number.isInteger(n) || n < min || n > MAX_GB) {
      setFieldError(`Size must be between ${min.toLocaleString('en-US')} and 16,384 GB`);
      return;
    }
    setFieldError(undefined);
    extend.mutate(
      { id: v.id, sizeGb: n },
      {
        onSuccess: () => {
          onDone(`Extending ${v.name || v.id} to ${n} GB; the size updates on its own.`);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="Extend volume"
      description={`${v.name || v.id} is ${v.sizeGb} GB. A volume can grow but never shrink.`}
      busy={extend.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button type="button" onClick={onClose} disabled={extend.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={extend.isPending}>
            {extend.isPending ? 'Extending…' : 'Extend'}
          </Button>
        </>
      }
    >
      <Field label="New size (GB)" id={id} error={fieldError} hint={`From ${min} to 16,384 GB.`}>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={MAX_GB}
          className={inputClass}
          value={size}
          onChange={(e) => setSize(e.target.value)}
          {...fieldAria(id, fieldError, true)}
        />
      </Field>
      {v.status === 'in-use' && (
        <p className="mt-3 text-sm text-slate-700">
          The volume is attached: the servers holding it see the new size once the cloud has extended it.
        </p>
      )}
      {extend.isError && (
        <div className="mt-3">
          <ErrorMessage error={extend.error} />
        </div>
      )}
    </Dialog>
  );
}

function RetypeDialog({ volume: v, onClose, onDone }: DialogArgs) {
  const id = useId();
  const types = useVolumeTypes();
  const retype = useRetypeVolume();
  const others = (types.data ?? []).filter((t) => t.name !== v.type);
  const [chosen, setChosen] = useState('');
  const [moveData, setMoveData] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const target = others.find((t) => t.name === chosen);
  const consequence = retypeConsequence(v, target);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!target) {
      setFieldError('Choose a volume type');
      return;
    }
    setFieldError(undefined);
    retype.mutate(
      { id: v.id, type: target.name, migrationPolicy: moveData ? 'on-demand' : 'never' },
      {
        onSuccess: () => {
          onDone(`Changing ${v.name || v.id} to type ${target.name}; the page updates on its own.`);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="Change volume type"
      description={`${v.name || v.id} is of type ${v.type ?? 'none'}${v.shared ? ' (shared, multiattach)' : ''}.`}
      busy={retype.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button type="button" onClick={onClose} disabled={retype.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={retype.isPending || consequence?.blocked}>
            {retype.isPending ? 'Changing…' : 'Change type'}
          </Button>
        </>
      }
    >
      <Field label="New type" id={id} error={fieldError}>
        <select
          id={id}
          className={inputClass}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          disabled={types.isPending}
          {...fieldAria(id, fieldError)}
        >
          <option value="">{types.isPending ? 'Loading types…' : 'Choose a type'}</option>
          {others.map((t) => (
            <option key={t.id} value={t.name}>
              {t.shared ? `${t.name} (shared, multiattach)` : t.name}
            </option>
          ))}
        </select>
      </Field>
      {types.isError && <ErrorMessage error={types.error} />}
      {consequence && (
        <p
          role="note"
          className={`mt-3 rounded p-2 text-sm ${consequence.blocked ? 'bg-red-50 text-red-900' : 'bg-amber-50 text-amber-950'}`}
        >
          {consequence.text}
        </p>
      )}
      <label className="mt-3 flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={moveData} onChange={(e) => setMoveData(e.target.checked)} />
        Let the cloud move the data to another back end if the new type needs one
      </label>
      {retype.isError && (
        <div className="mt-3">
          <ErrorMessage error={retype.error} />
        </div>
      )}
    </Dialog>
  );
}

function BootableDialog({ volume: v, onClose, onDone }: DialogArgs) {
  const set = useSetVolumeBootable();
  // The change the dialog was opened for: the volume refetches while the request is pending, and
  // the question must not flip to its opposite under the user's eyes.
  const [next] = useState(() => !v.bootable);
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      tone="primary"
      onConfirm={() =>
        set.mutate(
          { id: v.id, bootable: next },
          {
            onSuccess: () => {
              onDone(`${v.name || v.id} is ${next ? 'now bootable' : 'no longer bootable'}.`);
              onClose();
            },
          },
        )
      }
      title={next ? 'Mark volume bootable?' : 'Mark volume not bootable?'}
      confirmLabel={next ? 'Mark bootable' : 'Mark not bootable'}
      pending={set.isPending}
      error={set.isError ? <ErrorMessage error={set.error} /> : undefined}
    >
      <p>
        {next
          ? `Servers can then boot from ${v.name || v.id}. It needs an operating system on it to start.`
          : `New servers can no longer boot from ${v.name || v.id}. Servers already running from it keep running.`}
      </p>
    </ConfirmDialog>
  );
}
