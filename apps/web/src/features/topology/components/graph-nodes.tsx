import { Handle, type NodeProps, Position, useStore } from '@xyflow/react';
import { createContext, memo, useContext } from 'react';
import { Badge, SharedBadge } from '../../../components/ui/badge';
import type { HostNode, ServerNode, VolumeNode } from '../model/flow-elements';
import { NO_HOST } from '../model/topology-model';
import { ClockIcon, HostIcon, ServerIcon, VolumeIcon, WarningIcon } from './icons';

/** Below this zoom text is unreadable, so nodes draw as plain blocks (and render much faster). */
export const FAR_ZOOM = 0.35;
const useFar = () => useStore((s) => s.transform[2] < FAR_ZOOM);

/** What a host box can ask the page to do. */
export const GraphActions = createContext<{ onlyHost: (hostId: string) => void } | null>(null);

const marks = (matched: boolean, active: boolean) =>
  matched ? 'ring-4 ring-yellow-400' : active ? 'ring-2 ring-blue-700' : '';

export const HostNodeView = memo(function HostNodeView({ data }: NodeProps<HostNode>) {
  const far = useFar();
  const actions = useContext(GraphActions);
  return (
    <div
      className={`h-full w-full rounded-lg border border-slate-400 bg-slate-100 ${marks(data.matched, data.active)}`}
    >
      {!far && (
        <div className="px-3 pt-2">
          <div className="flex min-w-0 items-center gap-1.5">
            <HostIcon className="h-4 w-4 text-slate-700" />
            <span className="truncate text-sm font-semibold text-slate-900" title={data.name}>
              {data.name}
            </span>
            {data.flags.map((f) => (
              <Badge key={f.label} tone={f.label === 'down' ? 'red' : 'amber'} title={f.title}>
                {f.label}
              </Badge>
            ))}
          </div>
          <div className="flex items-center gap-2 text-xs text-slate-700">
            <span className="truncate">
              {data.zone ? `zone ${data.zone} · ` : ''}
              {data.serverCount} server{data.serverCount === 1 ? '' : 's'}
            </span>
            {actions && data.hostId !== NO_HOST && (
              <button
                type="button"
                className="nodrag nopan ml-auto shrink-0 rounded px-1 font-medium text-blue-800 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-blue-700"
                onClick={(e) => {
                  e.stopPropagation();
                  actions.onlyHost(data.hostId);
                }}
                aria-label={`Show only host ${data.name}`}
              >
                Only this host
              </button>
            )}
          </div>
        </div>
      )}
      {far && (
        <div className="px-3 pt-2 text-slate-900">
          <div className="truncate text-5xl font-semibold">{data.name}</div>
          <div className="truncate text-4xl">
            {data.serverCount} server{data.serverCount === 1 ? '' : 's'}
            {data.stuckServers > 0 && (
              <span className="font-semibold text-red-800"> · {data.stuckServers} stuck</span>
            )}
          </div>
        </div>
      )}
      {!far && data.serverCount === 0 && <p className="px-3 pt-1 text-xs text-slate-600">No servers</p>}
    </div>
  );
});

export const ServerNodeView = memo(function ServerNodeView({ data }: NodeProps<ServerNode>) {
  const far = useFar();
  const frame = `h-full w-full rounded-md border bg-white ${data.stuck ? 'border-red-700' : 'border-slate-400'} ${marks(data.matched, data.active)}`;
  return (
    <div className={frame} title={far ? undefined : `${data.name} (${data.status})`}>
      {!far && (
        <div className="flex h-full items-center gap-2 px-2">
          <ServerIcon className="h-4 w-4 text-slate-700" />
          <div className="min-w-0 flex-1 leading-tight">
            <div className="truncate text-sm font-medium text-slate-900">{data.name}</div>
            <div className="truncate text-xs text-slate-700">
              {data.status} · {data.volumeCount} vol
            </div>
          </div>
          {data.stuck && (
            <span className="flex items-center gap-0.5 rounded bg-red-50 px-1 text-[11px] font-semibold text-red-800">
              <ClockIcon className="h-3 w-3" />
              stuck
            </span>
          )}
        </div>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} className="opacity-0" />
    </div>
  );
});

export const VolumeNodeView = memo(function VolumeNodeView({ data }: NodeProps<VolumeNode>) {
  const far = useFar();
  const risk = data.multipleWriters;
  const frame = `h-full w-full rounded-md border-2 ${risk ? 'border-red-700 bg-red-50' : data.stuck ? 'border-red-700 bg-white' : 'border-sky-800 bg-white'} ${marks(data.matched, data.active)}`;
  return (
    <div className={frame}>
      <Handle type="target" position={Position.Left} isConnectable={false} className="opacity-0" />
      {far ? (
        risk && <WarningIcon className="m-auto h-full w-10 text-red-800" />
      ) : (
        <div className="flex h-full flex-col justify-center gap-0.5 px-2 leading-tight">
          <div className="flex items-center gap-1.5">
            <VolumeIcon className="h-4 w-4 text-slate-700" />
            <span className="truncate text-sm font-medium text-slate-900" title={data.name || data.volumeId}>
              {data.name || data.volumeId.slice(0, 8)}
            </span>
            {data.shared && <SharedBadge />}
          </div>
          <div className="truncate text-xs text-slate-700">
            {data.rw} RW · {data.ro} RO · {data.status}
          </div>
          {(risk || data.stuck) && (
            <div className="flex items-center gap-2 text-[11px] font-semibold text-red-800">
              {risk && (
                <span className="flex items-center gap-0.5">
                  <WarningIcon className="h-3 w-3" />
                  {data.rw} writers
                </span>
              )}
              {data.stuck && (
                <span className="flex items-center gap-0.5">
                  <ClockIcon className="h-3 w-3" />
                  stuck
                </span>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
});

export const nodeTypes = { host: HostNodeView, server: ServerNodeView, volume: VolumeNodeView };
