import { type Session, type Topology, type TopologyQuery, HOSTS_HIDDEN_NOTE } from '@sv/shared';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { useTopology } from '../api/get-topology';
import { useFilterOptions } from '../hooks/use-filter-options';
import { type TopologyView, useTopologyParams } from '../hooks/use-topology-params';
import { useGraphView } from '../hooks/use-graph-view';
import type { Canvas } from '../model/auto-expand';
import { drawnNodeOf } from '../model/expansion';
import { buildFlowElements, emphasise } from '../model/flow-elements';
import { nodeId, searchTopology } from '../model/topology-model';
import type { ViewGraph } from '../model/view-model';
import { EdgeTable } from './edge-table';
import { GraphLegend } from './graph-legend';
import { RiskPanel } from './risk-panel';
import { TopologyFilters } from './topology-filters';
import { TopologyGraph } from './topology-graph';

const GRAPH_HELP_ID = 'topology-graph-help';
/** Until the canvas is measured (the table view has none), what fits is judged for a common size. */
const FALLBACK_CANVAS: Canvas = { width: 800, height: 560 };

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

/** The canvas's size, for the fit rule; ignores changes of a few pixels so the view does not churn. */
function useCanvasSize(): [(el: HTMLElement | null) => void, Canvas | null] {
  const [canvas, setCanvas] = useState<Canvas | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    const measure = () => {
      // happy-dom (tests) lays nothing out; a laid-out browser gives the inside of the border.
      const width = el.clientWidth || el.offsetWidth;
      const height = el.clientHeight || el.offsetHeight;
      if (!width || !height) return;
      setCanvas((c) =>
        c && Math.abs(c.width - width) < 24 && Math.abs(c.height - height) < 24 ? c : { width, height },
      );
    };
    measure();
    if (typeof ResizeObserver !== 'undefined') {
      observer.current = new ResizeObserver(measure);
      observer.current.observe(el);
    }
  }, []);
  return [ref, canvas];
}

/** One line under the graph: how much of the cloud is open, and how to open the rest. */
function foldNote(view: ViewGraph, servers: number, volumes: number): string {
  let shownServers = 0;
  let hosts = 0;
  let open = 0;
  for (const item of view.left) {
    const hs = item.kind === 'host' ? [item] : item.hosts;
    for (const h of hs) {
      hosts++;
      if (h.mode !== 'collapsed') open++;
      shownServers += h.servers.length;
    }
  }
  const shownVolumes = view.right.filter((r) => r.kind === 'volume').length;
  const n = (x: number) => x.toLocaleString('en');
  const all = shownServers === servers && shownVolumes === volumes;
  return all
    ? `Everything is drawn: ${n(servers)} servers and ${n(volumes)} volumes.`
    : `Drawn one by one: ${n(shownServers)} of ${n(servers)} servers and ${n(shownVolumes)} of ${n(volumes)} volumes` +
        `${hosts ? ` (${n(open)} of ${n(hosts)} hosts in view open)` : ''}. ` +
        'The rest is folded into boxes with their counts and risks: click one, or press Enter on it, to open it.';
}

/** /topology: every attachment in view as zones → hosts → servers → volumes, with risks and a table. */
export default function TopologyPage({ session }: { session: Session }) {
  const [params, setParams] = useTopologyParams();
  const { filters, view } = params;
  const query = useTopology(filters);
  const topology = query.data?.topology;
  const index = query.data?.index ?? null;
  const summary = query.data?.summary ?? null;
  const options = useFilterOptions(topology, session.projects);
  const [canvasRef, measured] = useCanvasSize();
  // Until the graph's canvas is measured, nothing is laid out (it would be for the wrong size);
  // the table view has no canvas, so "Show in graph" from there judges for a common one.
  const canvas = measured ?? (view === 'table' ? FALLBACK_CANVAS : null);
  const graph = useGraphView(query.data, filters, canvas);
  const { view: graphView, layout } = graph;
  const base = useMemo(
    () =>
      topology && index && summary && graphView && layout
        ? buildFlowElements(topology, index, summary, graphView, layout)
        : null,
    [topology, index, summary, graphView, layout],
  );

  const search = useDeferredValue(params.search);
  const matches = useMemo(() => (topology ? searchTopology(topology, search) : []), [topology, search]);
  const matchCounts = useMemo(() => {
    const out = new Map<string, number>();
    if (!graphView || !summary) return out;
    for (const id of matches) {
      const drawn = drawnNodeOf(id, graphView, summary);
      if (drawn) out.set(drawn, (out.get(drawn) ?? 0) + 1);
    }
    return out;
  }, [matches, graphView, summary]);
  // Hover or keyboard focus wins; otherwise the node last asked for ("Show in graph", Find).
  const [hovered, setHovered] = useState<string | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const focus = hovered ?? pinned;
  const elements = useMemo(
    () => (base ? emphasise(base, matchCounts, focus) : null),
    [base, matchCounts, focus],
  );

  // "Show in graph" from the risk panel: the volume with every holder, framed; if they are too
  // spread out to read at once, the volume with the servers of the risk (its writers, or the stuck one).
  const showRisk = (volumeId: string, serverIds: readonly string[]) => {
    if (view !== 'graph') setParams({ view: 'graph' });
    setPinned(nodeId.volume(volumeId));
    graph.focus(volumeId, serverIds);
  };
  const [matchAt, setMatchAt] = useState(0);
  const nextMatch = () => {
    // The highlighted matches lag the box by a frame (a deferred value); Enter acts on what is typed.
    const current = search === params.search || !topology ? matches : searchTopology(topology, params.search);
    const id = current[matchAt % Math.max(1, current.length)];
    if (!id) return;
    setMatchAt((i) => i + 1);
    setPinned(graph.reveal(id));
  };
  const setFilters = (f: TopologyQuery) => setParams({ filters: f });
  const onlyHost = useCallback(
    (host: string) => setParams({ filters: { ...filters, host } }),
    [filters, setParams],
  );
  const onReset = () => {
    setPinned(null);
    graph.reset();
  };

  const scope = session.isAdmin ? 'the whole cloud' : `project ${session.project.name}`;
  const empty = topology && topology.servers.length === 0 && topology.volumes.length === 0;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Topology</h1>
          <p className="text-sm text-slate-700">
            Which server holds which volume, in which mode, on which host, for {scope}.
            {topology?.hostNamesHidden && ` ${HOSTS_HIDDEN_NOTE} Here each host shows as a short ID.`}
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
      {query.isPending && view === 'table' && <Loading label="Loading the topology…" />}
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

      {/* The graph's frame is drawn while the answer loads, so its size is known when it comes. */}
      {((topology && index && !empty) || (query.isPending && view === 'graph')) && (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0 space-y-2">
            {view === 'graph' ? (
              <>
                <GraphLegend />
                <p id={GRAPH_HELP_ID} className="text-xs text-slate-700">
                  Drag to pan, scroll or use the buttons to zoom. Tab moves between boxes; Enter or a click
                  opens a folded zone, host or group, or a server's or volume's page. The table view lists
                  every attachment for keyboard and screen-reader use.
                </p>
                <section
                  ref={canvasRef}
                  aria-label="Topology graph: hosts, their servers, and the volumes attached to them"
                  className="h-[70vh] min-h-[28rem] overflow-hidden rounded-lg border border-slate-300 bg-white"
                >
                  {query.isPending && <Loading label="Loading the topology…" />}
                  {elements && layout && measured && (
                    <TopologyGraph
                      elements={elements}
                      layout={layout}
                      canvas={measured}
                      viewKey={JSON.stringify(filters)}
                      request={graph.request}
                      onFocusNode={setHovered}
                      onPaneClick={() => setPinned(null)}
                      onlyHost={onlyHost}
                      onToggle={graph.toggle}
                      onReset={onReset}
                      describedBy={GRAPH_HELP_ID}
                    />
                  )}
                </section>
                {graphView && topology && (
                  <p className="text-xs text-slate-700" aria-live="polite">
                    {foldNote(graphView, topology.servers.length, topology.volumes.length)}
                  </p>
                )}
              </>
            ) : (
              topology && index && <EdgeTable topology={topology} index={index} search={params.search} />
            )}
          </div>
          {topology && index && (
            <aside className="space-y-3" aria-label="Summary and risks">
              <Summary topology={topology} />
              <RiskPanel topology={topology} index={index} onShow={showRisk} />
            </aside>
          )}
        </div>
      )}
    </div>
  );
}

function Summary({ topology }: { topology: Topology }) {
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
