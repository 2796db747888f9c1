import '@xyflow/react/dist/style.css';
import {
  Background,
  ControlButton,
  Controls,
  MiniMap,
  type MiniMapNodeProps,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import {
  type FocusEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import type { AttachmentEdge, FlowElements, TopologyNode } from '../model/flow-elements';
import { AttachmentEdgeView } from './attachment-edge';
import { GraphActions, nodeTypes } from './graph-nodes';

const edgeTypes = { attachment: AttachmentEdgeView };

/** Up to this many nodes the whole graph is fitted on screen; beyond, it opens readable at the top. */
const FIT_ALL_MAX_NODES = 400;
/**
 * A big graph in detail (servers and lines) stops zooming out here; going further switches to the
 * overview of hosts and volumes only. Drawing 5,000 servers and 20,000 lines at once froze the page
 * for 4-5 s (docs/benchmarks.md), and they cannot be told apart at that size anyway. The switch
 * happens before zooming out, because React Flow would otherwise render every node for one frame.
 */
export const OVERVIEW_ZOOM = 0.2;
/** Zooming back in past this leaves the overview (a margin, so the switch does not flicker). */
const DETAIL_ZOOM = 0.25;
const MIN_ZOOM = 0.01;
const NO_EDGES: AttachmentEdge[] = [];

/** A request to pan to a node; `n` changes so the same node can be asked for twice. */
export type PanRequest = { nodeId: string; n: number } | null;

export interface TopologyGraphProps {
  elements: Pick<FlowElements, 'nodes' | 'edges'>;
  centres: FlowElements['centres'];
  /** Changes when the layout changes, to reset the viewport. */
  layoutKey: string;
  pan: PanRequest;
  onFocusNode: (id: string | null) => void;
  /** A click on empty canvas (drops a pinned highlight). */
  onPaneClick: () => void;
  onlyHost: (hostId: string) => void;
  describedBy: string;
}

export const detailPath = (id: string): string | null => {
  if (id.startsWith('server:')) return `/servers/${encodeURIComponent(id.slice(7))}`;
  if (id.startsWith('volume:')) return `/volumes/${encodeURIComponent(id.slice(7))}`;
  return null;
};

const nodeIdOf = (target: EventTarget | null): string | null =>
  target instanceof Element ? (target.closest('.react-flow__node')?.getAttribute('data-id') ?? null) : null;

function miniMapColour(node: TopologyNode): string {
  if (node.type === 'host') return '#cbd5e1';
  if (node.type === 'server') return node.data.stuck ? '#b91c1c' : '#64748b';
  return node.data.multipleWriters || node.data.stuck ? '#b91c1c' : '#0369a1';
}

// A plain rect per node: the minimap draws every node of a 25,000-node graph.
function MiniMapBlock({ x, y, width, height, color }: MiniMapNodeProps) {
  return <rect x={x} y={y} width={width} height={height} fill={color} />;
}

function MapIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth={1.6}>
      <path d="M1.5 3.5l4-1.5 5 2 4-1.5v10l-4 1.5-5-2-4 1.5z" />
      <path d="M5.5 2v10M10.5 4v10" />
    </svg>
  );
}

function FitIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth={1.6}>
      <path d="M1.5 5.5v-4h4M10.5 1.5h4v4M14.5 10.5v4h-4M5.5 14.5h-4v-4" />
    </svg>
  );
}

function Graph({
  elements,
  centres,
  pan,
  onFocusNode,
  onPaneClick,
  onlyHost,
  describedBy,
}: TopologyGraphProps) {
  const navigate = useNavigate();
  const flow = useReactFlow<TopologyNode, AttachmentEdge>();
  const large = elements.nodes.length > FIT_ALL_MAX_NODES;
  // A fitted graph needs no overview, and the map would cover its volume column; a big one does.
  const [showMap, setShowMap] = useState(large);
  // The map draws every node (6,000 at 5,000 servers): mount it after the graph's first frame.
  const [mapReady, setMapReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setMapReady(true), 50);
    return () => clearTimeout(t);
  }, []);
  const [overview, setOverview] = useState(false);
  const [fitAll, setFitAll] = useState(0);
  const zoomedIn = useStore((s) => s.transform[2] >= DETAIL_ZOOM);
  // The dot grid scales with the zoom: zoomed far out it becomes millions of sub-pixel dots that took
  // seconds to rasterise (measured), so it is dropped there.
  const dots = useStore((s) => s.transform[2] >= 0.3);
  const wasZoomedIn = useRef(zoomedIn);
  useEffect(() => {
    // Only a zoom-in across the line leaves the overview, not the state the overview started in.
    if (zoomedIn && !wasZoomedIn.current) setOverview(false);
    wasZoomedIn.current = zoomedIn;
  }, [zoomedIn]);
  // Runs after React Flow has taken the overview's nodes (child effects run first).
  useEffect(() => {
    if (!fitAll) return;
    void flow.fitView({ padding: 0.04 }).then(() => {
      if (flow.getZoom() >= DETAIL_ZOOM) setOverview(false);
    });
  }, [fitAll, flow]);
  const fitWhole = () => {
    if (large) setOverview(true);
    setFitAll((n) => n + 1);
  };
  const shown = useMemo(
    () =>
      overview ? { nodes: elements.nodes.filter((n) => n.type !== 'server'), edges: NO_EDGES } : elements,
    [overview, elements],
  );

  useEffect(() => {
    if (!pan) return;
    const c = centres.get(pan.nodeId);
    if (c) void flow.setCenter(c.x, c.y, { zoom: Math.max(flow.getZoom(), 0.9), duration: 400 });
  }, [pan, centres, flow]);

  const open = useCallback(
    (id: string) => {
      const path = detailPath(id);
      if (path) navigate(path);
    },
    [navigate],
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const id = nodeIdOf(e.target);
    // Only the node itself: a button inside a host box handles its own keys.
    if (id && e.target instanceof Element && e.target.classList.contains('react-flow__node')) {
      e.preventDefault();
      open(id);
    }
  };
  const actions = useMemo(() => ({ onlyHost }), [onlyHost]);

  return (
    <GraphActions.Provider value={actions}>
      <ReactFlow<TopologyNode, AttachmentEdge>
        nodes={shown.nodes}
        edges={shown.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onlyRenderVisibleElements
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable
        edgesFocusable={false}
        // Edges stay under the host boxes: they leave a host at its border instead of criss-crossing
        // its other servers (React Flow would lift edges of child nodes above their parent).
        zIndexMode="manual"
        minZoom={large && !overview ? OVERVIEW_ZOOM : MIN_ZOOM}
        maxZoom={2}
        onMoveEnd={(_, viewport) => {
          // Reached the detail floor: carry on zooming out in the overview.
          if (large && !overview && viewport.zoom <= OVERVIEW_ZOOM * 1.001) setOverview(true);
        }}
        {...(large
          ? { defaultViewport: { x: 24, y: 24, zoom: 0.6 } }
          : { fitView: true, fitViewOptions: { padding: 0.08, maxZoom: 1 } })}
        onNodeClick={(_, node) => open(node.id)}
        onPaneClick={onPaneClick}
        onNodeMouseEnter={(_, node) => onFocusNode(node.id)}
        onNodeMouseLeave={() => onFocusNode(null)}
        onFocus={(e: FocusEvent<HTMLDivElement>) => onFocusNode(nodeIdOf(e.target))}
        onBlur={() => onFocusNode(null)}
        onKeyDown={onKeyDown}
        aria-describedby={describedBy}
      >
        {dots && <Background gap={24} color="#cbd5e1" />}
        {overview && (
          <Panel position="top-center">
            <p
              role="status"
              className="rounded bg-white px-2 py-1 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-300"
            >
              Zoomed out: hosts and volumes only. Zoom in to see servers and attachments.
            </p>
          </Panel>
        )}
        <Controls showInteractive={false} showFitView={false}>
          <ControlButton onClick={fitWhole} aria-label="Fit the whole graph" title="Fit the whole graph">
            <FitIcon />
          </ControlButton>
          <ControlButton
            onClick={() => setShowMap(!showMap)}
            aria-pressed={showMap}
            aria-label={showMap ? 'Hide the overview map' : 'Show the overview map'}
            title={showMap ? 'Hide the overview map' : 'Show the overview map'}
          >
            <MapIcon />
          </ControlButton>
        </Controls>
        {showMap && mapReady && (
          <MiniMap<TopologyNode>
            pannable
            zoomable
            ariaLabel="Overview of the whole graph"
            nodeColor={miniMapColour}
            nodeComponent={MiniMapBlock}
            nodeStrokeWidth={0}
          />
        )}
      </ReactFlow>
    </GraphActions.Provider>
  );
}

/** The React Flow canvas: zoom and pan, minimap, keyboard focus on nodes, Enter or click to open. */
export function TopologyGraph(props: TopologyGraphProps) {
  return (
    <ReactFlowProvider key={props.layoutKey}>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}
