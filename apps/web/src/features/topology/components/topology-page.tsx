import type { Session, TopologyQuery } from '@sv/shared';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading, Spinner } from '../../../components/ui/spinner';
import { useTopology } from '../api/get-topology';
import { useFilterOptions } from '../hooks/use-filter-options';
import { useLayout } from '../hooks/use-layout';
import { type TopologyView, useTopologyParams } from '../hooks/use-topology-params';
import type { LayoutResult } from '../layout/layout-types';
import { buildFlowElements, emphasise } from '../model/flow-elements';
import { indexTopology, searchTopology, shapeSignature, toLayoutInput } from '../model/topology-model';
import { EdgeTable } from './edge-table';
import { GraphLegend } from './graph-legend';
import { RiskPanel } from './risk-panel';
import { TopologyFilters } from './topology-filters';
import { type PanRequest, TopologyGraph } from './topology-graph';

const GRAPH_HELP_ID = 'topology-graph-help';

function ViewToggle({ view, onView }: { view: TopologyView; onView: (v: TopologyView) => void }) {
  const item = (v: TopologyView, label: string) => (
    <button
      type="button"
      aria-pressed={view === v}
      onClick={() => onView(v)}
      className={`px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${
        view === v ? 'bg-blue-700 text-white' : 'bg-white text-slate-800 hover:bg-slate-100'
      }`}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="flex overflow-hidden rounded border border-slate-300">
      <legend className="sr-only">Show as</legend>
      {item('graph', 'Graph')}
      {item('table', 'Table')}
    </fieldset>
  );
}

function LayoutProgress({
  nodes,
  edges,
  phase,
  startedAt,
}: {
  nodes: number;
  edges: number;
  phase: string | null;
  startedAt: number;
}) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(t);
  }, []);
  const seconds = Math.max(0, (now - startedAt) / 1000);
  return (
    <div role="status" className="flex h-full flex-col items-center justify-center gap-2 text-slate-800">
      <p className="flex items-center gap-2 font-medium">
        <Spinner />
        Laying out {nodes.toLocaleString()} nodes and {edges.toLocaleString()} attachments…
      </p>
      <p className="text-sm text-slate-700">
        {phase === 'elk-layered'
          ? 'Ordering with the layered algorithm to reduce crossings'
          : phase === 'columns'
            ? 'Packing hosts and volumes into columns'
            : 'Starting the layout worker'}{' '}
        · {seconds.toFixed(1)} s
      </p>
    </div>
  );
}

function layoutNote(r: LayoutResult): string {
  const how = r.algorithm === 'elk-layered' ? 'elk layered' : `columns (${r.reason})`;
  return `Laid out with ${how} in ${r.ms.toLocaleString()} ms.`;
}

/** /topology: every attachment in view as hosts → servers → volumes, with risks and a table. */
export default function TopologyPage({ session }: { session: Session }) {
  const [params, setParams] = useTopologyParams();
  const { filters, view } = params;
  const query = useTopology(filters);
  const topology = query.data;
  const options = useFilterOptions(topology, session.projects);

  const index = useMemo(() => (topology ? indexTopology(topology) : null), [topology]);
  const input = useMemo(() => (topology && index ? toLayoutInput(topology, index) : null), [topology, index]);
  const signature = useMemo(() => (input ? shapeSignature(input) : null), [input]);
  const layout = useLayout(view === 'graph' ? input : null, view === 'graph' ? signature : null);
  const result = layout.status === 'done' && layout.signature === signature ? layout.result : null;

  const base = useMemo(
    () => (topology && index && result ? buildFlowElements(topology, index, result) : null),
    [topology, index, result],
  );

  const search = useDeferredValue(params.search);
  const matches = useMemo(() => (topology ? searchTopology(topology, search) : []), [topology, search]);
  const matched = useMemo(() => new Set(matches), [matches]);
  // Hover or keyboard focus wins; otherwise the node last asked for ("Show in graph", "Next match").
  const [hovered, setHovered] = useState<string | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const focus = hovered ?? pinned;
  const elements = useMemo(() => (base ? emphasise(base, matched, focus) : null), [base, matched, focus]);

  const [pan, setPan] = useState<PanRequest>(null);
  const [matchAt, setMatchAt] = useState(0);
  const showNode = useCallback(
    (nodeId: string) => {
      if (view !== 'graph') setParams({ view: 'graph' });
      setPinned(nodeId);
      setPan((p) => ({ nodeId, n: (p?.n ?? 0) + 1 }));
    },
    [view, setParams],
  );
  const nextMatch = () => {
    const id = matches[matchAt % Math.max(1, matches.length)];
    if (!id) return;
    setMatchAt((i) => i + 1);
    showNode(id);
  };
  const setFilters = (f: TopologyQuery) => setParams({ filters: f });
  const onlyHost = useCallback(
    (host: string) => setParams({ filters: { ...filters, host } }),
    [filters, setParams],
  );

  const scope = session.isAdmin ? 'the whole cloud' : `project ${session.project.name}`;
  const empty = topology && topology.servers.length === 0 && topology.volumes.length === 0;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Topology</h1>
          <p className="text-sm text-slate-700">
            Which server holds which volume, in which mode, on which host, for {scope}.
            {topology?.hostNamesHidden &&
              ' Host names are hidden from project members: hosts show as short IDs.'}
          </p>
        </div>
        <div className="flex items-center gap-3">
          {topology && (
            <span className="text-xs text-slate-700">
              Updated <DateTime value={topology.generatedAt} />
            </span>
          )}
          <Button size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
            Refresh
          </Button>
          <ViewToggle view={view} onView={(v) => setParams({ view: v })} />
        </div>
      </div>

      <TopologyFilters
        isAdmin={session.isAdmin}
        filters={filters}
        options={options}
        onFilters={setFilters}
        search={params.search}
        onSearch={(s) => {
          setParams({ search: s });
          setMatchAt(0);
        }}
        onClear={() => setParams({ filters: {}, search: '' })}
        matchCount={params.search.trim() ? matches.length : null}
        onNextMatch={view === 'graph' ? nextMatch : undefined}
      />

      {query.isError && (
        <ErrorMessage
          title="The topology could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      )}
      {query.isPending && <Loading label="Loading the topology…" />}
      {empty && (
        <EmptyState title="Nothing to draw">
          <p>No servers or volumes match these filters.</p>
          <p className="mt-3">
            <Link to="/launch" className={buttonClass('secondary', 'sm')}>
              Launch servers
            </Link>
          </p>
        </EmptyState>
      )}

      {topology && index && !empty && (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0 space-y-2">
            {view === 'graph' ? (
              <>
                <GraphLegend />
                <p id={GRAPH_HELP_ID} className="text-xs text-slate-700">
                  Drag to pan, scroll or use the buttons to zoom. Tab moves between nodes; Enter or a click
                  opens a server or volume. The table view lists every attachment for keyboard and
                  screen-reader use.
                </p>
                <section
                  aria-label="Topology graph: hosts, their servers, and the volumes attached to them"
                  className="h-[70vh] min-h-[28rem] overflow-hidden rounded-lg border border-slate-300 bg-white"
                >
                  {elements && base && result ? (
                    <TopologyGraph
                      elements={elements}
                      centres={base.centres}
                      layoutKey={signature ?? ''}
                      pan={pan}
                      onFocusNode={setHovered}
                      onPaneClick={() => setPinned(null)}
                      onlyHost={onlyHost}
                      describedBy={GRAPH_HELP_ID}
                    />
                  ) : layout.status === 'error' ? (
                    <ErrorMessage title="The graph could not be laid out" className="m-4">
                      <p>{layout.message}</p>
                      <p>The table view still lists every attachment.</p>
                    </ErrorMessage>
                  ) : (
                    <LayoutProgress
                      nodes={input ? input.hosts.length + input.servers.length + input.volumes.length : 0}
                      edges={input?.edges.length ?? 0}
                      phase={layout.status === 'running' ? layout.phase : null}
                      startedAt={layout.status === 'running' ? layout.startedAt : performance.now()}
                    />
                  )}
                </section>
                {result && <p className="text-xs text-slate-700">{layoutNote(result)}</p>}
              </>
            ) : (
              <EdgeTable topology={topology} index={index} search={params.search} />
            )}
          </div>
          <aside className="space-y-3" aria-label="Summary and risks">
            <Summary topology={topology} />
            <RiskPanel topology={topology} index={index} onShow={showNode} />
          </aside>
        </div>
      )}
    </div>
  );
}

function Summary({ topology }: { topology: NonNullable<ReturnType<typeof useTopology>['data']> }) {
  const rw = topology.edges.filter((e) => e.mode === 'rw').length;
  const n = (x: number) => x.toLocaleString();
  return (
    <section aria-labelledby="topology-summary" className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="topology-summary" className="font-semibold text-slate-900">
        In view
      </h2>
      <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-slate-700">Hosts</dt>
        <dd className="text-right font-medium">{n(topology.hosts.length)}</dd>
        <dt className="text-slate-700">Servers</dt>
        <dd className="text-right font-medium">{n(topology.servers.length)}</dd>
        <dt className="text-slate-700">Volumes</dt>
        <dd className="text-right font-medium">{n(topology.volumes.length)}</dd>
        <dt className="text-slate-700">Attachments</dt>
        <dd className="text-right font-medium">{n(topology.edges.length)}</dd>
        <dt className="text-slate-700">Read-write / read-only</dt>
        <dd className="text-right font-medium">
          {n(rw)} / {n(topology.edges.length - rw)}
        </dd>
      </dl>
    </section>
  );
}
