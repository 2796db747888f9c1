import { type Attachment, isLiveHoldState } from '@sv/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useDetachVolume } from '../api/detach-volume';

export interface DetachAttachmentButtonProps {
  attachment: Attachment;
  /** The volume's other holds, to warn when the last writer leaves. */
  otherHolds?: Attachment[];
  onDetached?: (attachment: Attachment) => void;
}

/** The first disk (`/dev/vda`, `/dev/sda`, `/dev/xvda`, `/dev/hda`) is the server's root device. */
export const isRootDevice = (device: string | null | undefined): boolean =>
  !!device && /^\/dev\/(x?vd|sd|hd)a$/.test(device);

/** "Detach" for one attachment, behind a confirmation that says what the server loses. */
export function DetachAttachmentButton({
  attachment,
  otherHolds = [],
  onDetached,
}: DetachAttachmentButtonProps) {
  const [open, setOpen] = useState(false);
  const detach = useDetachVolume();
  const volume = attachment.volumeName || attachment.volumeId;
  const server = attachment.serverName || attachment.serverId;

  if (attachment.state === 'detaching') {
    return <span className="text-sm text-slate-600">Detaching…</span>;
  }
  // Nova refuses: "Cannot detach a root device volume". Say so instead of offering the button.
  if (isRootDevice(attachment.device)) {
    return (
      <span className="text-sm text-slate-700">
        Root disk: the server boots from it, so it cannot be detached. Delete the server to free it.
      </span>
    );
  }

  const others = otherHolds.filter((h) => h.serverId !== attachment.serverId && isLiveHoldState(h.state));
  const lastWriter = attachment.mode === 'rw' && others.length > 0 && others.every((h) => h.mode === 'ro');

  const close = () => {
    setOpen(false);
    detach.reset();
  };
  const confirm = () =>
    detach.mutate(
      { serverId: attachment.serverId, volumeId: attachment.volumeId },
      {
        onSuccess: () => {
          setOpen(false);
          onDetached?.(attachment);
        },
      },
    );

  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`Detach ${volume} from ${server}`}>
        Detach
      </Button>
      <ConfirmDialog
        open={open}
        onClose={close}
        onConfirm={confirm}
        title="Detach volume?"
        confirmLabel="Detach"
        pending={detach.isPending}
        error={detach.isError ? <ErrorMessage error={detach.error} /> : undefined}
      >
        <p>
          Detach volume <strong>{volume}</strong> from server <strong>{server}</strong>
          {attachment.device ? ` (${attachment.device})` : ''}?
        </p>
        <p className="text-slate-700">
          Unmount the disk inside the server first; writes that have not reached the disk are lost.
        </p>
        {lastWriter && (
          <p className="rounded border border-amber-300 bg-amber-50 p-2 text-amber-950">
            This is the volume’s last read-write attachment: the {others.length} remaining{' '}
            {others.length === 1 ? 'server reads' : 'servers read'} it read-only.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
