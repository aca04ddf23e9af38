import { expect } from 'chai';
import { newBot } from '../../api/bots/schema';
import type { BotDoc } from '../../ui/src/settings/bot/botTypes';
import { computeLayout, LABEL_MAX_WIDTH, labelWidth, needsLayout, type Rect } from '../../ui/src/settings/bot/editor/autoLayout';

/** The bot canvas's automatic layout (ui/src/settings/bot/editor/autoLayout.ts), without a browser. */
function doc(guids: string[], layout: BotDoc['layout']): BotDoc {
  return { ...(newBot() as BotDoc), paths: guids.map((guid) => ({ guid, name: guid, actions: [] })), layout };
}
const box = (x: number, y: number, width = 280, height = 200): Rect => ({ x, y, width, height });
const intersects = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('bot editor: automatic layout', () => {
  it('asks for a layout when a path has no position, two nodes overlap, or a node’s labels cover another node', () => {
    const spread = { a: { x: 0, y: 0 }, b: { x: 400, y: 0 } };
    const boxes = new Map([['a', box(0, 0)], ['b', box(400, 0)]]);
    expect(needsLayout(doc(['a', 'b'], spread), boxes, [])).to.equal(false);
    expect(needsLayout(doc(['a', 'b'], { a: { x: 0, y: 0 } }), boxes, [])).to.equal(true);
    expect(needsLayout(doc(['a', 'b'], spread), new Map([['a', box(0, 0)], ['b', box(200, 150)]]), [])).to.equal(true);
    // 120 px between the nodes: a short label fits, the widest one does not.
    expect(needsLayout(doc(['a', 'b'], spread), boxes, [{ source: 'a', target: 'b', label: 'Sim' }])).to.equal(false);
    expect(needsLayout(doc(['a', 'b'], spread), boxes, [{ source: 'a', target: 'b', label: 'x'.repeat(200) }])).to.equal(true);
  });

  it('places every path, first path leftmost, without overlaps and with room for the widest label between columns', async () => {
    const paths = ['inicio', 'vendas', 'suporte', 'fim'];
    const sizes = new Map([['inicio', { width: 280, height: 320 }], ['vendas', { width: 280, height: 120 }], ['suporte', { width: 280, height: 260 }], ['fim', { width: 280, height: 90 }]]);
    const edges = [
      { source: 'inicio', target: 'vendas', label: 'Quero comprar um bolo de aniversário para sábado' },
      { source: 'inicio', target: 'suporte', label: 'Suporte' },
      { source: 'vendas', target: 'fim' },
      { source: 'suporte', target: 'inicio', label: 'Voltar' },
    ];
    const positions = await computeLayout(paths, sizes, edges);
    expect(Object.keys(positions)).to.have.members(paths);
    const rects = paths.map((p) => ({ ...positions[p]!, ...sizes.get(p)! }));
    rects.forEach((a, i) => rects.slice(i + 1).forEach((b) => expect(intersects(a, b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`).to.equal(false)));
    for (const p of paths.slice(1)) expect(positions[p]!.x).to.be.greaterThan(positions.inicio!.x);
    // The next column starts past the end of the widest label (capped at LABEL_MAX_WIDTH).
    expect(labelWidth('x'.repeat(500))).to.equal(LABEL_MAX_WIDTH);
    expect(positions.vendas!.x - (positions.inicio!.x + 280)).to.be.at.least(LABEL_MAX_WIDTH);
    expect(needsLayout(doc(paths, positions), new Map(paths.map((p, i) => [p, rects[i]!])), edges)).to.equal(false);
  });
});
