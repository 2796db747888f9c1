import { type Server, type Session, serverSortKeys } from '@sv/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
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
import { deleteServer } from '../api/delete-server';
import { useServerPage, useServerZones } from '../api/get-server-page';
import { holdsOf } from './holds';

/** Nova's server statuses a user filters by. */
const STATUSES = [
  'ACTIVE',
  'BUILD',
  'ERROR',
  'SHUTOFF',
  'PAUSED',
  'SUSPENDED',
  'SHELVED',
  'SHELVED_OFFLOADED',
  'RESCUE',
  'REBOOT',
].map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase().replaceAll('_', ' ') }));

const linkClass =
  'font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700';

/**
 * The servers list: one page at a time from the cloud, searched, filtered and sorted there, with
 * the view in the URL; tick servers to delete several with one confirmation.
 */
export function ServersTable({ session }: { session: Session }) {
  const { view, change, goTo } = useListView({
    isAdmin: session.isAdmin,
    sortKeys: serverSortKeys,
    defaultSort: 'created',
  });
  const page = useServerPage(viewQuery(view));
  const zones = useServerZones();
  const wide = view.all || view.project !== '';
  const names = useProjectNames(session.isAdmin);
  const servers = page.data?.servers ?? [];
  const selection = useSelection(servers.map((s) => s.id));
  const [deleting, setDeleting] = useState<Server[] | null>(null);
  const qc = useQueryClient();
  const showHost = session.isAdmin;
  const filtered = Boolean(view.q || view.status || view.zone || view.attached);

  return (
    <div className="space-y-3">
      <ListFilters view={view} onChange={change} noun="servers">
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
          label="Has volumes"
          value={view.attached}
          choices={YES_NO}
          onChange={(v) => change({ attached: v as '' | 'yes' | 'no' })}
        />
        {session.isAdmin && <ProjectScopeFilters view={view} onChange={change} projects={names.projects} />}
      </ListFilters>

      <SelectionBar
        count={selection.someOn ? selection.selected.size : 0}
        onDelete={() => setDeleting(servers.filter((s) => selection.selected.has(s.id)))}
        onClear={selection.clear}
      />

      {page.isPending && <Loading label="Loading servers…" />}
      {page.isError && (
        <ErrorMessage
          title="The servers could not be loaded"
          error={page.error}
          onRetry={() => page.refetch()}
        />
      )}
      {page.isSuccess && servers.length === 0 && (
        <EmptyState
          title={
            filtered
              ? 'No server matches'
              : wide
                ? 'There are no servers here'
                : 'This project has no servers yet'
          }
          action={
            filtered ? undefined : (
              <Link to="/launch" className={buttonClass('primary')}>
                Launch servers
              </Link>
            )
          }
        >
          {filtered
            ? 'Try another name or fewer filters.'
            : 'Launch several servers on one shared volume in a single step.'}
        </EmptyState>
      )}
      {page.isSuccess && servers.length > 0 && (
        <Table caption="Servers">
          <THead>
            <Th className="w-10">
              <input
                type="checkbox"
                aria-label="Select every server on this page"
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
            <SortHeader column="status" view={view} onChange={change}>
              Status
            </SortHeader>
            <Th>Flavor</Th>
            <Th>Zone</Th>
            {showHost && <Th>Host</Th>}
            <Th>Volumes</Th>
            {wide && <Th>Project</Th>}
            <SortHeader column="created" view={view} onChange={change}>
              Created
            </SortHeader>
          </THead>
          <TBody>
            {servers.map((s) => (
              <ServerRow
                key={s.id}
                server={s}
                showHost={showHost}
                project={wide ? names.nameOf(s.projectId) : null}
                selected={selection.selected.has(s.id)}
                onSelect={(on) => selection.toggle(s.id, on)}
              />
            ))}
          </TBody>
        </Table>
      )}
      {page.data && (
        <Pager
          page={page.data.page}
          shown={servers.length}
          noun="servers"
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
        title={`Delete ${deleting?.length ?? 0} server${deleting?.length === 1 ? '' : 's'}?`}
        intro="Each server is deleted: its volumes are detached (a volume set to go with its server is deleted too). This cannot be undone."
        items={(deleting ?? []).map((s) => {
          const holds = holdsOf(s.attachments);
          return {
            id: s.id,
            name: s.name,
            note: holds.count > 0 ? `${holds.text}: detached` : undefined,
          };
        })}
        confirmLabel={`Delete ${deleting?.length ?? 0}`}
        doneLabel="Deleting"
        run={deleteServer}
        onFinished={() =>
          Promise.all([
            qc.invalidateQueries({ queryKey: queryKeys.servers.all }),
            qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
            qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
          ])
        }
      />
    </div>
  );
}

function ServerRow({
  server: s,
  showHost,
  project,
  selected,
  onSelect,
}: {
  server: Server;
  showHost: boolean;
  project: string | null;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const holds = holdsOf(s.attachments);
  return (
    <Tr className={selected ? 'bg-blue-50' : ''}>
      <Td>
        <input
          type="checkbox"
          aria-label={`Select ${s.name || s.id}`}
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
          className="h-4 w-4 accent-blue-700"
        />
      </Td>
      <Td>
        <Link to={`/servers/${encodeURIComponent(s.id)}`} className={linkClass}>
          {s.name || s.id}
        </Link>
        <span className="block font-mono text-xs text-slate-600">{s.id.slice(0, 8)}</span>
      </Td>
      <Td>
        <span className="flex flex-wrap items-center gap-1">
          <StatusBadge status={s.status} />
          {s.task && <span className="text-xs text-slate-700">{s.task}</span>}
        </span>
        {s.status === 'ERROR' && s.fault && (
          <span className="mt-1 block text-xs text-red-800">{s.fault}</span>
        )}
      </Td>
      <Td>{s.flavor.name ?? s.flavor.id ?? '—'}</Td>
      <Td>{s.availabilityZone ?? '—'}</Td>
      {showHost && <Td>{s.host ?? '—'}</Td>}
      <Td>{holds.text ?? <span className="text-slate-600">None</span>}</Td>
      {project !== null && <Td>{project}</Td>}
      <Td className="whitespace-nowrap text-slate-700">
        <DateTime value={s.createdAt} />
      </Td>
    </Tr>
  );
}
