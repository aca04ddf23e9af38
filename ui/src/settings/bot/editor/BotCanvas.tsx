import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  applyNodeChanges,
  getViewportForBounds,
  useNodesInitialized,
  useReactFlow,
  useStoreApi,
  type Connection,
  type Edge,
  type IsValidConnection,
  type NodeChange,
  type OnNodeDrag,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { texts } from '../../../i18n/ptBR';
import type { BotDoc } from '../botTypes';
import { useEditor } from './EditorContext';
import { handleId, isValidJump, parseHandle, setJump } from './draft';
import { PathNode, type PathNodeType } from './PathNode';
import { JumpEdge } from './JumpEdge';
import { computeLayout, labelReach, needsLayout, type LayoutEdge, type Rect } from './autoLayout';

const nodeTypes = { path: PathNode };
const edgeTypes = { jump: JumpEdge };
/** Size of a node React Flow has not measured yet (PathNode is 280 px wide). */
const UNMEASURED = { width: 280, height: 160 };
const t = texts.bots;

/** Nodes for the document's paths; positions from the saved layout, measurements kept from the previous nodes. */
function buildNodes(doc: BotDoc, previous: PathNodeType[]): PathNodeType[] {
  const before = new Map(previous.map((n) => [n.id, n]));
  return doc.paths.map((p, i) => {
    const old = before.get(p.guid);
    const position = doc.layout?.[p.guid] ?? old?.position ?? { x: i * 340, y: 0 };
    return { id: p.guid, type: 'path', position, data: { guid: p.guid }, ...(old?.measured ? { measured: old.measured } : {}), ...(old?.selected ? { selected: true } : {}) };
  });
}

function boxOf(n: PathNodeType, extraWidth: number): Rect {
  return { x: n.position.x, y: n.position.y, width: (n.measured?.width ?? UNMEASURED.width) + extraWidth, height: n.measured?.height ?? UNMEASURED.height };
}

const layoutEdges = (edges: readonly Edge[]): LayoutEdge[] => edges.map((e) => ({ source: e.source, target: e.target, ...(typeof e.label === 'string' ? { label: e.label } : {}) }));

/** Edges for every jump: menu options (labelled), goto/path actions and integration failure branches (dashed). */
export function buildEdges(doc: BotDoc): Edge[] {
  const edges: Edge[] = [];
  const marker = { type: MarkerType.ArrowClosed };
  for (const p of doc.paths) {
    for (const a of p.actions) {
      if (a.type === 'menu') {
        for (const o of a.options) {
          if (o.goTo) edges.push({ type: 'jump', id: `e:${handleId({ kind: 'option', action: a.guid, option: o.guid })}`, source: p.guid, sourceHandle: handleId({ kind: 'option', action: a.guid, option: o.guid }), target: o.goTo, targetHandle: 'in', label: o.name, markerEnd: marker });
        }
      } else if ((a.type === 'goto' || a.type === 'path') && a.goToPath && doc.paths.some((x) => x.guid === a.goToPath)) {
        edges.push({ type: 'jump', id: `e:${handleId({ kind: 'jump', action: a.guid })}`, source: p.guid, sourceHandle: handleId({ kind: 'jump', action: a.guid }), target: a.goToPath, targetHandle: 'in', markerEnd: marker, animated: a.type === 'goto' });
      } else if (a.type === 'integration' && a.failurePath) {
        edges.push({ type: 'jump', id: `e:${handleId({ kind: 'failure', action: a.guid })}`, source: p.guid, sourceHandle: handleId({ kind: 'failure', action: a.guid }), target: a.failurePath, targetHandle: 'in', label: t.edges.failure, markerEnd: marker, style: { strokeDasharray: '6 4' } });
      }
    }
  }
  return edges.filter((e) => doc.paths.some((p) => p.guid === e.target));
}

/**
 * The React Flow canvas: one node per path, edges derived from the document (never stored apart from it).
 * Connecting a jump handle to a path points that option/action at it; node drags are saved into `layout`.
 */
export function BotCanvas({ organizeRef }: { organizeRef: MutableRefObject<(() => void) | null> }) {
  const { doc, update } = useEditor();
  const [nodes, setNodes] = useState<PathNodeType[]>(() => buildNodes(doc, []));
  useEffect(() => setNodes((previous) => buildNodes(doc, previous)), [doc]);
  const edges = useMemo(() => buildEdges(doc), [doc]);
  const nodesRef = useRef(nodes);
  nodesRef.current = nodes;
  const edgesRef = useRef(edges);
  edgesRef.current = edges;
  const docRef = useRef(doc);
  docRef.current = doc;
  const { setViewport } = useReactFlow();
  const store = useStoreApi<PathNodeType, Edge>();

  /** Shows every node and the edge labels right of them (never cut by the canvas), at most at 100 %. */
  const fitAll = useCallback(() => {
    const list = nodesRef.current;
    if (!list.length) return;
    const reach = labelReach(layoutEdges(edgesRef.current));
    const boxes = list.map((n) => boxOf(n, reach.get(n.id) ?? 0));
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    const bounds = { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
    const { width, height, minZoom } = store.getState();
    if (!width || !height) return;
    void setViewport(getViewportForBounds(bounds, width, height, minZoom, 1, 0.08));
  }, [setViewport, store]);

  /**
   * Lays the paths out with dagre. `silent` (on open) does not count as an edit: the positions are saved
   * with the bot's next save; 'Organizar' is an edit like a drag.
   */
  const organize = useCallback(
    async (silent: boolean) => {
      const sizes = new Map(nodesRef.current.map((n) => [n.id, boxOf(n, 0)]));
      const positions = await computeLayout(
        docRef.current.paths.map((p) => p.guid),
        sizes,
        layoutEdges(edgesRef.current),
      );
      update((d) => ({ ...d, layout: { ...d.layout, ...positions } }), { silent });
      window.setTimeout(fitAll, 50);
    },
    [update, fitAll],
  );
  // The toolbar's 'Organizar'.
  useEffect(() => {
    organizeRef.current = () => void organize(false);
    return () => {
      organizeRef.current = null;
    };
  }, [organize, organizeRef]);

  // On open, once React Flow has measured the nodes: lay out when positions are missing or overlap.
  const initialized = useNodesInitialized();
  const checked = useRef(false);
  useEffect(() => {
    if (!initialized || checked.current) return;
    checked.current = true;
    const boxes = new Map(nodesRef.current.map((n) => [n.id, boxOf(n, 0)]));
    if (needsLayout(docRef.current, boxes, layoutEdges(edgesRef.current))) void organize(true);
    else fitAll();
  }, [initialized, organize, fitAll]);

  // A path added or removed: show the whole flow again, so the new node is on screen.
  const pathCount = doc.paths.length;
  useEffect(() => {
    if (!checked.current) return;
    const timer = window.setTimeout(fitAll, 50);
    return () => window.clearTimeout(timer);
  }, [pathCount, fitAll]);

  const onNodesChange = useCallback((changes: NodeChange<PathNodeType>[]) => setNodes((nds) => applyNodeChanges(changes, nds)), []);
  const onNodeDragStop: OnNodeDrag<PathNodeType> = useCallback(
    (_event, _node, dragged) => update((d) => ({ ...d, layout: { ...d.layout, ...Object.fromEntries(dragged.map((n) => [n.id, { x: Math.round(n.position.x), y: Math.round(n.position.y) }])) } })),
    [update],
  );
  const isValidConnection: IsValidConnection = useCallback((c) => isValidJump(doc, c), [doc]);
  const onConnect = useCallback(
    (c: Connection) => {
      const h = parseHandle(c.sourceHandle);
      if (!h || !isValidJump(doc, c)) return;
      update((d) => setJump(d, c.source, h, c.target));
    },
    [doc, update],
  );

  return (
    <ReactFlow<PathNodeType, Edge>
      aria-label={t.canvas}
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      onNodeDragStop={onNodeDragStop}
      onConnect={onConnect}
      isValidConnection={isValidConnection}
      deleteKeyCode={null}
      edgeTypes={edgeTypes}
      fitView
      fitViewOptions={{ maxZoom: 1 }}
      minZoom={0.2}
    >
      <Background />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}
