import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { openPage, useAppPage, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation } from '../inbox/factories';
import { logIn } from './support';

const card = (page: Page, name: string) => page.locator('article[data-kanban-card]', { hasText: name });
const column = (page: Page, heading: string | RegExp) => page.locator('section[data-kanban-column]').filter({ has: page.getByRole('heading', { name: heading }) });
const inColumn = (page: Page, heading: string | RegExp, name: string): Locator => column(page, heading).locator('article[data-kanban-card]', { hasText: name });
type Row = { stageId: number | null; isFinished: boolean; operatorId: number | null };
const rowOf = async (api: TestApi, id: number) => (await api.deps.knex('customer_platforms').where({ id }).first('stage_id', 'is_finished', 'operator_id')) as Row;
/** Waits until the conversation's row shows the change (the board moves the card before the server answers). */
async function until(api: TestApi, id: number, ok: (row: Row) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!ok(await rowOf(api, id))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await rowOf(api, id))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('e2e: kanban — the board of conversations, moves by mouse and keyboard, live in another browser, the chat beside it', function () {
  this.timeout(240_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let master: TestOperator;
  let agent: TestOperator;
  let second: BrowserSession | undefined;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6, { name: 'Marta Gestora' });
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ana Agente' });
  });
  afterEach(async () => {
    await second?.close();
    second = undefined;
  });

  it('opens from the inbox, groups by status and by funnel; a card dragged or moved by keyboard is the real change, seen live by another agent; the chat opens beside the board', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const lia = await makeConversation(api.deps, channel, { name: 'Lia Campos', text: 'Quero um bolo de cenoura' });
    const bia = await makeConversation(api.deps, channel, { name: 'Bia Nunes', text: 'Vocês entregam?' });
    const rui = await makeConversation(api.deps, channel, { name: 'Rui Prado', text: 'Obrigado!', operatorId: agent.id });
    const funnel = await api.request('POST', '/api/funnels', { token: master.token, body: { name: 'Encomendas', stages: [{ name: 'Pedido', color: '#2E90FA' }, { name: 'Produção', color: '#F79009' }] } });
    expect(funnel.status, JSON.stringify(funnel.body)).to.equal(201);
    const [pedido, producao] = funnel.body.data.stages as { id: number }[];

    // The agent's board, in a second browser, stays open on the same board all along.
    second = await openPage(api.url);
    const other = second.page;
    await logIn(other, agent, { live: true });
    await other.goto('/inbox/kanban');
    await inColumn(other, /^Aguardando/, 'Lia Campos').waitFor();

    // From the inbox's 'Quadro' button: columns by status with names, channel, last message, waiting time and assignee.
    await logIn(page, master, { live: true });
    await page.getByRole('link', { name: 'Quadro' }).click();
    await page.waitForURL('**/inbox/kanban*');
    await page.getByRole('heading', { name: 'Quadro de conversas' }).waitFor();
    // The heading comes before the board's data (CI on a slow machine read no column yet): wait for the last column.
    await page.locator('section[data-kanban-column="resolved"]').waitFor();
    expect(await page.locator('section[data-kanban-column]').evaluateAll((els) => els.map((el) => (el as any).dataset.kanbanColumn))).to.deep.equal(['waiting', 'active', 'resolved']);
    const liaCard = inColumn(page, /^Aguardando/, 'Lia Campos');
    await liaCard.waitFor();
    expect(await liaCard.innerText()).to.include('Quero um bolo de cenoura').and.include('Sem responsável').and.include('Esperando há');
    expect(await inColumn(page, /^Em atendimento/, 'Rui Prado').innerText()).to.include('Ana Agente');
    expect(await column(page, /^Aguardando/).locator('[data-count]').innerText()).to.equal('2');

    // Dragged with the mouse to 'Resolvidas': resolved through the inbox's command, live in the agent's browser.
    await liaCard.dragTo(column(page, /^Resolvidas/));
    await inColumn(page, /^Resolvidas/, 'Lia Campos').waitFor();
    await page.getByRole('status').filter({ hasText: 'Conversa movida para Resolvidas.' }).waitFor({ state: 'attached' });
    await until(api, lia.conversationId, (r) => r.isFinished, 'Lia resolved');
    await inColumn(other, /^Resolvidas/, 'Lia Campos').waitFor();
    expect(await inColumn(other, /^Aguardando/, 'Lia Campos').count()).to.equal(0);
    const call = await api.deps.knex('calls').where({ id: lia.callId }).first('is_finished');
    expect(call.isFinished).to.equal(true);

    // By keyboard: the focused card, M, 'Em atendimento' — the master takes it.
    const biaCard = inColumn(page, /^Aguardando/, 'Bia Nunes');
    await biaCard.focus();
    await page.keyboard.press('m');
    await page.getByRole('menu', { name: 'Mover para…' }).getByRole('menuitem', { name: 'Em atendimento' }).click();
    await inColumn(page, /^Em atendimento/, 'Bia Nunes').waitFor();
    await until(api, bia.conversationId, (r) => r.operatorId === master.id, 'Bia assigned to the master');
    await inColumn(page, /^Em atendimento/, 'Bia Nunes').filter({ hasText: 'Marta Gestora' }).waitFor();
    // The keyboard stays on the moved card.
    await page.waitForFunction("document.activeElement?.dataset?.column === 'active'");

    // Grouped by the funnel: 'Sem etapa' and its stages in order, colour dots; the agent switches too.
    await page.getByLabel('Agrupar por').selectOption('stage');
    await page.waitForURL('**groupBy=stage**');
    await column(page, /^Sem etapa/).waitFor();
    await page.locator(`section[data-kanban-column="${producao.id}"]`).waitFor();
    expect(await page.locator('section[data-kanban-column]').evaluateAll((els) => els.map((el) => (el as any).dataset.kanbanColumn))).to.deep.equal(['none', String(pedido.id), String(producao.id)]);
    await other.getByLabel('Agrupar por').selectOption('stage');
    await inColumn(other, /^Sem etapa/, 'Rui Prado').waitFor();

    // Rui by keyboard into 'Pedido' (M), then Alt+→ into 'Produção'; the agent sees both moves arrive.
    const ruiCard = inColumn(page, /^Sem etapa/, 'Rui Prado');
    await ruiCard.focus();
    await page.keyboard.press('m');
    await page.getByRole('menu', { name: 'Mover para…' }).getByRole('menuitem', { name: 'Pedido' }).click();
    await inColumn(page, /^Pedido/, 'Rui Prado').waitFor();
    await until(api, rui.conversationId, (r) => r.stageId === pedido.id, 'Rui in Pedido');
    await inColumn(other, /^Pedido/, 'Rui Prado').waitFor();
    await page.waitForFunction(`document.activeElement?.dataset?.column === '${pedido.id}'`);
    await page.keyboard.press('Alt+ArrowRight');
    await inColumn(page, /^Produção/, 'Rui Prado').waitFor();
    await until(api, rui.conversationId, (r) => r.stageId === producao.id, 'Rui in Produção');
    await inColumn(other, /^Produção/, 'Rui Prado').waitFor();
    expect(await inColumn(other, /^Pedido/, 'Rui Prado').count()).to.equal(0);

    // Dragged back to 'Sem etapa' with the mouse.
    await inColumn(page, /^Produção/, 'Rui Prado').dragTo(column(page, /^Sem etapa/));
    await inColumn(page, /^Sem etapa/, 'Rui Prado').waitFor();
    await until(api, rui.conversationId, (r) => r.stageId === null, 'Rui out of the funnel');

    // The chat opens beside the board (Enter on a card, or a click): messages and composer, the board still there.
    expect(await inColumn(page, /^Sem etapa/, 'Bia Nunes').getAttribute('data-unread')).to.equal('true');
    await inColumn(page, /^Sem etapa/, 'Bia Nunes').click();
    await page.waitForURL(`**open=${bia.conversationId}**`);
    // Opening the chat reads it: the card's unread dot goes.
    await inColumn(page, /^Sem etapa/, 'Bia Nunes').and(page.locator(':not([data-unread])')).waitFor();
    const chat = page.getByTestId('kanban-chat');
    await chat.getByText('Vocês entregam?').waitFor();
    await chat.getByRole('combobox', { name: 'Responder' }).fill('Entregamos sim!');
    await chat.getByRole('combobox', { name: 'Responder' }).press('Enter');
    await chat.getByText('Entregamos sim!').waitFor();
    expect(await column(page, /^Pedido/).isVisible()).to.equal(true);
    const boardBox = (await page.getByTestId('kanban-board').boundingBox())!;
    const chatBox = (await chat.boundingBox())!;
    expect(chatBox.x, 'the chat is beside the board').to.be.at.least(boardBox.x + boardBox.width - 1);
    // The reply answered the customer: Bia's card no longer shows a waiting time, live.
    await inColumn(page, /^Sem etapa/, 'Bia Nunes').filter({ hasText: 'Entregamos sim!' }).waitFor();
    expect(await inColumn(page, /^Sem etapa/, 'Bia Nunes').locator('[data-waiting]').count()).to.equal(0);
  });

  it("a master makes a funnel in 'Funis' (stages named, reordered, one removed); the agent's board groups by it live and has no 'Funis' button", async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    await makeConversation(api.deps, channel, { name: 'Lia Campos' });
    second = await openPage(api.url);
    const other = second.page;
    await logIn(other, agent, { live: true });
    await other.goto('/inbox/kanban?groupBy=stage');
    await other.getByText('Nenhum funil foi criado neste workspace. Peça a um administrador para criar um.').waitFor();
    expect(await other.getByRole('button', { name: 'Funis' }).count()).to.equal(0);

    await logIn(page, master, { live: true });
    await page.goto('/inbox/kanban?groupBy=stage');
    await page.getByRole('button', { name: 'Criar funil' }).click();
    const dialog = page.getByRole('dialog', { name: 'Funis' });
    await dialog.getByLabel('Nome do funil').fill('Vendas');
    // The default stages: rename the first, add one, move it up, remove 'Em negociação'.
    await dialog.getByLabel('Nome da etapa 1').fill('Contato');
    await dialog.getByRole('button', { name: 'Adicionar etapa' }).click();
    await dialog.getByLabel('Nome da etapa 4').fill('Proposta');
    await dialog.getByRole('button', { name: 'Subir etapa: Proposta' }).click();
    await dialog.getByRole('button', { name: 'Remover etapa: Em negociação' }).click();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = await api.deps.knex('funnels as f').join('funnel_stages as s', 's.funnel_id', 'f.id').where('f.workspace_id', ws.id).orderBy('s.position').select('f.name', 's.name as stage');
    expect(saved.map((r) => [r.name, r.stage])).to.deep.equal([['Vendas', 'Contato'], ['Vendas', 'Proposta'], ['Vendas', 'Fechado']]);
    await column(page, /^Contato/).waitFor();
    expect(await page.locator('section[data-kanban-column] h2').allInnerTexts().then((t) => t.map((x) => x.split('\n')[0]!.replace(/,.*$/, '')))).to.deep.equal(['Sem etapa', 'Contato', 'Proposta', 'Fechado']);
    // The agent's board was told (kanban.funnelChanged) and shows the new funnel's columns.
    await inColumn(other, /^Sem etapa/, 'Lia Campos').waitFor();
    await column(other, /^Proposta/).waitFor();
  });

  it('on a phone the columns scroll sideways inside the board, one column wide, and the page never does', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    for (const name of ['Lia Campos', 'Bia Nunes']) await makeConversation(api.deps, channel, { name });
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, master);
    await page.goto('/inbox/kanban');
    await card(page, 'Lia Campos').waitFor();
    const board = page.getByTestId('kanban-board');
    const sizes = (await board.evaluate((el) => ({ scroll: (el as any).scrollWidth, client: (el as any).clientWidth }))) as { scroll: number; client: number };
    expect(sizes.scroll, 'the board scrolls sideways').to.be.greaterThan(sizes.client);
    const pageWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(pageWidth, 'no page-level horizontal scroll').to.be.at.most(390);
    const first = (await column(page, /^Aguardando/).boundingBox())!;
    expect(first.width).to.be.within(300, 390);
    // Scrolled to the next column, it takes the view.
    await board.evaluate((el) => (el as any).scrollBy({ left: 400 }));
    await page.waitForFunction("(() => { const r = document.querySelector('section[data-kanban-column=\"active\"]')?.getBoundingClientRect(); return r && r.left >= 0 && r.right <= 390; })()");
    // A card opens the chat alone; closing it comes back to the board.
    await card(page, 'Bia Nunes').click();
    await page.getByTestId('kanban-chat').waitFor();
    expect(await board.count()).to.equal(0);
    await page.getByTestId('kanban-chat').getByRole('button', { name: 'Fechar' }).first().click();
    await card(page, 'Bia Nunes').waitFor();
  });
});
