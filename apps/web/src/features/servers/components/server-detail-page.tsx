import type { Attachment, Server, Session } from '@sv/shared';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ModeBadge, StatusBadge } from '../../../components/ui/badge';
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
import { useDeleteServer } from '../api/delete-server';
import { useServer } from '../api/get-server';
import { liveHold } from './holds';

const TRAIL = { list: 'Servers', listPath: '/servers' };

/** Nova attaches volumes only in these statuses (and with no task running). */
const ATTACHABLE = new Set([
  'ACTIVE',
  'PAUSED',
  'SHUTOFF',
  'VERIFY_RESIZE',
  'SOFT_DELETED',
  'SHELVED',
  'SHELVED_OFFLOADED',
]);

/** Why no volume can be attached to this server now, or null. */
export function serverAttachBlock(s: Server): string | null {
  if (s.task) return `The server is busy (${s.task}); wait until that finishes.`;
  if (!ATTACHABLE.has(s.status)) return `A server that is ${s.status} cannot take volumes.`;
  return null;
}

export function ServerDetailPage({ session, slots }: { session: Session; slots: AttachmentSlots }) {
  const { id = '' } = useParams();
  const server = useServer(id);

  if (server.isPending) return <Loading label="Loading the server…" />;
  if (server.isError) {
    return (
      <ResourceLoadFailed
        trail={TRAIL}
        kind="server"
        id={id}
        error={server.error}
        onRetry={() => server.refetch()}
      />
    );
  }
  return <ServerDetail server={server.data} session={session} slots={slots} />;
}

function ServerDetail({
  server: s,
  session,
  slots,
}: {
  server: Server;
  session: Session;
  slots: AttachmentSlots;
}) {
  const navigate = useNavigate();
  const attachHint = useId();
  const [attaching, setAttaching] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useNotice();
  const remove = useDeleteServer();
  const { AttachDialog, DetachButton, BulkDetachDialog } = slots;
  // Bulk detach: the volumes picked; a root disk (or a detach under way) is not pickable.
  const [bulkDetaching, setBulkDetaching] = useState<readonly Attachment[] | null>(null);
  const picks = useRowPicks(
    s.attachments,
    (a) => a.volumeId,
    (a) => slots.detachBlock?.(a) ?? null,
    Boolean(BulkDetachDialog),
  );
  const noAttach = serverAttachBlock(s);
  const live = s.attachments.filter(liveHold);

  return (
    <article aria-labelledby="server-title" className="space-y-6">
      <Breadcrumb trail={TRAIL} name={s.name || s.id} />
      <header className="flex flex-wrap items-start gap-4">
        <div className="mr-auto min-w-0">
          <h1 id="server-title" className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            <span className="break-all">{s.name || s.id}</span>
            <StatusBadge status={s.status} />
            {s.task && <span className="text-sm font-normal text-slate-700">{s.task}</span>}
          </h1>
          <p className="mt-1 font-mono text-xs text-slate-600">{s.id}</p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <div className="flex gap-2">
            <Button
              variant="primary"
              onClick={() => setAttaching(true)}
              disabled={noAttach !== null}
              aria-describedby={noAttach ? attachHint : undefined}
            >
              Attach volume
            </Button>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete server
            </Button>
          </div>
          {noAttach && (
            <p id={attachHint} className="max-w-md text-right text-sm text-slate-700">
              Attach: {noAttach}
            </p>
          )}
        </div>
      </header>

      <p role="status" className={notice ? 'rounded bg-green-50 p-2 text-sm text-green-900' : 'sr-only'}>
        {notice}
      </p>

      {s.fault && (
        <div role="note" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">Fault reported by the cloud</p>
          <p>{s.fault}</p>
        </div>
      )}

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-4">
        <DetailItem label="Flavor">{s.flavor.name ?? s.flavor.id ?? '—'}</DetailItem>
        <DetailItem label="Image">
          {s.image ? (s.image.name ?? s.image.id) : 'Booted from a volume'}
        </DetailItem>
        <DetailItem label="Availability zone">{s.availabilityZone ?? '—'}</DetailItem>
        {session.isAdmin && <DetailItem label="Host">{s.host ?? '—'}</DetailItem>}
        {session.isAdmin && (
          <DetailItem label="Project">
            <ProjectName id={s.projectId} />
          </DetailItem>
        )}
        <DetailItem label="Created">
          <DateTime value={s.createdAt} />
        </DetailItem>
        <DetailItem label="Key pair">{s.keyName ?? 'None'}</DetailItem>
        <DetailItem label="Security groups">
          {s.securityGroups.length > 0 ? [...new Set(s.securityGroups)].join(', ') : 'None'}
        </DetailItem>
      </dl>

      <section aria-labelledby="server-addresses-title" className="space-y-2">
        <h2 id="server-addresses-title" className="text-lg font-semibold">
          Addresses <span className="font-normal text-slate-600">({s.addresses.length})</span>
        </h2>
        {s.addresses.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 bg-white p-3 text-sm text-slate-700">
            {s.status === 'BUILD'
              ? 'No address yet: the server is still being built.'
              : 'This server has no network address: nothing can reach it over the network.'}
          </p>
        ) : (
          <Table caption={`Addresses of server ${s.name || s.id}`}>
            <THead>
              <Th>Network</Th>
              <Th>Address</Th>
              <Th>Kind</Th>
            </THead>
            <TBody>
              {s.addresses.map((a) => (
                <Tr key={`${a.network}-${a.address}`}>
                  <Td className="break-all">{a.network}</Td>
                  <Td className="break-all font-mono text-xs">{a.address}</Td>
                  <Td>
                    {a.type === 'floating' ? 'Floating' : a.type === 'fixed' ? 'Fixed' : '—'} · IPv{a.version}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </section>

      <section aria-labelledby="server-attachments-title" className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="server-attachments-title" className="mr-auto text-lg font-semibold">
            Volumes <span className="font-normal text-slate-600">({live.length})</span>
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
        {s.attachments.length === 0 ? (
          <EmptyState
            title="No volumes attached"
            action={noAttach ? undefined : <Button onClick={() => setAttaching(true)}>Attach volume</Button>}
          >
            Attach a volume read-write, or a shared volume read-only.
          </EmptyState>
        ) : (
          <Table caption={`Volumes attached to server ${s.name || s.id}`}>
            <THead>
              {picks.pickable.length > 0 && (
                <PickAllHeader picks={picks} label="Select every volume that can be detached" />
              )}
              <Th>Volume</Th>
              <Th>Device</Th>
              <Th>Mode</Th>
              <Th>State</Th>
              <Th>Since</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </THead>
            <TBody>
              {s.attachments.map((a) => (
                <Tr key={`${a.volumeId}-${a.attachmentId ?? 'pending'}`}>
                  {picks.pickable.length > 0 && (
                    <PickCell picks={picks} row={a} label={`Select ${a.volumeName || a.volumeId}`} />
                  )}
                  <Td>
                    <Link to={`/volumes/${encodeURIComponent(a.volumeId)}`} className={linkClass}>
                      {a.volumeName || a.volumeId}
                    </Link>
                  </Td>
                  <Td className="font-mono text-xs">{a.device ?? '—'}</Td>
                  <Td>
                    <ModeBadge mode={a.mode} />
                  </Td>
                  <Td>
                    <StatusBadge status={a.state} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <DateTime value={a.since} />
                  </Td>
                  <Td className="text-right">
                    <DetachButton
                      attachment={{ ...a, serverName: a.serverName ?? s.name }}
                      onDetached={() =>
                        setNotice(
                          `Detach of ${a.volumeName || a.volumeId} requested; the list updates on its own.`,
                        )
                      }
                    />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </section>

      {BulkDetachDialog && bulkDetaching && (
        <BulkDetachDialog
          attachments={bulkDetaching.map((a) => ({ ...a, serverName: a.serverName ?? s.name }))}
          onClose={() => setBulkDetaching(null)}
          onDone={picks.clear}
        />
      )}

      <AttachDialog
        open={attaching}
        onClose={() => setAttaching(false)}
        subject={{ kind: 'server', id: s.id, name: s.name || s.id }}
        readOnlyAttach={session.capabilities.readOnlyAttach}
        onAttached={(a) =>
          setNotice(
            `Attach of ${a.volumeName ?? a.volumeId} (${a.mode === 'ro' ? 'read-only' : 'read-write'}) requested; its state below updates on its own.`,
          )
        }
      />
      <ConfirmDialog
        open={deleting}
        onClose={() => {
          setDeleting(false);
          remove.reset();
        }}
        onConfirm={() => remove.mutate(s.id, { onSuccess: () => navigate('/servers', { replace: true }) })}
        title="Delete server?"
        confirmLabel="Delete server"
        pending={remove.isPending}
        error={remove.isError ? <ErrorMessage error={remove.error} /> : undefined}
      >
        <p>
          Delete server <strong>{s.name || s.id}</strong>? It is shut down and removed.
        </p>
        {live.length > 0 && (
          <p className="text-slate-700">
            Its {live.length} attached volume{live.length === 1 ? ' is' : 's are'} detached; volumes set to be
            deleted with the server are deleted too.
          </p>
        )}
      </ConfirmDialog>
    </article>
  );
}
