import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  applyNodeChanges,
  useReactFlow,
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

const nodeTypes = { path: PathNode };
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

/** Edges for every jump: menu options (labelled), goto/path actions and integration failure branches (dashed). */
export function buildEdges(doc: BotDoc): Edge[] {
  const edges: Edge[] = [];
  const marker = { type: MarkerType.ArrowClosed };
  for (const p of doc.paths) {
    for (const a of p.actions) {
      if (a.type === 'menu') {
        for (const o of a.options) {
          if (o.goTo) edges.push({ id: `e:${handleId({ kind: 'option', action: a.guid, option: o.guid })}`, source: p.guid, sourceHandle: handleId({ kind: 'option', action: a.guid, option: o.guid }), target: o.goTo, targetHandle: 'in', label: o.name, markerEnd: marker });
        }
      } else if ((a.type === 'goto' || a.type === 'path') && a.goToPath && doc.paths.some((x) => x.guid === a.goToPath)) {
        edges.push({ id: `e:${handleId({ kind: 'jump', action: a.guid })}`, source: p.guid, sourceHandle: handleId({ kind: 'jump', action: a.guid }), target: a.goToPath, targetHandle: 'in', markerEnd: marker, animated: a.type === 'goto' });
      } else if (a.type === 'integration' && a.failurePath) {
        edges.push({ id: `e:${handleId({ kind: 'failure', action: a.guid })}`, source: p.guid, sourceHandle: handleId({ kind: 'failure', action: a.guid }), target: a.failurePath, targetHandle: 'in', label: t.edges.failure, markerEnd: marker, style: { strokeDasharray: '6 4' } });
      }
    }
  }
  return edges.filter((e) => doc.paths.some((p) => p.guid === e.target));
}

/**
 * The React Flow canvas: one node per path, edges derived from the document (never stored apart from it).
 * Connecting a jump handle to a path points that option/action at it; node drags are saved into `layout`.
 */
export function BotCanvas() {
  const { doc, update } = useEditor();
  const [nodes, setNodes] = useState<PathNodeType[]>(() => buildNodes(doc, []));
  useEffect(() => setNodes((previous) => buildNodes(doc, previous)), [doc]);
  const edges = useMemo(() => buildEdges(doc), [doc]);
  // A path added or removed: show the whole flow again, so the new node is on screen.
  const { fitView } = useReactFlow();
  const pathCount = doc.paths.length;
  useEffect(() => {
    const timer = window.setTimeout(() => void fitView({ maxZoom: 1, padding: 0.15 }), 50);
    return () => window.clearTimeout(timer);
  }, [pathCount, fitView]);

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
      fitView
      fitViewOptions={{ maxZoom: 1 }}
      minZoom={0.2}
    >
      <Background />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}
