import type { Snapshot } from '@sv/shared';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { StatusBadge } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { DateTime } from '../../../../components/ui/date-time';
import { ConfirmDialog } from '../../../../components/ui/dialog';
import { ErrorMessage } from '../../../../components/ui/error-message';
import { ProjectName } from '../../../../components/ui/project-name';
import { linkClass } from '../../../../components/ui/resource-page';
import { Table, TBody, Td, Th, THead, Tr } from '../../../../components/ui/table';
import { useDeleteSnapshot } from '../../api/snapshots';
import { CreateVolumeFromSnapshotDialog } from './create-volume-from-snapshot-dialog';

/** Cinder deletes a snapshot only when it is available or in error. */
export function snapshotDeleteBlock(s: Snapshot): string | null {
  return s.status === 'available' || s.status === 'error'
    ? null
    : `A snapshot that is ${s.status} cannot be deleted.`;
}

/** Cinder makes a volume only from an available snapshot. */
export function snapshotRestoreBlock(s: Snapshot): string | null {
  return s.status === 'available' ? null : `A snapshot that is ${s.status} cannot be made into a volume.`;
}

/** Snapshots with their actions: make a volume from one (then open it), delete one (after a confirmation). */
export function SnapshotsTable({
  caption,
  snapshots,
  showVolume = false,
  showProject = false,
  onNotice,
}: {
  caption: string;
  snapshots: Snapshot[];
  /** The Snapshots page names each one's volume; the volume page does not need to. */
  showVolume?: boolean;
  showProject?: boolean;
  onNotice: (notice: string) => void;
}) {
  const navigate = useNavigate();
  const [restoring, setRestoring] = useState<Snapshot | null>(null);
  const [deleting, setDeleting] = useState<Snapshot | null>(null);
  const remove = useDeleteSnapshot();
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  return (
    <>
      <Table caption={caption}>
        <THead>
          <Th>Name</Th>
          {showVolume && <Th>Volume</Th>}
          {showProject && <Th>Project</Th>}
          <Th>Status</Th>
          <Th>Size</Th>
          <Th>Created</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </THead>
        <TBody>
          {snapshots.map((s) => {
            const noRestore = snapshotRestoreBlock(s);
            const noDelete = snapshotDeleteBlock(s);
            const label = s.name || s.id;
            return (
              <Tr key={s.id}>
                <Td>
                  <span className="break-all">{label}</span>
                  {s.description && <span className="block text-xs text-slate-600">{s.description}</span>}
                </Td>
                {showVolume && (
                  <Td>
                    <Link to={`/volumes/${encodeURIComponent(s.volumeId)}`} className={linkClass}>
                      {s.volumeName || s.volumeId}
                    </Link>
                  </Td>
                )}
                {showProject && (
                  <Td>
                    <ProjectName id={s.projectId} />
                  </Td>
                )}
                <Td>
                  <StatusBadge status={s.status} />
                </Td>
                <Td className="whitespace-nowrap">{s.sizeGb} GB</Td>
                <Td className="whitespace-nowrap">
                  <DateTime value={s.createdAt} />
                </Td>
                <Td className="text-right">
                  <span className="inline-flex gap-2">
                    <Button
                      size="sm"
                      onClick={() => setRestoring(s)}
                      disabled={noRestore !== null}
                      title={noRestore ?? undefined}
                      aria-label={`Create volume from snapshot ${label}`}
                    >
                      Create volume
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() => setDeleting(s)}
                      disabled={noDelete !== null}
                      title={noDelete ?? undefined}
                      aria-label={`Delete snapshot ${label}`}
                    >
                      Delete
                    </Button>
                  </span>
                </Td>
              </Tr>
            );
          })}
        </TBody>
      </Table>

      {restoring && (
        <CreateVolumeFromSnapshotDialog
          snapshot={restoring}
          onClose={() => setRestoring(null)}
          onCreated={(volumeId) => navigate(`/volumes/${encodeURIComponent(volumeId)}`)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onClose={closeDelete}
        onConfirm={() => {
          const s = deleting;
          if (!s) return;
          remove.mutate(s.id, {
            onSuccess: () => {
              closeDelete();
              onNotice(`Deleting snapshot ${s.name || s.id}; the list updates on its own.`);
            },
          });
        }}
        title="Delete snapshot?"
        confirmLabel="Delete snapshot"
        pending={remove.isPending}
        error={remove.isError ? <ErrorMessage error={remove.error} /> : undefined}
      >
        <p>
          Delete snapshot <strong>{deleting?.name || deleting?.id}</strong> ({deleting?.sizeGb} GB)? Volumes
          already made from it keep their data.
        </p>
      </ConfirmDialog>
    </>
  );
}
