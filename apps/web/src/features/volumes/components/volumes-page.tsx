import type { Session, Volume } from '@sv/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { AllProjectsToggle, useAllProjectsParam } from '../../../components/ui/all-projects-toggle';
import { Badge, ModeBadge, SharedBadge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useVolumes } from '../api/get-volumes';
import { CreateVolumeDialog } from './create-volume-dialog';
import { holdsSummary, liveHold, serverHold, strayRecord, writerCount } from './holds';

/** How many holders a row names before "+N more"; the detail page lists them all. */
const NAMED_HOLDERS = 3;

export function VolumesPage({ session }: { session: Session }) {
  const [all, setAll] = useAllProjectsParam(session.isAdmin);
  const volumes = useVolumes(all);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <section aria-labelledby="volumes-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 id="volumes-title" className="text-2xl font-semibold">
            Volumes
          </h1>
          <p className="text-sm text-slate-600">
            {all ? 'Every project in the cloud.' : `Block volumes in project ${session.project.name}.`}
          </p>
        </div>
        {session.isAdmin && <AllProjectsToggle checked={all} onChange={setAll} />}
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create volume
        </Button>
      </div>

      <p role="status" className={notice ? 'rounded bg-green-50 p-2 text-sm text-green-900' : 'sr-only'}>
        {notice}
      </p>

      {volumes.isPending && <Loading label="Loading volumes…" />}
      {volumes.isError && (
        <ErrorMessage
          title="The volumes could not be loaded"
          error={volumes.error}
          onRetry={() => volumes.refetch()}
        />
      )}
      {volumes.isSuccess && volumes.data.length === 0 && (
        <EmptyState
          title={all ? 'There are no volumes in the cloud' : 'This project has no volumes yet'}
          action={
            <Button variant="primary" onClick={() => setCreating(true)}>
              Create volume
            </Button>
          }
        >
          Create a shared (multiattach) volume to attach it to several servers at once.
        </EmptyState>
      )}
      {volumes.isSuccess && volumes.data.length > 0 && (
        <Table caption="Volumes">
          <THead>
            <Th>Name</Th>
            <Th className="text-right">Size</Th>
            <Th>Status</Th>
            <Th>Shared</Th>
            <Th>Attached to</Th>
            <Th>Type</Th>
            <Th>Bootable</Th>
            {all && <Th>Project</Th>}
          </THead>
          <TBody>
            {volumes.data.map((v) => (
              <VolumeRow key={v.id} volume={v} project={all ? projectName(session, v.projectId) : null} />
            ))}
          </TBody>
        </Table>
      )}

      <CreateVolumeDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(v) => setNotice(`Creating volume ${v.name}. Its status updates here.`)}
      />
    </section>
  );
}

function VolumeRow({ volume: v, project }: { volume: Volume; project: string | null }) {
  const live = v.attachments.filter(serverHold);
  const strays = v.attachments.filter((a) => liveHold(a) && strayRecord(a)).length;
  const summary = holdsSummary(v.attachments);
  const writers = writerCount(v.attachments);
  return (
    <Tr>
      <Td>
        <Link
          to={`/volumes/${encodeURIComponent(v.id)}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          {v.name || v.id}
        </Link>
        <span className="block font-mono text-xs text-slate-600">{v.id.slice(0, 8)}</span>
      </Td>
      <Td className="whitespace-nowrap text-right tabular-nums">{v.sizeGb} GB</Td>
      <Td>
        <StatusBadge status={v.status} />
      </Td>
      <Td>{v.shared ? <SharedBadge /> : <span className="text-slate-600">No</span>}</Td>
      <Td>
        {summary ? (
          <div className="space-y-1">
            <p className="flex flex-wrap items-center gap-2 whitespace-nowrap">
              {summary}
              {v.shared && writers > 1 && (
                <Badge tone="amber" title="Several servers write to this volume">
                  {writers} writers
                </Badge>
              )}
            </p>
            <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700">
              {live.slice(0, NAMED_HOLDERS).map((a) => (
                <li key={`${a.serverId}-${a.attachmentId ?? ''}`} className="flex items-center gap-1">
                  {a.serverName ?? a.serverId.slice(0, 8)}
                  <ModeBadge mode={a.mode} />
                </li>
              ))}
              {live.length > NAMED_HOLDERS && <li>+{live.length - NAMED_HOLDERS} more</li>}
            </ul>
          </div>
        ) : (
          <span className="text-slate-600">Not attached</span>
        )}
        {strays > 0 && (
          <p className="mt-1 text-xs text-amber-900">
            {strays === 1 ? '1 attachment record' : `${strays} attachment records`} not known to the compute
            service
          </p>
        )}
      </Td>
      <Td>{v.type ?? <span className="text-slate-600">—</span>}</Td>
      <Td>{v.bootable ? 'Yes' : 'No'}</Td>
      {project !== null && <Td>{project}</Td>}
    </Tr>
  );
}

/** The project's name when the admin belongs to it, else its id. */
function projectName(session: Session, projectId: string | null): string {
  if (!projectId) return '—';
  return session.projects.find((p) => p.id === projectId)?.name ?? projectId.slice(0, 8);
}
