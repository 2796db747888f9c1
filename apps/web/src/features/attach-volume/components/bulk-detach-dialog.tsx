import type { Attachment, DetachOutcome } from '@sv/shared';
import { useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useBulkDetach } from '../api/bulk-detach';
import { isRootDevice } from './detach-attachment-button';

export const ROOT_DISK_REASON = 'Root disk: the server boots from it, so it cannot be detached.';

/** Why this attachment cannot be picked for a detach, or null. */
export function detachBlock(a: Attachment): string | null {
  if (isRootDevice(a.device)) return ROOT_DISK_REASON;
  if (a.state === 'detaching') return 'Already detaching.';
  return null;
}

export interface BulkDetachDialogProps {
  attachments: Attachment[];
  onClose: () => void;
  /** Called with the outcomes once the batch is done (the dialog stays open to show them). */
  onDone?: (outcomes: DetachOutcome[]) => void;
}

const keyOf = (a: { serverId: string; volumeId: string }) => `${a.serverId}/${a.volumeId}`;
const labelOf = (a: Attachment) =>
  `${a.volumeName || a.volumeId} from ${a.serverName || a.serverId}${a.device ? ` (${a.device})` : ''}`;

/** "Detach N": one confirmation naming each attachment, then each one's outcome. */
export function BulkDetachDialog({ attachments, onClose, onDone }: BulkDetachDialogProps) {
  const detach = useBulkDetach();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const outcomes = new Map((detach.data ?? []).map((o) => [keyOf(o), o]));
  const finished = detach.isSuccess;
  const refused = (detach.data ?? []).filter((o) => o.outcome === 'refused').length;
  const n = attachments.length;

  const confirm = () =>
    detach.mutate(
      { items: attachments.map((a) => ({ serverId: a.serverId, volumeId: a.volumeId })) },
      { onSuccess: (o) => onDone?.(o) },
    );

  return (
    <Dialog
      open
      onClose={onClose}
      title={finished ? 'Detach finished' : `Detach ${n} attachment${n === 1 ? '' : 's'}?`}
      busy={detach.isPending}
      initialFocus={cancelRef}
      footer={
        finished ? (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button ref={cancelRef} onClick={onClose} disabled={detach.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirm} loading={detach.isPending}>
              Detach {n}
            </Button>
          </>
        )
      }
    >
      <div className="space-y-3 text-sm text-slate-800">
        {!finished && (
          <p className="text-slate-700">
            Unmount each disk inside its server first; writes that have not reached the disk are lost.
          </p>
        )}
        {finished && (
          <p role="status">
            {refused === 0
              ? `All ${n} detached.`
              : `${n - refused} of ${n} detached; the cloud refused ${refused}.`}
          </p>
        )}
        <ul
          aria-label="Attachments to detach"
          className="divide-y divide-slate-200 rounded border border-slate-200"
        >
          {attachments.map((a) => {
            const o = outcomes.get(keyOf(a));
            return (
              <li key={keyOf(a)} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 p-2">
                <span className="mr-auto break-all">{labelOf(a)}</span>
                {o && <OutcomeText outcome={o} />}
              </li>
            );
          })}
        </ul>
        {detach.isError && <ErrorMessage error={detach.error} />}
      </div>
    </Dialog>
  );
}

function OutcomeText({ outcome: o }: { outcome: DetachOutcome }) {
  if (o.outcome === 'detached') return <span className="font-medium text-green-800">Detached</span>;
  if (o.outcome === 'detaching')
    return <span className="text-slate-700">Still detaching; the page updates on its own</span>;
  return <span className="text-red-800">Refused: {o.message}</span>;
}
