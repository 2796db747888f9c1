import type { Launch, Session } from '@sv/shared';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading, Spinner } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useLaunches } from '../api/get-launch';

const outcomeTone: Record<Launch['status'], BadgeTone> = {
  running: 'blue',
  succeeded: 'green',
  partial: 'amber',
  failed: 'red',
  interrupted: 'amber',
};

const outcomeText: Record<Launch['status'], string> = {
  running: 'running',
  succeeded: 'succeeded',
  partial: 'partly failed',
  failed: 'failed',
  interrupted: 'interrupted',
};

/** /launches: the project's past launches, newest first, each with its outcome and a link to it. */
export function LaunchesPage({ session }: { session: Session }) {
  const launches = useLaunches();
  return (
    <section aria-labelledby="launches-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 id="launches-title" className="text-2xl font-semibold">
            Launches
          </h1>
          <p className="text-sm text-slate-600">Launches in project {session.project.name}, newest first.</p>
        </div>
        <Link to="/launch" className={buttonClass('primary')}>
          Launch servers
        </Link>
      </div>
      {launches.isPending && <Loading label="Loading launches…" />}
      {launches.isError && (
        <ErrorMessage
          title="The launches could not be loaded"
          error={launches.error}
          onRetry={() => launches.refetch()}
        />
      )}
      {launches.data &&
        (launches.data.launches.length === 0 ? (
          <EmptyState title="No launches yet">
            Servers launched from this dashboard are listed here.
          </EmptyState>
        ) : (
          <Table caption="Launches">
            <THead>
              <Th>Launch</Th>
              <Th>Outcome</Th>
              <Th>Servers</Th>
              <Th>Started</Th>
              <Th>How</Th>
            </THead>
            <TBody>
              {launches.data.launches.map((l) => (
                <LaunchRow key={l.id} launch={l} />
              ))}
            </TBody>
          </Table>
        ))}
    </section>
  );
}

function LaunchRow({ launch }: { launch: Launch }) {
  const n = launch.servers.length;
  const active = launch.servers.filter((s) => s.state === 'active').length;
  const failed = launch.servers.filter((s) => s.state === 'failed').length;
  const r = launch.request;
  return (
    <Tr>
      <Td className="font-medium">
        <Link to={`/launches/${encodeURIComponent(launch.id)}`} className="text-blue-800 underline">
          {r.count === 1 ? r.name : `${r.count} × ${r.name}`}
        </Link>
      </Td>
      <Td>
        <Badge tone={outcomeTone[launch.status]}>
          {launch.status === 'running' && <Spinner size="sm" />}
          {outcomeText[launch.status]}
        </Badge>
      </Td>
      <Td>
        {active} of {n} active{failed > 0 && `, ${failed} failed`}
      </Td>
      <Td>
        <time dateTime={launch.startedAt}>{new Date(launch.startedAt).toLocaleString()}</time>
      </Td>
      <Td>{launch.strategy === 'multi-create' ? 'one request' : 'one at a time'}</Td>
    </Tr>
  );
}
