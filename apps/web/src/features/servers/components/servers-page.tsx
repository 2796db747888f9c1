import type { Server, Session } from '@sv/shared';
import { Link } from 'react-router';
import { AllProjectsToggle, useAllProjectsParam } from '../../../components/ui/all-projects-toggle';
import { StatusBadge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useServers } from '../api/get-servers';
import { holdsOf } from './holds';

export function ServersPage({ session }: { session: Session }) {
  const [all, setAll] = useAllProjectsParam(session.isAdmin);
  const servers = useServers(all);
  const showHost = session.isAdmin;

  return (
    <section aria-labelledby="servers-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 id="servers-title" className="text-2xl font-semibold">
            Servers
          </h1>
          <p className="text-sm text-slate-600">
            {all ? 'Every project in the cloud.' : `Servers in project ${session.project.name}.`}
          </p>
        </div>
        {session.isAdmin && <AllProjectsToggle checked={all} onChange={setAll} />}
        <Link to="/launch" className={buttonClass('primary')}>
          Launch servers
        </Link>
      </div>

      {servers.isPending && <Loading label="Loading servers…" />}
      {servers.isError && (
        <ErrorMessage
          title="The servers could not be loaded"
          error={servers.error}
          onRetry={() => servers.refetch()}
        />
      )}
      {servers.isSuccess && servers.data.length === 0 && (
        <EmptyState
          title={all ? 'There are no servers in the cloud' : 'This project has no servers yet'}
          action={
            <Link to="/launch" className={buttonClass('primary')}>
              Launch servers
            </Link>
          }
        >
          Launch several servers on one shared volume in a single step.
        </EmptyState>
      )}
      {servers.isSuccess && servers.data.length > 0 && (
        <Table caption="Servers">
          <THead>
            <Th>Name</Th>
            <Th>Status</Th>
            <Th>Flavor</Th>
            <Th>Zone</Th>
            {showHost && <Th>Host</Th>}
            <Th>Volumes</Th>
          </THead>
          <TBody>
            {servers.data.map((s) => (
              <ServerRow key={s.id} server={s} showHost={showHost} />
            ))}
          </TBody>
        </Table>
      )}
    </section>
  );
}

function ServerRow({ server: s, showHost }: { server: Server; showHost: boolean }) {
  const holds = holdsOf(s.attachments);
  return (
    <Tr>
      <Td>
        <Link
          to={`/servers/${encodeURIComponent(s.id)}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          {s.name || s.id}
        </Link>
        <span className="block font-mono text-xs text-slate-600">{s.id.slice(0, 8)}</span>
      </Td>
      <Td>
        <span className="flex flex-wrap items-center gap-1">
          <StatusBadge status={s.status} />
          {s.task && <span className="text-xs text-slate-700">{s.task}</span>}
        </span>
      </Td>
      <Td>{s.flavor.name ?? s.flavor.id ?? '—'}</Td>
      <Td>{s.availabilityZone ?? '—'}</Td>
      {showHost && <Td>{s.host ?? '—'}</Td>}
      <Td>{holds.text ?? <span className="text-slate-600">None</span>}</Td>
    </Tr>
  );
}
