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
  type Viewport,
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
import { MAX_FIT_ZOOM } from '../layout/dimensions';
import type { ViewLayout } from '../layout/view-layout';
import {
  anchoredViewport,
  centred,
  firstViewport,
  fitZoom,
  frameLegibly,
  MAX_ZOOM,
  MIN_ZOOM,
  type ViewRequest,
} from '../layout/viewport';
import type { Canvas } from '../model/auto-expand';
import type { AttachmentEdge, FlowElements, TopologyNode } from '../model/flow-elements';
import { AttachmentEdgeView } from './attachment-edge';
import { detailPath, GraphActions, nodeTypes } from './graph-nodes';

const edgeTypes = { attachment: AttachmentEdgeView };

export interface TopologyGraphProps {
  elements: Pick<FlowElements, 'nodes' | 'edges'>;
  layout: ViewLayout;
  /** The canvas size the first view is computed for (measured by the page). */
  canvas: Canvas;
  /** Changes when the data's shape changes, to start again from the first view. */
  viewKey: string;
  request: ViewRequest;
  onFocusNode: (id: string | null) => void;
  /** A click on empty canvas (drops a pinned highlight). */
  onPaneClick: () => void;
  onlyHost: (hostId: string) => void;
  /** Opens or folds a zone, host, fold chip or group of volumes. */
  onToggle: (nodeId: string) => void;
  /** Back to the first view: what fits, opened; the rest folded. */
  onReset: () => void;
  describedBy: string;
}

const nodeIdOf = (target: EventTarget | null): string | null =>
  target instanceof Element ? (target.closest('.react-flow__node')?.getAttribute('data-id') ?? null) : null;

function miniMapColour(node: TopologyNode): string {
  switch (node.type) {
    case 'zone':
    case 'host':
    case 'fold':
      return node.data.risks.writers || node.data.risks.stuck ? '#fca5a5' : '#cbd5e1';
    case 'server':
      return node.data.stuck || node.data.writer ? '#b91c1c' : '#64748b';
    case 'volumes':
      return node.data.risks.writers || node.data.risks.stuck ? '#b91c1c' : '#0369a1';
    default:
      return node.data.multipleWriters || node.data.stuck ? '#b91c1c' : '#0369a1';
  }
}

// A plain rect per node: cheap whatever the size.
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

function ResetIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth={1.6}>
      <path d="M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5v2.8h2.8" />
    </svg>
  );
}

function Graph({
  elements,
  layout,
  canvas,
  request,
  onFocusNode,
  onPaneClick,
  onlyHost,
  onToggle,
  onReset,
  describedBy,
}: TopologyGraphProps) {
  const navigate = useNavigate();
  const flow = useReactFlow<TopologyNode, AttachmentEdge>();
  const [showMap, setShowMap] = useState(false);
  // The dot grid scales with the zoom: zoomed far out it becomes sub-pixel dots that are slow to draw.
  const dots = useStore((s) => s.transform[2] >= 0.3);
  const measured = useStore((s) => (s.width > 0 && s.height > 0 ? `${s.width}x${s.height}` : null));
  const canvasNow = useMemo((): Canvas => {
    if (!measured) return canvas;
    const [w, h] = measured.split('x').map(Number);
    return { width: w ?? canvas.width, height: h ?? canvas.height };
  }, [measured, canvas]);
  // Opened by "Show in graph" from the table: framed at once; otherwise the first view.
  const [initial] = useState(
    () =>
      (request.kind === 'frame' ? frameLegibly(layout, request.ids, request.fallback, canvas) : null) ??
      firstViewport(layout, canvas),
  );

  // Applies each request once, after the layout it belongs to has been drawn.
  const applied = useRef(request.n);
  useEffect(() => {
    if (applied.current === request.n) return;
    applied.current = request.n;
    let next: Viewport | null = null;
    if (request.kind === 'first') next = firstViewport(layout, canvasNow);
    else if (request.kind === 'frame') next = frameLegibly(layout, request.ids, request.fallback, canvasNow);
    else if (request.kind === 'anchor') {
      const after = layout.abs.get(request.nodeId);
      if (after) next = anchoredViewport(flow.getViewport(), request.before, after, canvasNow);
    }
    if (next) void flow.setViewport(next, { duration: request.kind === 'frame' ? 400 : 0 });
  }, [request, layout, canvasNow, flow]);

  const open = useCallback(
    (id: string) => {
      const path = detailPath(id);
      if (path) navigate(path);
      else onToggle(id);
    },
    [navigate, onToggle],
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const id = nodeIdOf(e.target);
    // Only the node itself: a button inside a box handles its own keys.
    if (id && e.target instanceof Element && e.target.classList.contains('react-flow__node')) {
      e.preventDefault();
      open(id);
    }
  };
  const actions = useMemo(() => ({ onlyHost, toggle: onToggle }), [onlyHost, onToggle]);
  const fitWhole = () => {
    const box = { x: 0, y: 0, w: layout.width, h: layout.height };
    void flow.setViewport(centred(box, fitZoom(box, canvasNow, MIN_ZOOM, MAX_FIT_ZOOM), canvasNow), {
      duration: 300,
    });
  };

  return (
    <GraphActions.Provider value={actions}>
      <ReactFlow<TopologyNode, AttachmentEdge>
        nodes={elements.nodes}
        edges={elements.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onlyRenderVisibleElements
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable
        edgesFocusable={false}
        // Lines stay under the boxes: they leave a host or zone at its border instead of
        // criss-crossing its other servers (React Flow would lift lines of child nodes above them).
        zIndexMode="manual"
        minZoom={MIN_ZOOM}
        maxZoom={MAX_ZOOM}
        defaultViewport={initial}
        // Our own attribution below: React Flow's is 10 px grey on white, under the contrast minimum.
        proOptions={{ hideAttribution: true }}
        onNodeClick={(_, node) => {
          // An open zone or host is folded with its header's button, not by a click anywhere inside.
          const openBox = (node.type === 'zone' || node.type === 'host') && node.data.mode === 'expanded';
          if (!openBox) open(node.id);
        }}
        onPaneClick={onPaneClick}
        onNodeMouseEnter={(_, node) => onFocusNode(node.id)}
        onNodeMouseLeave={() => onFocusNode(null)}
        onFocus={(e: FocusEvent<HTMLDivElement>) => onFocusNode(nodeIdOf(e.target))}
        onBlur={() => onFocusNode(null)}
        onKeyDown={onKeyDown}
        aria-describedby={describedBy}
      >
        {dots && <Background gap={24} color="#cbd5e1" />}
        <Controls showInteractive={false} showFitView={false}>
          <ControlButton onClick={fitWhole} aria-label="Fit the whole graph" title="Fit the whole graph">
            <FitIcon />
          </ControlButton>
          <ControlButton
            onClick={onReset}
            aria-label="Back to the first view"
            title="Back to the first view: what fits is open, the rest folded"
          >
            <ResetIcon />
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
        {showMap && (
          <MiniMap<TopologyNode>
            pannable
            zoomable
            ariaLabel="Overview of the whole graph"
            nodeColor={miniMapColour}
            nodeComponent={MiniMapBlock}
            nodeStrokeWidth={0}
          />
        )}
        <Panel position="bottom-right" className="!m-1">
          <a
            href="https://reactflow.dev"
            target="_blank"
            rel="noreferrer"
            className="rounded bg-white/95 px-1 text-xs text-slate-700 underline-offset-2 hover:underline"
          >
            React Flow
          </a>
        </Panel>
      </ReactFlow>
    </GraphActions.Provider>
  );
}

/** The React Flow canvas: zoom and pan, keyboard focus on nodes, Enter or a click to open or fold. */
export function TopologyGraph(props: TopologyGraphProps) {
  return (
    <ReactFlowProvider key={props.viewKey}>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}
