import type { BotDoc } from '../botTypes';

/**
 * Automatic layout of the bot canvas (docs/bots-editor.md "Layout"): paths left to right in the order the
 * flow reaches them (dagre, loaded on first use so it stays out of every bundle until a layout is needed).
 * Edge labels sit just right of their source handle, so the gap between columns is made wide enough for
 * the widest label: a laid-out canvas has no label over a node.
 */

export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}
export interface Rect extends Point, Size {}

/** Labels wider than this are cut with '…' and carry their whole text in `title`. */
export const LABEL_MAX_WIDTH = 220;
/** Where a label starts, right of its source handle. */
export const LABEL_OFFSET = 14;
const LABEL_FONT = '500 12px Roboto, Helvetica, Arial, sans-serif';
/** Horizontal padding and border of a label (px-1 each side + 1 px border each side). */
const LABEL_CHROME = 18;

/** The little of a canvas this measures with; typed here so the module also loads where there is no DOM (the unit tests). */
interface MeasuringCanvas {
  getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } | null;
}
let canvas: MeasuringCanvas | undefined;
/** The width a label takes on screen (unscaled), capped at LABEL_MAX_WIDTH; outside a browser, 7 px a character. */
export function labelWidth(text: string): number {
  const doc = (globalThis as { document?: { createElement(tag: 'canvas'): MeasuringCanvas } }).document;
  canvas ??= doc?.createElement('canvas');
  const context = canvas?.getContext('2d');
  let width = text.length * 7;
  if (context) {
    context.font = LABEL_FONT;
    width = context.measureText(text).width;
  }
  return Math.min(LABEL_MAX_WIDTH, Math.ceil(width) + LABEL_CHROME);
}

export interface LayoutEdge {
  source: string;
  target: string;
  label?: string;
}

/** How far right of its node a path's widest edge label reaches (0 without labels). */
export function labelReach(edges: readonly LayoutEdge[]): Map<string, number> {
  const reach = new Map<string, number>();
  for (const e of edges) {
    if (!e.label) continue;
    reach.set(e.source, Math.max(reach.get(e.source) ?? 0, LABEL_OFFSET + labelWidth(e.label)));
  }
  return reach;
}

const intersects = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Whether the saved positions need a layout: a path without a position, two nodes over each other, or a
 * node's edge labels (right of it) over another node.
 */
export function needsLayout(doc: BotDoc, boxes: ReadonlyMap<string, Rect>, edges: readonly LayoutEdge[]): boolean {
  if (doc.paths.some((p) => !doc.layout?.[p.guid])) return true;
  const reach = labelReach(edges);
  const list = [...boxes.entries()];
  for (const [id, box] of list) {
    const withLabels = { ...box, width: box.width + (reach.get(id) ?? 0) };
    for (const [other, otherBox] of list) {
      if (other !== id && intersects(withLabels, otherBox)) return true;
    }
  }
  return false;
}

/** Node positions (top-left corners, rounded) for the paths, left to right from the first path. */
export async function computeLayout(paths: readonly string[], sizes: ReadonlyMap<string, Size>, edges: readonly LayoutEdge[]): Promise<Record<string, Point>> {
  const { default: dagre } = await import('@dagrejs/dagre');
  const widestLabel = Math.max(0, ...labelReach(edges).values());
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 48, ranksep: Math.max(96, widestLabel + 48), marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  // Nodes in the document's order: the first path (where the bot starts) is where the walk begins, so it
  // comes out leftmost and the jumps back to it are the ones turned around.
  for (const id of paths) {
    const size = sizes.get(id) ?? { width: 280, height: 160 };
    g.setNode(id, { width: size.width, height: size.height });
  }
  edges.forEach((e, i) => {
    if (e.source !== e.target && g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target, {}, `e${i}`);
  });
  dagre.layout(g);
  const positions: Record<string, Point> = {};
  for (const id of paths) {
    const n = g.node(id);
    positions[id] = { x: Math.round(n.x - n.width / 2), y: Math.round(n.y - n.height / 2) };
  }
  return positions;
}
