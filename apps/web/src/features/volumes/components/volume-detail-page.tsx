import { type Attachment, type Capabilities, type Session, type Volume, HOSTS_HIDDEN_NOTE } from '@sv/shared';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge, ModeBadge, SharedBadge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ProjectName } from '../../../components/ui/project-name';
import { DateTime } from '../../../components/ui/date-time';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Breadcrumb, DetailItem, linkClass, ResourceLoadFailed } from '../../../components/ui/resource-page';
import { PickAllHeader, PickCell, useRowPicks } from '../../../components/ui/list/row-picks';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import type { AttachmentSlots } from '../../../lib/attachment-slots';
import { useNotice } from '../../../lib/use-notice';
import { useDeleteVolume } from '../api/delete-volume';
import { useVolume } from '../api/get-volume';
import { liveHold, serverHold, strayRecord, writerCount } from './holds';
import { VolumeSnapshots } from './snapshots/volume-snapshots';
import { VolumeActions } from './volume-actions/volume-actions';

const TRAIL = { list: 'Volumes', listPath: '/volumes' };

const STRAY_EXPLAINED =
  'Not known to the compute service: the block storage service has an attachment record naming this server, but the compute service does not list the volume on it, so the server does not hold it. Anyone who can see a volume can create such a record.';

/** Cinder's reservable statuses (a shared volume can be reserved again: bug 1747985 fixed). */
const ATTACHABLE_PLAIN = new Set(['available', 'downloading']);
const ATTACHABLE_SHARED = new Set(['available', 'in-use', 'downloading', 'reserved']);
/** Cinder deletes a volume only in these statuses. */
const DELETABLE = new Set(['available', 'error', 'error_restoring', 'error_extending', 'error_managing']);

/** Why this volume cannot get another attachment now, or null. */
export function attachBlock(v: Volume, caps: Capabilities): string | null {
  const live = v.attachments.filter(liveHold);
  if (!v.shared && live.length > 0) {
    return 'This volume is not shared (multiattach) and is already attached. Detach it first.';
  }
  if (v.shared && !caps.multiattach) {
    return `This cloud's compute API stops at ${caps.compute.maxVersion}; attaching a shared volume needs 2.60.`;
  }
  const allowed = v.shared ? ATTACHABLE_SHARED : ATTACHABLE_PLAIN;
  if (!allowed.has(v.status)) return `A volume that is ${v.status} cannot be attached.`;
  return null;
}

/** Why this volume cannot be deleted now, or null. */
export function deleteBlock(v: Volume): string | null {
  const live = v.attachments.filter(liveHold);
  if (live.length > 0) {
    return `Attached to ${live.length} server${live.length === 1 ? '' : 's'}. Detach it from every server first.`;
  }
  if (!DELETABLE.has(v.status)) return `A volume that is ${v.status} cannot be deleted.`;
  return null;
}

export function VolumeDetailPage({ session, slots }: { session: Session; slots: AttachmentSlots }) {
  const { id = '' } = useParams();
  const volume = useVolume(id);

  if (volume.isPending) return <Loading label="Loading the volume…" />;
  if (volume.isError) {
    return (
      <ResourceLoadFailed
        trail={TRAIL}
        kind="volume"
        id={id}
        error={volume.error}
        onRetry={() => volume.refetch()}
      />
    );
  }
  return <VolumeDetail volume={volume.data} session={session} slots={slots} />;
}

function VolumeDetail({
  volume: v,
  session,
  slots,
}: {
  volume: Volume;
  session: Session;
  slots: AttachmentSlots;
}) {
  const navigate = useNavigate();
  const ids = { attach: useId(), del: useId() };
  const [attaching, setAttaching] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useNotice();
  const remove = useDeleteVolume();
  const { AttachDialog, DetachButton, BulkDetachDialog } = slots;
  // Bulk detach: the servers picked; rows that cannot be detached are not pickable.
  const [bulkDetaching, setBulkDetaching] = useState<readonly Attachment[] | null>(null);
  const pickBlock = (a: Attachment): string | null =>
    strayRecord(a)
      ? 'Not known to the compute service, which detaches only what it attached.'
      : (slots.detachBlock?.(a) ?? null);
  const picks = useRowPicks(v.attachments, (a) => a.serverId, pickBlock, Boolean(BulkDetachDialog));

  const noAttach = attachBlock(v, session.capabilities);
  const noDelete = deleteBlock(v);
  const live = v.attachments.filter(serverHold);
  const strays = v.attachments.some(strayRecord);
  const writers = writerCount(v.attachments);
  const showHost = session.isAdmin;

  return (
    <article aria-labelledby="volume-title" className="space-y-6">
      <Breadcrumb trail={TRAIL} name={v.name || v.id} />
      <header className="flex flex-wrap items-start gap-4">
        <div className="mr-auto min-w-0">
          <h1 id="volume-title" className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            <span className="break-all">{v.name || v.id}</span>
            <StatusBadge status={v.status} />
            {v.shared && <SharedBadge />}
          </h1>
          <p className="mt-1 font-mono text-xs text-slate-600">{v.id}</p>
        </div>
        <VolumeActions volume={v} capabilities={session.capabilities} onNotice={setNotice} />
        <div className="flex flex-col items-end gap-1">
          <div className="flex gap-2">
            <Button
              variant="primary"
              onClick={() => setAttaching(true)}
              disabled={noAttach !== null}
              aria-describedby={noAttach ? ids.attach : undefined}
            >
              Attach to a server
            </Button>
            <Button
              variant="danger"
              onClick={() => setDeleting(true)}
              disabled={noDelete !== null}
              aria-describedby={noDelete ? ids.del : undefined}
            >
              Delete volume
            </Button>
          </div>
          {noAttach && (
            <p id={ids.attach} className="max-w-md text-right text-sm text-slate-700">
              Attach: {noAttach}
            </p>
          )}
          {noDelete && (
            <p id={ids.del} className="max-w-md text-right text-sm text-slate-700">
              Delete: {noDelete}
            </p>
          )}
        </div>
      </header>

      <p role="status" className={notice ? 'rounded bg-green-50 p-2 text-sm text-green-900' : 'sr-only'}>
        {notice}
      </p>

      {v.shared && writers > 1 && (
        <div role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">{writers} servers write to this volume</p>
          <p>
            Two writers need a cluster file system such as GFS2 or OCFS2; without one, data will be corrupted.
          </p>
        </div>
      )}

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-4">
        <DetailItem label="Size">{v.sizeGb} GB</DetailItem>
        <DetailItem label="Type">{v.type ?? '—'}</DetailItem>
        <DetailItem label="Shared">{v.shared ? 'Yes (multiattach)' : 'No'}</DetailItem>
        <DetailItem label="Bootable">{v.bootable ? 'Yes' : 'No'}</DetailItem>
        <DetailItem label="Availability zone">{v.availabilityZone}</DetailItem>
        <DetailItem label="Created">
          <DateTime value={v.createdAt} />
        </DetailItem>
        {v.readonly && (
          <DetailItem label="Read-only flag">Set on the volume: every attachment is read-only</DetailItem>
        )}
        {session.isAdmin && (
          <DetailItem label="Project">
            <ProjectName id={v.projectId} />
          </DetailItem>
        )}
        {v.description && <DetailItem label="Description">{v.description}</DetailItem>}
      </dl>

      <section aria-labelledby="attachments-title" className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="attachments-title" className="mr-auto text-lg font-semibold">
            Attachments <span className="font-normal text-slate-600">({live.length})</span>
          </h2>
          {picks.pickable.length > 0 && (
            <Button
              variant="danger"
              disabled={picks.picked.length === 0}
              onClick={() => setBulkDetaching(picks.picked)}
            >
              {picks.picked.length > 0 ? `Detach ${picks.picked.length}` : 'Detach selected'}
            </Button>
          )}
        </div>
        {v.attachments.length === 0 ? (
          <EmptyState
            title="Not attached to any server"
            action={
              noAttach ? undefined : <Button onClick={() => setAttaching(true)}>Attach to a server</Button>
            }
          >
            {v.shared
              ? 'Attach it to as many servers as you need, each read-write or read-only.'
              : 'Attach it to one server.'}
          </EmptyState>
        ) : (
          <Table caption={`Servers holding volume ${v.name || v.id}`}>
            <THead>
              {picks.pickable.length > 0 && (
                <PickAllHeader picks={picks} label="Select every server that can be detached" />
              )}
              <Th>Server</Th>
              <Th>Device</Th>
              <Th>Mode</Th>
              {showHost && <Th>Host</Th>}
              <Th>State</Th>
              <Th>Since</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </THead>
            <TBody>
              {v.attachments.map((a) => (
                <Tr key={`${a.serverId}-${a.attachmentId ?? 'pending'}`}>
                  {picks.pickable.length > 0 && (
                    <PickCell picks={picks} row={a} label={`Select ${a.serverName ?? a.serverId}`} />
                  )}
                  <Td>
                    {strayRecord(a) ? (
                      // Not the server's volume: no link to a page that does not list it.
                      <span className="flex flex-wrap items-center gap-2">
                        <span className="break-all">{a.serverName ?? a.serverId}</span>
                        <Badge tone="amber" title={STRAY_EXPLAINED}>
                          not known to the compute service
                        </Badge>
                      </span>
                    ) : (
                      <Link to={`/servers/${encodeURIComponent(a.serverId)}`} className={linkClass}>
                        {a.serverName ?? a.serverId}
                      </Link>
                    )}
                  </Td>
                  <Td className="font-mono text-xs">{a.device ?? '—'}</Td>
                  <Td>
                    <ModeBadge mode={a.mode} />
                  </Td>
                  {showHost && <Td>{a.host ?? '—'}</Td>}
                  <Td>
                    <StatusBadge status={a.state} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <DateTime value={a.since} />
                  </Td>
                  <Td className="text-right">
                    {/* Nova detaches only what it attached. */}
                    {!strayRecord(a) && (
                      <DetachButton
                        attachment={{ ...a, volumeName: a.volumeName ?? v.name }}
                        otherHolds={v.attachments}
                        onDetached={() =>
                          setNotice(
                            `Detach from ${a.serverName ?? a.serverId} requested; the list updates on its own.`,
                          )
                        }
                      />
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
        {strays && <p className="text-sm text-amber-900">{STRAY_EXPLAINED}</p>}
        {!showHost && v.attachments.length > 0 && (
          <p className="text-sm text-slate-600">{HOSTS_HIDDEN_NOTE}</p>
        )}
      </section>

      <VolumeSnapshots volume={v} onNotice={setNotice} />

      {BulkDetachDialog && bulkDetaching && (
        <BulkDetachDialog
          attachments={bulkDetaching.map((a) => ({ ...a, volumeName: a.volumeName ?? v.name }))}
          onClose={() => setBulkDetaching(null)}
          onDone={picks.clear}
        />
      )}

      <AttachDialog
        open={attaching}
        onClose={() => setAttaching(false)}
        subject={{ kind: 'volume', id: v.id, name: v.name || v.id }}
        readOnlyAttach={session.capabilities.readOnlyAttach}
        onAttached={(a) =>
          setNotice(
            `Attach to ${a.serverName ?? a.serverId} (${a.mode === 'ro' ? 'read-only' : 'read-write'}) requested; its state below updates on its own.`,
          )
        }
      />
      <ConfirmDialog
        open={deleting}
        onClose={() => {
          setDeleting(false);
          remove.reset();
        }}
        onConfirm={() =>
          remove.mutate(v.id, {
            onSuccess: () => navigate('/volumes', { replace: true }),
          })
        }
        title="Delete volume?"
        confirmLabel="Delete volume"
        pending={remove.isPending}
        error={remove.isError ? <ErrorMessage error={remove.error} /> : undefined}
      >
        <p>
          Delete volume <strong>{v.name || v.id}</strong> ({v.sizeGb} GB)? Its data is gone for good.
        </p>
      </ConfirmDialog>
    </article>
  );
}
