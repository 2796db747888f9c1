import {
  type Launch,
  type LaunchAction,
  type LaunchServerProgress,
  type Volume,
  HOSTS_HIDDEN_NOTE,
} from '@sv/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { Badge, type BadgeTone, ModeBadge, StatusBadge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading, Spinner } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { ApiRequestError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useLaunch, useLiveUpdatesOpen } from '../api/get-launch';
import { useLaunchAction } from '../api/launch-actions';
import { useProjectVolumes } from '../api/get-launch-catalog';
import { volumeLabel } from './launch-form';

const stateTone: Record<LaunchServerProgress['state'], BadgeTone> = {
  pending: 'slate',
  creating: 'amber',
  building: 'amber',
  attaching: 'amber',
  active: 'green',
  failed: 'red',
};

/** What became of a server the launch created but could not finish, and what to do about it. */
function leftover(s: LaunchServerProgress): string {
  if (s.state === 'active') return '(active)';
  if (s.removal === 'deleted') return '(deleted)';
  if (s.removal === 'deleting') return '(being deleted)';
  if (s.status === 'ERROR') return '(exists in ERROR: delete it)';
  if (s.status === 'ACTIVE') return '(running, without all its volumes: attach them by hand or delete it)';
  return `(exists${s.status ? ` in ${s.status}` : ''}, but did not finish: check it or delete it)`;
}

const serverLink = (id: string) => `/servers/${encodeURIComponent(id)}`;

/** /launches/:id: one row per server, following the launch over the live-update stream until it has finished. */
export function LaunchProgressPage() {
  const { id = '' } = useParams();
  const launch = useLaunch(id);
  const volumes = useProjectVolumes();
  const qc = useQueryClient();
  const status = launch.data?.status;
  const wasRunning = useRef(false);

  // When it ends, the server and volume lists elsewhere are out of date.
  useEffect(() => {
    if (status === 'running') wasRunning.current = true;
    else if (status && wasRunning.current) {
      wasRunning.current = false;
      void qc.invalidateQueries({ queryKey: queryKeys.servers.all });
      void qc.invalidateQueries({ queryKey: queryKeys.volumes.all });
    }
  }, [status, qc]);

  if (launch.isPending) return <Loading label="Loading the launch…" />;
  if (launch.isError) {
    const missing = launch.error instanceof ApiRequestError && launch.error.status === 404;
    return (
      <div className="max-w-xl space-y-3">
        <h1 className="text-2xl font-semibold text-slate-900">Launch</h1>
        <ErrorMessage
          title={missing ? 'There is no such launch in this project' : 'The launch could not be loaded'}
          error={missing ? undefined : launch.error}
          onRetry={missing ? undefined : () => launch.refetch()}
        />
        <Link to="/launch" className={buttonClass('secondary')}>
          Launch servers
        </Link>
      </div>
    );
  }
  return (
    <LaunchProgress
      launch={launch.data}
      volumes={volumes.data?.volumes ?? []}
      stale={launch.isRefetchError}
    />
  );
}

export function LaunchProgress({
  launch,
  volumes,
  stale,
}: {
  launch: Launch;
  volumes: Volume[];
  stale: boolean;
}) {
  const servers = launch.servers;
  const active = servers.filter((s) => s.state === 'active');
  const failed = servers.filter((s) => s.state === 'failed');
  const running = launch.status === 'running';
  const volumeName = (id: string) => {
    const v = volumes.find((x) => x.id === id);
    return v ? volumeLabel(v) : id;
  };
  const r = launch.request;
  const withErrors = servers.some((s) => s.error);
  // Members never see hosts: say once why the column is empty.
  const hostsHidden = servers.some((s) => s.status === 'ACTIVE') && servers.every((s) => s.host === null);
  const title = r.count === 1 ? `Launch of ${r.name}` : `Launch of ${r.count} × ${r.name}`;
  const live = useLiveUpdatesOpen();

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
          <p className="mt-1 text-sm text-slate-700">
            {launch.strategy === 'multi-create'
              ? 'One multi-create request for every server'
              : 'Created one at a time, then attached in turn'}{' '}
            · started {new Date(launch.startedAt).toLocaleString()}
            {launch.finishedAt && ` · finished ${new Date(launch.finishedAt).toLocaleString()}`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/launches" className={buttonClass('secondary')}>
            All launches
          </Link>
          <Link to="/launch" className={buttonClass('secondary')}>
            Launch more servers
          </Link>
        </div>
      </div>

      <Outcome launch={launch} active={active} failed={failed} />
      {!running && failed.length > 0 && <FailedServerActions launch={launch} failed={failed} />}
      {(launch.actions ?? []).length > 0 && <ActionLog actions={launch.actions ?? []} />}
      {stale && (
        <p className="text-sm text-amber-900">
          The latest progress could not be fetched; showing what was known. Retrying…
        </p>
      )}

      <Table caption="Servers in this launch">
        <THead>
          <Th>Server</Th>
          <Th>Progress</Th>
          <Th>Host</Th>
          <Th>Volumes</Th>
          {withErrors && <Th>Problem</Th>}
        </THead>
        <TBody>
          {servers.map((s) => (
            <Tr key={s.index}>
              <Td className="font-medium">
                {s.serverId ? (
                  <Link to={serverLink(s.serverId)} className="text-blue-800 underline">
                    {s.name}
                  </Link>
                ) : (
                  s.name
                )}
              </Td>
              <Td>
                <span className="flex flex-wrap items-center gap-1.5">
                  <Badge tone={stateTone[s.state]}>
                    {['creating', 'building', 'attaching'].includes(s.state) && <Spinner size="sm" />}
                    {s.state}
                  </Badge>
                  {/* Nova's status only where it says more than the progress does. */}
                  {s.status && !sameAsState(s) && <StatusBadge status={s.status} />}
                  {s.removal && <Badge tone="slate">{s.removal}</Badge>}
                </span>
              </Td>
              <Td>
                {s.host ?? (
                  <span className="text-slate-600">
                    —
                    <span className="sr-only">
                      {hostsHidden ? 'shown to administrators only' : 'not placed yet'}
                    </span>
                  </span>
                )}
              </Td>
              <Td>
                {s.attachments.length === 0 ? (
                  <span className="text-slate-600">None</span>
                ) : (
                  <ul className="space-y-1">
                    {s.attachments.map((a) => (
                      <li key={a.volumeId} className="flex flex-wrap items-center gap-1.5">
                        <ModeBadge mode={a.mode} />
                        <span className="break-all">{volumeName(a.volumeId)}</span>
                        <StatusBadge status={a.state} />
                        {a.device && <span className="font-mono text-xs text-slate-700">{a.device}</span>}
                      </li>
                    ))}
                  </ul>
                )}
              </Td>
              {withErrors && <Td className="max-w-xs text-red-800">{s.error}</Td>}
            </Tr>
          ))}
        </TBody>
      </Table>
      {hostsHidden && <p className="text-sm text-slate-600">{HOSTS_HIDDEN_NOTE}</p>}
      {running && (
        <p className="text-sm text-slate-600">
          {live
            ? 'This page updates live as each server finishes.'
            : 'Live updates are not reaching this page; it asks again every few seconds.'}
        </p>
      )}
    </div>
  );
}

/** Whether Nova's status only repeats the progress (BUILD while building, ACTIVE once active or attaching). */
function sameAsState(s: LaunchServerProgress): boolean {
  if (s.status === 'BUILD') return s.state === 'building' || s.state === 'creating';
  if (s.status === 'ACTIVE') return s.state === 'active' || s.state === 'attaching';
  return false;
}

/** One action each: delete the failed servers the cloud still has, or create the failed ones again. */
function FailedServerActions({ launch, failed }: { launch: Launch; failed: LaunchServerProgress[] }) {
  const remove = useLaunchAction(launch.id, 'delete-failed');
  const retry = useLaunchAction(launch.id, 'retry-failed');
  const deletable = failed.filter((s) => s.serverId && s.removal !== 'deleted');
  const busy = remove.isPending || retry.isPending;
  const error = remove.error ?? retry.error;
  return (
    <section aria-labelledby="failed-actions" className="space-y-2 rounded-lg border border-slate-200 p-4">
      <h2 id="failed-actions" className="font-semibold text-slate-900">
        The {failed.length === 1 ? 'failed server' : `${failed.length} failed servers`}
      </h2>
      <p className="text-sm text-slate-700">
        Retrying deletes each failed server the cloud still has and creates it again with this launch's plan
        (name, flavor, volumes and modes); deleting leaves the launch as it is, without them.
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass('primary')}
          disabled={busy}
          onClick={() => retry.mutate()}
        >
          {retry.isPending && <Spinner size="sm" />}
          Retry the failed {failed.length === 1 ? 'one' : 'ones'}
        </button>
        <button
          type="button"
          className={buttonClass('danger')}
          disabled={busy || deletable.length === 0}
          onClick={() => remove.mutate()}
        >
          {remove.isPending && <Spinner size="sm" />}
          Delete the failed {deletable.length === 1 ? 'server' : 'servers'}
          {deletable.length > 0 && ` (${deletable.length})`}
        </button>
      </div>
      {deletable.length === 0 && (
        <p className="text-sm text-slate-600">The cloud has none of the failed servers any more.</p>
      )}
      {error && <ErrorMessage title="That did not work" error={error} />}
    </section>
  );
}

const actionTitle: Record<LaunchAction['kind'], string> = {
  'delete-failed': 'Deleted the failed servers',
  'retry-failed': 'Retried the failed servers',
  resumed: 'Picked up after the dashboard restarted',
  interrupted: 'Interrupted: the dashboard stopped while this launch ran',
};

/** What was done to the launch after it started, newest first, per server. */
function ActionLog({ actions }: { actions: LaunchAction[] }) {
  return (
    <section aria-labelledby="launch-actions" className="space-y-2">
      <h2 id="launch-actions" className="font-semibold text-slate-900">
        What was done
      </h2>
      <ol className="space-y-2 text-sm">
        {[...actions].reverse().map((a) => (
          <li key={`${a.kind}-${a.at}`} className="rounded border border-slate-200 p-3">
            <p className="font-medium">
              {actionTitle[a.kind]} · {new Date(a.at).toLocaleString()}
            </p>
            {a.results.length > 0 && (
              <ul className="mt-1 space-y-0.5">
                {a.results.map((r) => (
                  <li key={r.index} className={r.ok ? 'text-slate-800' : 'text-red-800'}>
                    <span className="font-medium">{r.name}</span>: {r.outcome}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The headline: live progress while running, then what came of it. */
function Outcome({
  launch,
  active,
  failed,
}: {
  launch: Launch;
  active: LaunchServerProgress[];
  failed: LaunchServerProgress[];
}) {
  const n = launch.servers.length;
  const headline = `${active.length} of ${n} ${n === 1 ? 'server' : 'servers'} active`;
  if (launch.status === 'running') {
    const busy = n - active.length - failed.length;
    return (
      <div role="status" className="rounded-lg border border-blue-200 bg-blue-50 p-4 text-blue-900">
        <p className="flex items-center gap-2 font-semibold">
          <Spinner />
          {headline}
          {failed.length > 0 && `, ${failed.length} failed`}
          {busy > 0 && `, ${busy} in progress`}
        </p>
        {/* The headline says it in words; the bar is for the eye. */}
        <div aria-hidden="true" className="mt-3 flex h-2 overflow-hidden rounded-full bg-blue-100">
          <div className="bg-green-700" style={{ width: `${(100 * active.length) / n}%` }} />
          <div className="bg-red-700" style={{ width: `${(100 * failed.length) / n}%` }} />
        </div>
      </div>
    );
  }
  if (launch.status === 'succeeded') {
    const volumesEach = launch.servers[0]?.attachments.length ?? 0;
    const took = launch.finishedAt
      ? Math.max(0, Math.round((Date.parse(launch.finishedAt) - Date.parse(launch.startedAt)) / 1000))
      : null;
    return (
      <div role="status" className="rounded-lg border border-green-300 bg-green-50 p-4 text-green-900">
        <p className="text-lg font-semibold">{headline}</p>
        <p className="mt-1 text-sm">
          {volumesEach > 0 &&
            `Each has its ${volumesEach === 1 ? 'volume' : `${volumesEach} volumes`} attached. `}
          {took !== null && `Done in ${took} s.`}
        </p>
      </div>
    );
  }
  // Partial or failed: what exists now (and may need cleaning up), and what failed and why.
  const created = launch.servers.filter((s) => s.serverId);
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="text-lg font-semibold">
        {headline}; {failed.length} failed
      </p>
      {launch.status === 'interrupted' && <p className="text-sm">{launch.summary}</p>}
      <div className="grid gap-4 text-sm md:grid-cols-2">
        <div>
          <h2 className="font-semibold">Created ({created.length})</h2>
          {created.length === 0 ? (
            <p>No server was created.</p>
          ) : (
            <ul className="mt-1 space-y-1">
              {created.map((s) => (
                <li key={s.index}>
                  <Link to={serverLink(s.serverId!)} className="font-medium text-red-950 underline">
                    {s.name}
                  </Link>{' '}
                  {leftover(s)}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h2 className="font-semibold">Failed ({failed.length})</h2>
          <ul className="mt-1 space-y-1">
            {failed.map((s) => (
              <li key={s.index}>
                <span className="font-medium">{s.name}</span>: {s.error ?? 'no reason given'}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
