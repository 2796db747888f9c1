import type { Topology } from '@sv/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import type { TopologyIndex, TopologyRisk } from '../model/topology-model';
import { ClockIcon, WarningIcon } from './icons';

const SHOWN = 20;
const SERVERS_SHOWN = 6;

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

function ServerLinks({ ids, index }: { ids: string[]; index: TopologyIndex }) {
  const shown = ids.slice(0, SERVERS_SHOWN);
  return (
    <>
      {shown.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          {/* A writer outside the filtered view has no name here: a short id still tells them apart. */}
          <Link to={`/servers/${encodeURIComponent(id)}`} className={linkClass} title={id}>
            {index.servers.get(id)?.name ?? `server ${id.slice(0, 8)} (not in view)`}
          </Link>
        </span>
      ))}
      {ids.length > shown.length && ` and ${ids.length - shown.length} more`}
    </>
  );
}

function RiskItem({
  risk,
  index,
  onShow,
}: {
  risk: TopologyRisk;
  index: TopologyIndex;
  onShow: ((volumeId: string, serverIds: string[]) => void) | undefined;
}) {
  const volume = index.volumes.get(risk.volumeId);
  const volumeLink = (
    <Link to={`/volumes/${encodeURIComponent(risk.volumeId)}`} className={linkClass}>
      {volume?.name || risk.volumeId}
    </Link>
  );
  const writers = risk.kind === 'multiple_writers';
  return (
    <li className="border-t border-slate-200 py-2 first:border-t-0">
      <p className="flex items-start gap-1.5 text-sm text-slate-900">
        {writers ? (
          <WarningIcon className="mt-0.5 h-4 w-4 text-red-800" />
        ) : (
          <ClockIcon className="mt-0.5 h-4 w-4 text-red-800" />
        )}
        <span>
          {writers ? (
            <>
              <span className="font-semibold">{risk.serverIds.length} writers</span> on {volumeLink}:{' '}
              <ServerLinks ids={risk.serverIds} index={index} />
            </>
          ) : (
            <>
              <span className="font-semibold">Stuck {risk.state ?? ''}</span>: {volumeLink} on{' '}
              <ServerLinks ids={risk.serverIds} index={index} />
              {risk.since && (
                <span className="text-slate-700">
                  {' '}
                  since <DateTime value={risk.since} />
                </span>
              )}
            </>
          )}
        </span>
      </p>
      <p className="mt-0.5 pl-5 text-xs text-slate-700">{risk.message}</p>
      {onShow && (
        <div className="pl-5">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onShow(risk.volumeId, risk.serverIds)}
            aria-label={`Show volume ${volume?.name || risk.volumeId} in the graph`}
          >
            Show in graph
          </Button>
        </div>
      )}
    </li>
  );
}

function RiskGroup({
  title,
  risks,
  index,
  onShow,
  empty,
}: {
  title: string;
  risks: TopologyRisk[];
  index: TopologyIndex;
  onShow: ((volumeId: string, serverIds: string[]) => void) | undefined;
  empty: string;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? risks : risks.slice(0, SHOWN);
  return (
    <section className="mt-3">
      <h3 className="text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-700">({risks.length.toLocaleString()})</span>
      </h3>
      {risks.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">{empty}</p>
      ) : (
        <ul className="mt-1">
          {shown.map((r) => (
            <RiskItem
              key={`${r.kind}:${r.volumeId}:${r.attachmentId ?? r.serverIds.join(',')}`}
              {...{ risk: r, index, onShow }}
            />
          ))}
        </ul>
      )}
      {risks.length > SHOWN && (
        <Button size="sm" variant="ghost" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${risks.length.toLocaleString()}`}
        </Button>
      )}
    </section>
  );
}

/** Everything risky in view, with links; "Show in graph" frames the volume with its holders. */
export function RiskPanel({
  topology,
  index,
  onShow,
}: {
  topology: Topology;
  index: TopologyIndex;
  onShow?: ((volumeId: string, serverIds: string[]) => void) | undefined;
}) {
  const writers = topology.risks.filter((r) => r.kind === 'multiple_writers');
  const stuck = topology.risks.filter((r) => r.kind === 'stuck_attachment');
  return (
    <section aria-labelledby="risk-panel-title" className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="risk-panel-title" className="font-semibold text-slate-900">
        Risks{' '}
        <span className={topology.risks.length ? 'text-red-800' : 'text-slate-700'}>
          ({topology.risks.length.toLocaleString()})
        </span>
      </h2>
      <RiskGroup
        title="Several writers"
        risks={writers}
        index={index}
        onShow={onShow}
        empty="No volume is attached read-write to more than one server."
      />
      <RiskGroup
        title="Stuck attachments"
        risks={stuck}
        index={index}
        onShow={onShow}
        empty="No attachment is stuck in a transitional state."
      />
    </section>
  );
}
