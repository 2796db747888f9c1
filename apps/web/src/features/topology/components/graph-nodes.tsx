import { Handle, type NodeProps, Position } from '@xyflow/react';
import { createContext, memo, type ReactNode, useContext } from 'react';
import { SharedBadge } from '../../../components/ui/badge';
import type {
  FoldNode,
  HostFlag,
  HostNode,
  ServerNode,
  VolumeGroupNode,
  VolumeNode,
  ZoneNode,
} from '../model/flow-elements';
import { PARTIAL_LABEL_W } from '../layout/dimensions';
import { NO_HOST } from '../model/topology-model';
import type { RiskCount } from '../model/view-model';
import { ChevronIcon, ClockIcon, HostIcon, ServerIcon, VolumeIcon, WarningIcon } from './icons';
import { useLegible } from './legibility';

// Every text here is text-xs (12 px) or larger: LEGIBLE_ZOOM in layout/dimensions.ts depends on it.

/** What a node can ask the page to do. */
export interface GraphActionsValue {
  onlyHost: (hostId: string) => void;
  /** Opens or folds a zone, host, fold chip or group of volumes. */
  toggle: (nodeId: string) => void;
}
export const GraphActions = createContext<GraphActionsValue | null>(null);

const n = (x: number) => x.toLocaleString('en');

const marks = (matches: number, active: boolean) =>
  matches > 0 ? 'ring-4 ring-yellow-400' : active ? 'ring-2 ring-blue-700' : '';

/** Counts of risky things in a group, in words with an icon each (never colour alone). */
export function RiskBadges({
  risks,
  what = 'servers',
  compact = false,
}: {
  risks: RiskCount;
  what?: 'servers' | 'volumes';
  /** Icon and number only, the words in the tooltip (and in the node's accessible name). */
  compact?: boolean;
}) {
  if (!risks.writers && !risks.stuck) return null;
  return (
    <span className="flex shrink-0 items-center gap-2 text-xs font-semibold text-red-800">
      {risks.writers > 0 && (
        <span
          className="flex items-center gap-0.5"
          title={
            what === 'servers'
              ? 'Servers writing to a volume that has several writers'
              : 'Volumes attached read-write to several servers'
          }
        >
          <WarningIcon className="h-3 w-3" />
          {n(risks.writers)}
          {!compact &&
            (what === 'servers' ? (risks.writers === 1 ? ' writer' : ' writers') : ' multi-writer')}
        </span>
      )}
      {risks.stuck > 0 && (
        <span
          className="flex items-center gap-0.5"
          title={
            what === 'servers'
              ? 'Attachments stuck in a transitional state'
              : 'Volumes with an attachment stuck in a transitional state'
          }
        >
          <ClockIcon className="h-3 w-3" />
          {n(risks.stuck)}
          {!compact && ' stuck'}
        </span>
      )}
    </span>
  );
}

function Flags({ flags }: { flags: HostFlag[] }) {
  return (
    <>
      {flags.map((f) => (
        <span
          key={f.label}
          title={f.title}
          className={`shrink-0 whitespace-nowrap rounded px-1 text-xs font-medium ring-1 ring-inset ${
            f.label === 'down'
              ? 'bg-red-50 text-red-800 ring-red-300'
              : 'bg-amber-50 text-amber-900 ring-amber-300'
          }`}
        >
          {f.label}
        </span>
      ))}
    </>
  );
}

/** The open/fold switch in a zone's or host's header. */
function Toggle({ id, open, label }: { id: string; open: boolean; label: string }) {
  const actions = useContext(GraphActions);
  if (!actions) return null;
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-label={label}
      title={label}
      className="nodrag nopan -ml-1 shrink-0 rounded p-0.5 text-slate-800 hover:bg-slate-300 focus-visible:outline-2 focus-visible:outline-blue-700"
      onClick={(e) => {
        e.stopPropagation();
        actions.toggle(id);
      }}
    >
      <ChevronIcon open={open} />
    </button>
  );
}

const Source = () => (
  <Handle type="source" position={Position.Right} isConnectable={false} className="opacity-0" />
);
const Target = () => (
  <Handle type="target" position={Position.Left} isConnectable={false} className="opacity-0" />
);

export const ZoneNodeView = memo(function ZoneNodeView({ id, data }: NodeProps<ZoneNode>) {
  const legible = useLegible();
  const open = data.mode !== 'collapsed';
  const risky = data.risks.writers > 0 || data.risks.stuck > 0;
  const frame = open
    ? 'border-2 border-dashed border-slate-400 bg-slate-50'
    : `border-2 border-slate-500 bg-slate-200 ${risky ? 'border-l-8 border-l-red-700' : ''}`;
  const counts = `${n(data.hosts)} host${data.hosts === 1 ? '' : 's'} · ${n(data.servers)} server${data.servers === 1 ? '' : 's'}`;
  const toggle = (
    <Toggle
      id={id}
      open={data.mode === 'expanded'}
      label={`${data.mode === 'expanded' ? 'Fold' : 'Show every host of'} ${data.label.toLowerCase()}`}
    />
  );
  return (
    <div className={`h-full w-full rounded-lg ${frame} ${marks(data.matches, data.active)}`}>
      {legible && open && (
        // An open zone is a container: one header line, its hosts below.
        <div className="flex min-w-0 items-center gap-1.5 px-3 pt-1.5 text-slate-900">
          {toggle}
          <span className="truncate text-sm font-semibold">{data.label}</span>
          <span className="truncate text-xs text-slate-700">{counts}</span>
          <span className="ml-auto">
            <RiskBadges risks={data.risks} />
          </span>
        </div>
      )}
      {legible && !open && (
        <div className="px-3 pt-1.5 text-slate-900">
          <div className="flex min-w-0 items-center gap-1.5">
            {toggle}
            <span className="truncate text-sm font-semibold">{data.label}</span>
            <span className="truncate text-xs text-slate-700">{counts}</span>
          </div>
          <div className="flex min-w-0 items-center gap-2 text-xs text-slate-700">
            <span className="truncate">
              {n(data.volumes)} volume{data.volumes === 1 ? '' : 's'} beside it · click to open
            </span>
            <span className="ml-auto">
              <RiskBadges risks={data.risks} />
            </span>
          </div>
        </div>
      )}
      {!open && <Source />}
    </div>
  );
});

/** A host showing only pinned servers: its name and the count of the others on the left, one row. */
function PartialHost({ id, data }: { id: string; data: HostNode['data'] }) {
  const legible = useLegible();
  const risky = data.hiddenRisks.writers > 0 || data.hiddenRisks.stuck > 0;
  return (
    <div
      className={`h-full w-full rounded-md border border-slate-500 bg-slate-100 ${risky ? 'border-l-4 border-l-red-700' : ''} ${marks(data.matches, data.active)}`}
      title={data.name}
    >
      {legible && (
        <div
          className="flex h-full flex-col justify-center px-1.5 leading-4"
          style={{ width: PARTIAL_LABEL_W }}
        >
          <div className="flex min-w-0 items-center gap-1">
            <Toggle id={id} open={false} label={`Show the servers of host ${data.name}`} />
            <span className="truncate text-xs font-semibold text-slate-900">{data.name}</span>
          </div>
          {data.hidden > 0 && (
            <div className="flex min-w-0 items-center gap-1.5 pl-4 text-xs text-slate-700">
              <span className="shrink-0">+{n(data.hidden)} more</span>
              {data.hiddenRisks.writers > 0 && (
                <span
                  className="flex items-center text-red-800"
                  title="Of them, servers writing to a volume with several writers"
                >
                  <WarningIcon className="h-3 w-3" />
                  {n(data.hiddenRisks.writers)}
                </span>
              )}
              {data.hiddenRisks.stuck > 0 && (
                <span
                  className="flex items-center text-red-800"
                  title="Of them, attachments stuck in a transitional state"
                >
                  <ClockIcon className="h-3 w-3" />
                  {n(data.hiddenRisks.stuck)}
                </span>
              )}
            </div>
          )}
        </div>
      )}
      <Source />
    </div>
  );
}

export const HostNodeView = memo(function HostNodeView({ id, data }: NodeProps<HostNode>) {
  if (data.mode === 'partial') return <PartialHost id={id} data={data} />;
  return <FullHost id={id} data={data} />;
});

function FullHost({ id, data }: { id: string; data: HostNode['data'] }) {
  const legible = useLegible();
  const actions = useContext(GraphActions);
  const open = data.mode !== 'collapsed';
  const risky = data.risks.writers > 0 || data.risks.stuck > 0;
  const frame = `rounded-md border ${open ? 'border-slate-400 bg-slate-100' : `border-slate-500 bg-slate-100 ${risky ? 'border-l-4 border-l-red-700' : ''}`}`;
  const servers = `${n(data.serverCount)} server${data.serverCount === 1 ? '' : 's'}`;
  return (
    <div
      className={`h-full w-full ${frame} ${marks(data.matches, data.active)}`}
      title={legible ? undefined : data.name}
    >
      {legible && (
        <div className="px-2 pt-1">
          <div className="flex min-w-0 items-center gap-1.5">
            {data.serverCount > 0 ? (
              <Toggle
                id={id}
                open={data.mode === 'expanded'}
                label={
                  data.mode === 'expanded'
                    ? `Fold host ${data.name}`
                    : `Show the servers of host ${data.name}`
                }
              />
            ) : (
              <HostIcon className="h-3.5 w-3.5 text-slate-700" />
            )}
            <span className="truncate text-sm font-semibold text-slate-900" title={data.name}>
              {data.name}
            </span>
            <Flags flags={data.flags} />
            {open && actions && data.hostId !== NO_HOST && (
              <button
                type="button"
                className="nodrag nopan ml-auto shrink-0 rounded px-1 text-xs font-medium text-blue-800 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-blue-700"
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
          <div className="flex min-w-0 items-center gap-2 text-xs text-slate-700">
            <span className="truncate">
              {data.zone ? `${data.zone} · ` : ''}
              {servers}
              {data.serverCount > 0 && ` · ${n(data.withVolumes)} with volumes`}
            </span>
            <span className="ml-auto">
              <RiskBadges risks={data.risks} />
            </span>
          </div>
          {open && data.serverCount === 0 && <p className="pt-0.5 text-xs text-slate-700">No servers</p>}
        </div>
      )}
      {!open && <Source />}
    </div>
  );
}

export const ServerNodeView = memo(function ServerNodeView({ data }: NodeProps<ServerNode>) {
  const legible = useLegible();
  const risky = data.stuck || data.writer;
  const frame = `h-full w-full rounded border bg-white ${risky ? 'border-red-700' : 'border-slate-400'} ${marks(data.matches, data.active)}`;
  return (
    <div
      className={frame}
      title={`${data.name} (${data.status}, ${data.volumeCount} volume${data.volumeCount === 1 ? '' : 's'})`}
    >
      {legible && (
        <div className="flex h-full min-w-0 items-center gap-1 px-1.5">
          <ServerIcon className="h-3.5 w-3.5 text-slate-700" />
          <span className="min-w-0 flex-1 truncate text-xs font-medium text-slate-900">{data.name}</span>
          {data.status !== 'ACTIVE' && (
            <span className="shrink-0 text-xs font-medium text-slate-700">{data.status.toLowerCase()}</span>
          )}
          {data.writer && <WarningIcon className="h-3.5 w-3.5 text-red-800" />}
          {data.stuck && <ClockIcon className="h-3.5 w-3.5 text-red-800" />}
        </div>
      )}
      <Source />
    </div>
  );
});

function foldText(d: FoldNode['data']): string {
  if (d.hosts > 0) {
    return `+${n(d.hosts)} more host${d.hosts === 1 ? '' : 's'} · ${n(d.servers)} server${d.servers === 1 ? '' : 's'}`;
  }
  const s = `+${n(d.servers)} ${d.opens === 'unfold' ? '' : 'more '}server${d.servers === 1 ? '' : 's'}`;
  return d.withVolumes === 0 ? `${s} without volumes` : `${s} · ${n(d.withVolumes)} with volumes`;
}

export const FoldNodeView = memo(function FoldNodeView({ data }: NodeProps<FoldNode>) {
  const legible = useLegible();
  return (
    <div
      className={`flex h-full w-full items-center gap-2 rounded border border-dashed border-slate-500 bg-white px-2 ${marks(data.matches, data.active)}`}
    >
      {legible && (
        <>
          <span className="min-w-0 truncate text-xs font-medium text-slate-800">{foldText(data)}</span>
          <RiskBadges risks={data.risks} />
          <span className="ml-auto shrink-0 text-xs font-medium text-blue-800">Show</span>
        </>
      )}
      <Source />
    </div>
  );
});

function VolumeLines({ children }: { children: ReactNode }) {
  return (
    <div className="flex h-full min-w-0 flex-col justify-center gap-0.5 px-2 leading-tight">{children}</div>
  );
}

export const VolumeNodeView = memo(function VolumeNodeView({ data }: NodeProps<VolumeNode>) {
  const legible = useLegible();
  const risk = data.multipleWriters;
  const frame = `h-full w-full rounded-md border-2 ${risk ? 'border-red-700 bg-red-50' : data.stuck ? 'border-red-700 bg-white' : 'border-sky-800 bg-white'} ${marks(data.matches, data.active)}`;
  return (
    <div className={frame}>
      <Target />
      {legible && (
        <VolumeLines>
          <div className="flex min-w-0 items-center gap-1.5">
            <VolumeIcon className="h-4 w-4 text-slate-700" />
            <span className="truncate text-sm font-medium text-slate-900" title={data.name || data.volumeId}>
              {data.name || data.volumeId.slice(0, 8)}
            </span>
            {data.shared && <SharedBadge />}
          </div>
          <div className="flex min-w-0 items-center gap-2 text-xs text-slate-700">
            <span className="truncate">
              {data.rw} RW · {data.ro} RO{data.status === 'in-use' ? '' : ` · ${data.status}`}
            </span>
            {(risk || data.stuck) && (
              <span className="ml-auto flex shrink-0 items-center gap-2 font-semibold text-red-800">
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
              </span>
            )}
          </div>
        </VolumeLines>
      )}
    </div>
  );
});

export const VolumeGroupNodeView = memo(function VolumeGroupNodeView({ data }: NodeProps<VolumeGroupNode>) {
  const legible = useLegible();
  const risky = data.risks.writers > 0 || data.risks.stuck > 0;
  return (
    // Two offset borders: a stack of volumes.
    <div
      className={`h-full w-full rounded-md border-2 border-dashed bg-white shadow-[4px_4px_0_0_#cbd5e1] ${risky ? 'border-red-700' : 'border-sky-800'} ${marks(data.matches, data.active)}`}
    >
      <Target />
      {legible && (
        <VolumeLines>
          <div className="flex min-w-0 items-center gap-1.5">
            <VolumeIcon className="h-4 w-4 text-slate-700" />
            <span className="truncate text-sm font-semibold text-slate-900">
              {n(data.count)} volume{data.count === 1 ? '' : 's'}
            </span>
            <span className="ml-auto shrink-0 text-xs font-medium text-blue-800">Show</span>
          </div>
          <div className="flex min-w-0 items-center gap-2 text-xs text-slate-700">
            <span className="truncate">
              {data.owner === null ? 'no attachment' : `beside ${data.ownerName}`}
            </span>
            <span className="ml-auto">
              <RiskBadges risks={data.risks} what="volumes" compact />
            </span>
          </div>
        </VolumeLines>
      )}
    </div>
  );
});

export const nodeTypes = {
  zone: ZoneNodeView,
  host: HostNodeView,
  server: ServerNodeView,
  fold: FoldNodeView,
  volume: VolumeNodeView,
  volumes: VolumeGroupNodeView,
};

/** Which detail page a node opens, if any (servers and volumes). */
export const detailPath = (id: string): string | null => {
  if (id.startsWith('server:')) return `/servers/${encodeURIComponent(id.slice(7))}`;
  if (id.startsWith('volume:')) return `/volumes/${encodeURIComponent(id.slice(7))}`;
  return null;
};
