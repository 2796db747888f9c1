import { zodResolver } from '@hookform/resolvers/zod';
import {
  ApiErrorCode,
  type Attachment,
  type AttachVolumeRequest,
  attachVolumeRequestSchema,
  type Candidate,
  type Capabilities,
  isServerHold,
} from '@sv/shared';
import { useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { ApiRequestError } from '../../../lib/api-client';
import { useAttachVolume } from '../api/attach-volume';
import { type AttachSubject, usePreflight } from '../api/get-preflight';
import { useVolumeHolders } from '../api/get-volume-holders';
import { CandidatePicker } from './candidate-picker';
import { WritersWarning } from './writers-warning';

export interface AttachVolumeDialogProps {
  open: boolean;
  onClose: () => void;
  /** Where the dialog was opened from: a server (pick a volume) or a volume (pick a server). */
  subject: AttachSubject;
  /** The session's word on read-only attachments (capabilities.readOnlyAttach). */
  readOnlyAttach: Capabilities['readOnlyAttach'];
  /** Called with the new attachment after the BFF accepted it. */
  onAttached?: (attachment: Attachment) => void;
}

// The shared request plus the server, which travels in the URL rather than the body.
const formSchema = attachVolumeRequestSchema.extend({
  serverId: z.string().min(1, 'Choose a server'),
});
type FormIn = z.input<typeof formSchema>;
type FormOut = z.output<typeof formSchema>;

/** Why the chosen candidate cannot be attached read-only, or null when it can. */
export function readOnlyBlock(
  cloud: Capabilities['readOnlyAttach'],
  candidate: Candidate | undefined,
): string | null {
  if (!cloud.available) return cloud.reason ?? 'This cloud cannot attach volumes read-only.';
  const first = candidate?.readOnlyReasons?.[0];
  if (first) return first.message;
  if (candidate?.canAttach && !candidate.canAttachReadOnly) return 'This one cannot be attached read-only.';
  return null;
}

export function AttachVolumeDialog(props: AttachVolumeDialogProps) {
  // Mounted only while open, so every opening starts from a fresh form and a fresh pre-flight.
  return props.open ? <AttachVolumeForm {...props} /> : null;
}

function AttachVolumeForm({ onClose, subject, readOnlyAttach, onAttached }: AttachVolumeDialogProps) {
  const pickField = subject.kind === 'server' ? 'volumeId' : 'serverId';
  const preflight = usePreflight(subject, true);
  const holders = useVolumeHolders(subject.id, subject.kind === 'volume');
  const attach = useAttachVolume();
  /** Writers the BFF named in a 409, which the client could not have known about. */
  const [reportedWriters, setReportedWriters] = useState<string[] | null>(null);
  const ids = { mode: useId(), modeHint: useId(), ack: useId(), submitHint: useId() };

  const candidates = preflight.data?.candidates ?? [];
  const byId = useMemo(() => new Map(candidates.map((c) => [c.id, c])), [candidates]);

  /** The read-write holders of the volume that the new attachment would join. */
  const writersFor = (pick: string): { count: number; names: string[] } => {
    // Nothing to warn about until there is a pair to attach.
    if (!pick) return { count: 0, names: [] };
    if (subject.kind === 'server') {
      const c = byId.get(pick);
      return c?.shared ? { count: c.attachments?.rw ?? 0, names: [] } : { count: 0, names: [] };
    }
    const volume = holders.data;
    if (!volume?.shared) return { count: 0, names: [] };
    // Counted as the BFF counts them: live holds the compute service does not disown.
    const rw = volume.attachments.filter((a) => isServerHold(a) && a.mode === 'rw' && a.serverId !== pick);
    return { count: rw.length, names: rw.map((a) => a.serverName ?? a.serverId) };
  };

  const schema = formSchema.superRefine((v, ctx) => {
    const pick = v[pickField];
    const c = byId.get(pick);
    if (pick && c && !c.canAttach) {
      ctx.addIssue({
        code: 'custom',
        path: [pickField],
        message: c.reasons[0]?.message ?? 'This one cannot be attached.',
      });
    }
    const roBlock = readOnlyBlock(readOnlyAttach, c);
    if (v.mode === 'ro' && roBlock) ctx.addIssue({ code: 'custom', path: ['mode'], message: roBlock });
    const needsAck = (writersFor(pick).count > 0 || reportedWriters !== null) && v.mode !== 'ro';
    if (needsAck && !v.acknowledgeMultipleWriters) {
      ctx.addIssue({
        code: 'custom',
        path: ['acknowledgeMultipleWriters'],
        message: 'Confirm that the servers use a cluster file system, or attach read-only.',
      });
    }
  });

  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: {
      volumeId: subject.kind === 'volume' ? subject.id : '',
      serverId: subject.kind === 'server' ? subject.id : '',
      mode: 'rw',
      acknowledgeMultipleWriters: false,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const pick = useWatch({ control: form.control, name: pickField });
  const mode = useWatch({ control: form.control, name: 'mode' }) ?? 'rw';
  const acknowledged = useWatch({ control: form.control, name: 'acknowledgeMultipleWriters' }) ?? false;

  const chosen = byId.get(pick);
  const roBlock = readOnlyBlock(readOnlyAttach, chosen);
  const writers = writersFor(pick);
  const writerNames = reportedWriters?.length ? reportedWriters : writers.names;
  const needsAck = mode === 'rw' && (writers.count > 0 || reportedWriters !== null);
  const blockedByAck = needsAck && !acknowledged;

  const onPick = (id: string) => {
    form.setValue(pickField, id, { shouldValidate: true, shouldDirty: true });
    // A new choice needs its own acknowledgement, and may not allow read-only.
    form.setValue('acknowledgeMultipleWriters', false);
    setReportedWriters(null);
    form.clearErrors('root');
    if (readOnlyBlock(readOnlyAttach, byId.get(id))) form.setValue('mode', 'rw');
  };

  const onSubmit = form.handleSubmit(async (v) => {
    const data: AttachVolumeRequest = {
      volumeId: v.volumeId,
      mode: v.mode,
      acknowledgeMultipleWriters: v.mode === 'rw' && v.acknowledgeMultipleWriters,
    };
    try {
      const attachment = await attach.mutateAsync({ serverId: v.serverId, data });
      // The BFF answers with what the cloud accepted, without reading names back: the dialog
      // knows them (the subject and the picked candidate), and the page refetches the rest.
      const picked = byId.get(v[pickField])?.name || null;
      const named =
        subject.kind === 'server'
          ? { serverName: subject.name, volumeName: picked }
          : { serverName: picked, volumeName: subject.name };
      onAttached?.({
        ...attachment,
        serverName: attachment.serverName ?? named.serverName,
        volumeName: attachment.volumeName ?? named.volumeName,
      });
      onClose();
    } catch (err) {
      if (err instanceof ApiRequestError) {
        if (err.code === ApiErrorCode.multiple_writers_unacknowledged) {
          setReportedWriters(writerNamesOf(err.details));
          form.setValue('acknowledgeMultipleWriters', false);
        }
        for (const [field, message] of Object.entries(err.fields)) {
          if (field === 'volumeId' || field === 'mode' || field === 'acknowledgeMultipleWriters') {
            form.setError(field, { message });
          }
        }
        form.setError('root', { message: err.message });
      } else {
        form.setError('root', { message: 'The volume could not be attached. Try again.' });
      }
    }
  });

  const noun = subject.kind === 'server' ? 'volume' : 'server';
  const title = subject.kind === 'server' ? 'Attach a volume' : 'Attach to a server';
  const description =
    subject.kind === 'server' ? (
      <>
        Choose a volume for server <strong className="text-slate-900">{subject.name}</strong>.
      </>
    ) : (
      <>
        Choose a server for volume <strong className="text-slate-900">{subject.name}</strong>.
      </>
    );

  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={description}
      size="xl"
      busy={isSubmitting}
      onSubmit={onSubmit}
      footer={
        <>
          {blockedByAck && (
            <p id={ids.submitHint} className="mr-auto self-center text-sm text-slate-700">
              Confirm the writer warning, or attach read-only.
            </p>
          )}
          <Button onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="primary"
            loading={isSubmitting}
            disabled={blockedByAck || !preflight.isSuccess}
            aria-describedby={blockedByAck ? ids.submitHint : undefined}
          >
            {mode === 'ro' ? 'Attach read-only' : 'Attach read-write'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {preflight.isPending && <p className="text-sm text-slate-600">Checking which {noun}s can attach…</p>}
        {preflight.isError && (
          <ErrorMessage
            title={`Cannot tell which ${noun}s can attach`}
            error={preflight.error}
            onRetry={() => preflight.refetch()}
          />
        )}
        {preflight.isSuccess && (
          // Choices on the left; the decisions about them stay in view on the right.
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_19rem]">
            <div>
              <CandidatePicker
                kind={noun}
                candidates={candidates}
                value={pick}
                onChange={onPick}
                error={errors[pickField]?.message}
              />
            </div>
            <div className="space-y-4 lg:sticky lg:top-0 lg:self-start">
              <div>
                <div className="flex items-start gap-2">
                  <input
                    id={ids.mode}
                    type="checkbox"
                    className="mt-0.5 h-4 w-4 rounded border-slate-400 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                    checked={mode === 'ro'}
                    disabled={roBlock !== null}
                    aria-describedby={ids.modeHint}
                    aria-invalid={errors.mode ? true : undefined}
                    onChange={(e) =>
                      form.setValue('mode', e.target.checked ? 'ro' : 'rw', { shouldValidate: true })
                    }
                  />
                  <div>
                    <label
                      htmlFor={ids.mode}
                      className={`text-sm font-medium ${roBlock ? 'text-slate-600' : 'text-slate-900'}`}
                    >
                      Attach read-only
                    </label>
                    <p id={ids.modeHint} className="text-sm text-slate-600">
                      {errors.mode?.message ??
                        (roBlock
                          ? `Not available: ${roBlock}`
                          : 'The server sees the disk as read-only. Any number of servers can read a volume safely.')}
                    </p>
                  </div>
                </div>
              </div>

              {needsAck && (
                <WritersWarning
                  id={ids.ack}
                  count={Math.max(writers.count, writerNames.length, 1)}
                  names={writerNames}
                  canSwitchToReadOnly={roBlock === null}
                  onReadOnly={() => form.setValue('mode', 'ro', { shouldValidate: true })}
                  error={errors.acknowledgeMultipleWriters?.message}
                  {...form.register('acknowledgeMultipleWriters')}
                />
              )}

              {errors.root && (
                <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
                  {errors.root.message}
                </p>
              )}
              {preflight.data.unchecked && preflight.data.unchecked.length > 0 && (
                <div className="rounded border border-slate-200 bg-slate-50 p-3 text-xs text-slate-700">
                  <p className="font-medium text-slate-900">Checked by the cloud when you attach</p>
                  <ul className="mt-1 list-disc pl-5">
                    {preflight.data.unchecked.map((u) => (
                      <li key={u.code}>{u.message}</li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** The writers a 409 multiple_writers_unacknowledged names in its details. */
function writerNamesOf(details: Record<string, unknown> | undefined): string[] {
  const parsed = z
    .object({
      writers: z.array(z.object({ serverId: z.string(), serverName: z.string().nullable().optional() })),
    })
    .safeParse(details);
  return parsed.success ? parsed.data.writers.map((w) => w.serverName ?? w.serverId) : [];
}
