import { type Session, type Volume, volumeSortKeys } from '@sv/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { Badge, ModeBadge, SharedBadge, StatusBadge } from '../../../components/ui/badge';
import { DateTime } from '../../../components/ui/date-time';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { BulkActionDialog } from '../../../components/ui/list/bulk-action-dialog';
import {
  FilterSelect,
  ListFilters,
  ProjectScopeFilters,
  YES_NO,
} from '../../../components/ui/list/list-filters';
import { Pager } from '../../../components/ui/list/pager';
import { SelectionBar } from '../../../components/ui/list/selection-bar';
import { useSelection } from '../../../components/ui/list/selection';
import { SortHeader } from '../../../components/ui/list/sort-header';
import { useListView, viewQuery } from '../../../components/ui/list/use-list-params';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { queryKeys } from '../../../lib/query-keys';
import { useProjectNames } from '../../../lib/use-project-names';
import { deleteVolume } from '../api/delete-volume';
import { useVolumePage, useVolumeZones } from '../api/get-volume-page';
import { holdsSummary, liveHold, serverHold, strayRecord, writerCount } from './holds';

/** How many holders a row names before "+N more"; the detail page lists them all. */
const NAMED_HOLDERS = 3;

/** Cinder's volume statuses a user filters by. */
const STATUSES = [
  'available',
  'in-use',
  'creating',
  'reserved',
  'attaching',
  'detaching',
  'extending',
  'deleting',
  'error',
  'error_deleting',
].map((s) => ({ value: s, label: (s.charAt(0).toUpperCase() + s.slice(1)).replaceAll('_', ' ') }));

/** Why Cinder will refuse to delete this volume, said before trying (it refuses a held volume). */
export function deleteRefusal(v: Volume): string | undefined {
  const holders = v.attachments.filter(liveHold).length;
  if (holders > 0 || v.status === 'in-use') {
    return `Attached to ${holders || 'a'} server${holders > 1 ? 's' : ''}: the cloud refuses to delete it until it is detached`;
  }
  if (['creating', 'attaching', 'detaching', 'reserved', 'extending', 'deleting'].includes(v.status)) {
    return `Status ${v.status}: the cloud refuses to delete it until that finishes`;
  }
  return undefined;
}

/**
 * The volumes list: one page at a time from the cloud, with the view in the URL; tick volumes to
 * delete several with one confirmation that says which the cloud will refuse, and why.
 */
export function VolumesTable({ session, empty }: { session: Session; empty: ReactNode }) {
  const { view, change, goTo } = useListView({
    isAdmin: session.isAdmin,
    sortKeys: volumeSortKeys,
    defaultSort: 'created',
  });
  const page = useVolumePage(viewQuery(view));
  const zones = useVolumeZones();
  const wide = view.all || view.project !== '';
  const names = useProjectNames(session.isAdmin);
  const volumes = page.data?.volumes ?? [];
  const selection = useSelection(volumes.map((v) => v.id));
  const [deleting, setDeleting] = useState<Volume[] | null>(null);
  const qc = useQueryClient();
  const filtered = Boolean(view.q || view.status || view.zone || view.shared || view.attached);

  return (
    <div className="space-y-3">
      <ListFilters view={view} onChange={change} noun="volumes">
        <FilterSelect
          label="Status"
          value={view.status}
          choices={STATUSES}
          onChange={(status) => change({ status })}
        />
        <FilterSelect
          label="Zone"
          value={view.zone}
          choices={(zones.data ?? []).map((z) => ({ value: z.name, label: z.name }))}
          onChange={(zone) => change({ zone })}
        />
        <FilterSelect
          label="Shared"
          value={view.shared}
          choices={YES_NO}
          onChange={(v) => change({ shared: v as '' | 'yes' | 'no' })}
        />
        <FilterSelect
          label="Attached"
          value={view.attached}
          choices={YES_NO}
          onChange={(v) => change({ attached: v as '' | 'yes' | 'no' })}
        />
        {session.isAdmin && <ProjectScopeFilters view={view} onChange={change} projects={names.projects} />}
      </ListFilters>

      <SelectionBar
        count={selection.someOn ? selection.selected.size : 0}
        onDelete={() => setDeleting(volumes.filter((v) => selection.selected.has(v.id)))}
        onClear={selection.clear}
      />

      {page.isPending && <Loading label="Loading volumes…" />}
      {page.isError && (
        <ErrorMessage
          title="The volumes could not be loaded"
          error={page.error}
          onRetry={() => page.refetch()}
        />
      )}
      {page.isSuccess &&
        volumes.length === 0 &&
        (filtered || wide ? (
          <EmptyState title="No volume matches">Try another name or fewer filters.</EmptyState>
        ) : (
          empty
        ))}
      {page.isSuccess && volumes.length > 0 && (
        <Table caption="Volumes">
          <THead>
            <Th className="w-10">
              <input
                type="checkbox"
                aria-label="Select every volume on this page"
                checked={selection.allOn}
                ref={(el) => {
                  if (el) el.indeterminate = selection.someOn && !selection.allOn;
                }}
                onChange={(e) => selection.setAll(e.target.checked)}
                className="h-4 w-4 accent-blue-700"
              />
            </Th>
            <SortHeader column="name" view={view} onChange={change}>
              Name
            </SortHeader>
            <SortHeader column="size" view={view} onChange={change} className="text-right">
              Size
            </SortHeader>
            <SortHeader column="status" view={view} onChange={change}>
              Status
            </SortHeader>
            <Th>Shared</Th>
            <Th>Attached to</Th>
            <Th>Type</Th>
            <Th>Bootable</Th>
            {wide && <Th>Project</Th>}
            <SortHeader column="created" view={view} onChange={change}>
              Created
            </SortHeader>
          </THead>
          <TBody>
            {volumes.map((v) => (
              <VolumeRow
                key={v.id}
                volume={v}
                project={wide ? names.nameOf(v.projectId) : null}
                selected={selection.selected.has(v.id)}
                onSelect={(on) => selection.toggle(v.id, on)}
              />
            ))}
          </TBody>
        </Table>
      )}
      {page.data && (
        <Pager
          page={page.data.page}
          shown={volumes.length}
          noun="volumes"
          onPage={goTo}
          onSize={(limit) => change({ limit })}
        />
      )}

      <BulkActionDialog
        open={deleting !== null}
        onClose={(finished) => {
          setDeleting(null);
          if (finished) selection.clear();
        }}
        title={`Delete ${deleting?.length ?? 0} volume${deleting?.length === 1 ? '' : 's'}?`}
        intro="Each volume and its data are deleted. This cannot be undone. Where the cloud will refuse, the reason is given below."
        items={(deleting ?? []).map((v) => ({ id: v.id, name: v.name, note: deleteRefusal(v) }))}
        confirmLabel={`Delete ${deleting?.length ?? 0}`}
        doneLabel="Deleting"
        run={deleteVolume}
        onFinished={() =>
          Promise.all([
            qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
            qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
          ])
        }
      />
    </div>
  );
}

function VolumeRow({
  volume: v,
  project,
  selected,
  onSelect,
}: {
  volume: Volume;
  project: string | null;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const live = v.attachments.filter(serverHold);
  const strays = v.attachments.filter((a) => liveHold(a) && strayRecord(a)).length;
  const summary = holdsSummary(v.attachments);
  const writers = writerCount(v.attachments);
  return (
    <Tr className={selected ? 'bg-blue-50' : ''}>
      <Td>
        <input
          type="checkbox"
          aria-label={`Select ${v.name || v.id}`}
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
          className="h-4 w-4 accent-blue-700"
        />
      </Td>
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
      <Td className="whitespace-nowrap text-slate-700">
        <DateTime value={v.createdAt} />
      </Td>
    </Tr>
  );
}
