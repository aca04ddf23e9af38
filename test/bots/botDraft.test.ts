import { expect } from 'chai';
import { newBot } from '../../api/bots/schema';
import type { BotDoc } from '../../ui/src/settings/bot/botTypes';
import { addPath, blankAction, handleId, isValidJump, moveAction, movePath, removePath, saveAction, setJump, validateDoc } from '../../ui/src/settings/bot/editor/draft';
import { anchorErrors, keyErrors } from '../../ui/src/settings/bot/editor/anchoredErrors';
import { dropIndex } from '../../ui/src/settings/bot/editor/sortOrder';
import { exportFile, exportFileName, parseBotFile } from '../../ui/src/settings/bot/importExport';

/** The editor's document operations (ui/src/settings/bot/editor/draft.ts), without a browser. */
function menuDoc() {
  let doc = newBot() as BotDoc;
  const start = addPath(doc, 'Início');
  const sales = addPath(start.doc, 'Vendas');
  doc = sales.doc;
  const menu = { ...blankAction('menu'), options: [{ guid: crypto.randomUUID(), name: 'Vendas', goTo: null }] } as Extract<ReturnType<typeof blankAction>, { type: 'menu' }>;
  doc = saveAction(doc, start.guid, { guid: crypto.randomUUID(), type: 'message', text: 'Olá' });
  doc = saveAction(doc, start.guid, menu);
  return { doc, start: start.guid, sales: sales.guid, menu };
}

describe('bot editor document (draft.ts)', () => {
  it('new paths get their own layout spot below the others', () => {
    const { doc, start, sales } = menuDoc();
    expect(doc.layout[start]).to.deep.equal({ x: 0, y: 0 });
    expect(doc.layout[sales]).to.deep.equal({ x: 0, y: 260 });
  });

  it('connecting a menu option handle to a path sets its goTo; only valid jumps are accepted', () => {
    const { doc, start, sales, menu } = menuDoc();
    const option = handleId({ kind: 'option', action: menu.guid, option: menu.options[0]!.guid });
    expect(isValidJump(doc, { source: start, sourceHandle: option, target: sales, targetHandle: 'in' })).to.equal(true);
    // A menu may lead back to its own path (it waits for a reply).
    expect(isValidJump(doc, { source: start, sourceHandle: option, target: start, targetHandle: 'in' })).to.equal(true);
    expect(isValidJump(doc, { source: start, sourceHandle: option, target: sales, targetHandle: 'option:x:y' })).to.equal(false);
    expect(isValidJump(doc, { source: start, sourceHandle: 'option:nope:nope', target: sales, targetHandle: 'in' })).to.equal(false);
    expect(isValidJump(doc, { source: start, sourceHandle: option, target: 'missing', targetHandle: 'in' })).to.equal(false);
    const linked = setJump(doc, start, { kind: 'option', action: menu.guid, option: menu.options[0]!.guid }, sales);
    const saved = linked.paths[0]!.actions[1] as typeof menu;
    expect(saved.options[0]!.goTo).to.equal(sales);
    expect(validateDoc(linked)).to.deep.equal({});
  });

  it('refuses a goto into its own path (a loop that never waits)', () => {
    const { doc, sales } = menuDoc();
    const goto = { guid: crypto.randomUUID(), type: 'goto' as const, goToPath: sales };
    const withGoto = saveAction(doc, sales, goto);
    const jump = handleId({ kind: 'jump', action: goto.guid });
    expect(isValidJump(withGoto, { source: sales, sourceHandle: jump, target: sales, targetHandle: 'in' })).to.equal(false);
  });

  it('never lets a reorder put an action after a terminal one', () => {
    const { doc, start } = menuDoc();
    expect(moveAction(doc, start, 1, 0)).to.equal(doc);
    const swapped = moveAction(doc, start, 0, 1);
    expect(swapped).to.equal(doc);
    expect(movePath(doc, 1, 0).paths.map((p) => p.name)).to.deep.equal(['Vendas', 'Início']);
  });

  it('removing a path clears the menu options that led to it', () => {
    const { doc, start, sales, menu } = menuDoc();
    const linked = setJump(doc, start, { kind: 'option', action: menu.guid, option: menu.options[0]!.guid }, sales);
    const removed = removePath(linked, sales);
    expect((removed.paths[0]!.actions[1] as typeof menu).options[0]!.goTo).to.equal(null);
    expect(removed.layout).to.not.have.property(sales);
  });

  it('a server error stays on its action when actions are reordered', () => {
    const { doc, start } = menuDoc();
    const anchored = anchorErrors(doc, { 'paths.0.actions.0.text': 'Erro', 'channels.0': 'Canal não encontrado.' });
    const withTag = saveAction(doc, start, { guid: crypto.randomUUID(), type: 'tag', tag: 1, text: '' });
    // Put the new action first by rebuilding the path order.
    const reordered = { ...withTag, paths: withTag.paths.map((p) => (p.guid === start ? { ...p, actions: [p.actions[2]!, p.actions[0]!, p.actions[1]!] } : p)) };
    expect(keyErrors(reordered, anchored)).to.deep.equal({ 'paths.0.actions.1.text': 'Erro', 'channels.0': 'Canal não encontrado.' });
  });

  it('drop index follows the pointer across item middles', () => {
    const middles = [10, 30, 50, 70];
    expect(dropIndex(middles, 5, 2)).to.equal(0);
    expect(dropIndex(middles, 40, 0)).to.equal(1);
    expect(dropIndex(middles, 90, 0)).to.equal(3);
    expect(dropIndex(middles, 55, 3)).to.equal(3);
  });

  it('export file round-trips and an invalid file is rejected', () => {
    const { doc } = menuDoc();
    expect(parseBotFile(exportFile(doc))?.paths).to.deep.equal(doc.paths);
    expect(parseBotFile('não é json')).to.equal(null);
    expect(parseBotFile('{"balcaoBot": 2, "bot": {}}')).to.equal(null);
    expect(parseBotFile(JSON.stringify({ balcaoBot: 1, bot: { ...doc, id: 5 } }))).to.equal(null);
    expect(exportFileName('Atendimento Ágil #1')).to.equal('bot-atendimento-agil-1.json');
  });
});
