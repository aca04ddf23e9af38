import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup } from '../inbox/factories';
import { logIn, switchOn, toast } from './support';
import { buildMenuBot, dragBetween, node, pathnameOf } from './botSupport';
import { demoBot } from '../../scripts/lib/seed/bot';
import type { Team } from '../../scripts/lib/seed/team';

/**
 * What is wrong with the canvas as drawn: nodes over each other, and edge labels that are not wholly readable
 * (outside the canvas, under another element, over a node or another label, or cut without their text in
 * `title`).
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const problems = [];
    const canvas = document.querySelector('.react-flow').getBoundingClientRect();
    const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const nodes = [...document.querySelectorAll('.react-flow__node')].map((el) => ({ name: el.querySelector('[data-testid^="path-node-"]').dataset.testid.slice(10), r: el.getBoundingClientRect() }));
    nodes.forEach((a, i) => nodes.slice(i + 1).forEach((b) => { if (hit(a.r, b.r)) problems.push('nodes overlap: ' + a.name + ' / ' + b.name); }));
    const labels = [...document.querySelectorAll('.bot-edge-label')].map((el) => ({ el, text: el.textContent, r: el.getBoundingClientRect() }));
    for (const { el, text, r } of labels) {
      if (r.left < canvas.left || r.right > canvas.right || r.top < canvas.top || r.bottom > canvas.bottom) problems.push('label outside the canvas: ' + text);
      if (el.scrollWidth > el.clientWidth + 1 && el.title !== text) problems.push('label cut without its title: ' + text);
      for (const [x, y] of [[r.left + 3, r.top + 3], [r.right - 3, r.bottom - 3], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]]) {
        const top = document.elementFromPoint(x, y);
        if (!top || !el.contains(top)) problems.push('label covered: ' + text);
      }
      for (const n of nodes) if (hit(r, n.r)) problems.push('label over a node: ' + text + ' / ' + n.name);
    }
    labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => { if (hit(a.r, b.r)) problems.push('labels overlap: ' + a.text + ' / ' + b.text); }));
    return problems;
  })()`);
}

/** Whether an element's text is wider than its box (cut with '…'). */
const isCut = (label: Locator) =>
  label.evaluate((el) => {
    const box = el as unknown as { scrollWidth: number; clientWidth: number };
    return box.scrollWidth > box.clientWidth;
  });

/** The canvas once the layout on open (dagre, loaded lazily) and the view fit have run. */
async function settledCanvas(page: Page, names: string[]): Promise<void> {
  for (const name of names) await node(page, name).waitFor();
  await page.waitForTimeout(600);
}

describe('e2e: bot editor (/settings/bot)', function () {
  this.timeout(180_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let groupName: string;
  let groupId: number;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    await makeChannel(api.deps.knex, ws, 'widget', { description: 'Site' });
    groupId = await makeGroup(api.deps.knex, ws, [owner.id]);
    groupName = (await api.deps.knex('groups').where({ id: groupId }).first('name')).name;
  });

  it('builds a menu bot on the canvas, saves it, and the reload shows the same graph', async () => {
    await buildMenuBot(page, { owner, channel: 'Site', groupName });
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot criado');
    await page.waitForURL(/\/settings\/bot\/\d+$/);
    const id = Number(/\/settings\/bot\/(\d+)$/.exec(pathnameOf(page))![1]);

    const row = await api.deps.knex('bots').where({ id }).first();
    expect(row).to.include({ workspaceId: ws.id, name: 'Atendimento Site', priority: 7, isActive: false });
    const [start, sales, human] = row.definition.paths;
    expect([start.name, sales.name, human.name]).to.deep.equal(['Início', 'Vendas', 'Humano']);
    expect(start.actions.map((a: { type: string }) => a.type)).to.deep.equal(['message', 'menu']);
    expect(start.actions[1].options.map((o: { name: string; goTo: string }) => [o.name, o.goTo])).to.deep.equal([
      ['Vendas', sales.guid],
      ['Atendente', human.guid],
    ]);
    expect(human.actions[0]).to.include({ type: 'agent', assigneeType: 'group', assignee: groupId });
    expect(Object.keys(row.definition.layout).sort()).to.deep.equal([start.guid, sales.guid, human.guid].sort());

    await page.reload();
    await node(page, 'Início').getByText('Olá! Como podemos ajudar?').waitFor();
    await node(page, 'Vendas').getByText('Nossos planos começam em R$ 49.').waitFor();
    await node(page, 'Humano').getByText(`Grupo: ${groupName}`).waitFor();
    expect(await page.locator('.react-flow__edge').count()).to.equal(2);
    await node(page, 'Início').getByText('1. Vendas → Vendas').waitFor();
    await node(page, 'Início').getByText('2. Atendente → Humano').waitFor();

    // An action opens at its SPEC route, prefilled.
    await node(page, 'Vendas').getByTestId('action-message-0').click();
    expect(pathnameOf(page)).to.equal(`/settings/bot/${id}/path/${sales.guid}/message/${sales.actions[0].guid}`);
    expect(await page.getByLabel(/^Texto/).inputValue()).to.equal('Nossos planos começam em R$ 49.');
    await page.getByRole('button', { name: 'Cancelar' }).click();

    // Unknown routes go back to the list.
    await page.goto(`/settings/bot/${id}/nada/aqui`);
    await page.waitForURL('**/settings/bot');
  });

  it('imports a bot written from SPEC §3 (its own guids, menu options without one), shows its graph and saves it', async () => {
    const channelId = (await api.deps.knex('channels').where({ workspaceId: ws.id }).first('id')).id;
    const bot = {
      name: 'Bot da SPEC',
      isActive: false,
      channels: [channelId],
      businessHours: [],
      userType: 'all',
      paths: [
        {
          guid: 'inicio',
          name: 'Início',
          actions: [
            { guid: 'ola', type: 'message', text: 'Olá!' },
            { guid: 'menu', type: 'menu', title: 'Escolha', text: '', options: [{ name: 'Vendas', goTo: 'vendas' }, { name: 'Atendente', goTo: 'humano' }] },
          ],
        },
        { guid: 'vendas', name: 'Vendas', actions: [{ guid: 'v1', type: 'message', text: 'Nossos planos…' }] },
        { guid: 'humano', name: 'Humano', actions: [{ guid: 'h1', type: 'agent', assigneeType: 'group', assignee: groupId, text: '' }] },
      ],
    };
    const file = path.join(os.tmpdir(), `spec-bot-${process.pid}-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(bot));
    await logIn(page, owner);
    await page.goto('/settings/bot');
    await page.getByTestId('bot-import-input').setInputFiles(file);
    await page.waitForURL('**/settings/bot/new');
    await page.getByTestId('bot-title').filter({ hasText: 'Bot da SPEC' }).waitFor();
    await node(page, 'Humano').getByText(`Grupo: ${groupName}`).waitFor();
    expect(await page.locator('.react-flow__edge').count()).to.equal(2);
    // A hand-written guid is a route like any other.
    await page.getByRole('navigation', { name: 'Caminhos' }).getByText('2. Vendas').click();
    expect(pathnameOf(page)).to.equal('/settings/bot/new/path/vendas');

    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot criado');
    await page.waitForURL(/\/settings\/bot\/\d+/);
    const row = await api.deps.knex('bots').where({ workspaceId: ws.id, name: 'Bot da SPEC' }).first();
    expect(row.definition.paths.map((p: { guid: string }) => p.guid)).to.deep.equal(['inicio', 'vendas', 'humano']);
    expect(row.definition.paths[0].actions[1].options.map((o: { guid: string; goTo: string }) => [o.guid, o.goTo])).to.deep.equal([
      ['menu-1', 'vendas'],
      ['menu-2', 'humano'],
    ]);
  });

  it('lays out the demo bot and a SPEC bot with many paths without overlaps, every edge label readable; Organizar tidies a dragged node', async () => {
    const channelId = (await api.deps.knex('channels').where({ workspaceId: ws.id }).first('id')).id as number;
    // The demo seed's bot, with its saved positions (nodes of very different heights).
    const team = { widget: { id: channelId, identifier: 'x' }, groups: { vendas: groupId, atendimento: groupId } } as unknown as Team;
    const demo = await api.request('POST', '/api/bot', { token: owner.token, body: demoBot(team) });
    expect(demo.status).to.equal(201);
    await logIn(page, owner);
    await page.goto(`/settings/bot/${demo.body.data.id}`);
    await settledCanvas(page, ['Início', 'Encomendas', 'Horários e endereço', 'Falar com a equipe', 'Fim']);
    expect(await page.locator('.bot-edge-label').allTextContents()).to.have.members(['Fazer uma encomenda', 'Horários e endereço', 'Falar com a equipe', 'Sim, voltar ao início', 'Não, obrigado']);
    expect(await layoutProblems(page)).to.deep.equal([]);
    // A layout applied on open is not an edit: leaving asks nothing.
    await page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link', { name: 'Etiquetas' }).click();
    await page.waitForURL('**/settings/tags');

    // A bot in SPEC §3's format without positions: a menu of seven options, back jumps, a goto, a failure branch.
    const long = 'Quero falar sobre um pedido que fiz pela internet na semana passada e que ainda não chegou';
    const names = ['Pedidos', 'Entrega', 'Pagamento', 'Trocas', 'Cardápio', 'Lojas', 'Reclamações'];
    const guids = ['pedidos', 'entrega', 'pagamento', 'trocas', 'cardapio', 'lojas', 'reclamacoes'];
    const bot = {
      name: 'Muitos caminhos',
      isActive: false,
      channels: [channelId],
      businessHours: [],
      userType: 'all',
      paths: [
        {
          guid: 'inicio',
          name: 'Início',
          actions: [
            { guid: 'ola', type: 'message', text: 'Olá! Escolha uma opção.' },
            { guid: 'menu', type: 'menu', title: 'Menu', text: '', options: guids.map((g, i) => ({ name: i === 6 ? long : names[i], goTo: g })) },
          ],
        },
        ...guids.map((g, i) => ({
          guid: g,
          name: names[i],
          actions:
            i === 0
              ? [{ guid: `${g}-menu`, type: 'menu', title: '', text: 'Mais algo?', options: [{ name: 'Voltar ao início', goTo: 'inicio' }, { name: 'Ver entrega', goTo: 'entrega' }, { name: 'Encerrar', goTo: 'fim' }] }]
              : i === 1
                ? [{ guid: `${g}-api`, type: 'integration', name: 'Rastreio', text: '', script: { url: 'https://exemplo.com.br/rastreio', method: 'GET', headers: {}, body: '' }, map: [], failurePath: 'reclamacoes' }, { guid: `${g}-msg`, type: 'message', text: 'Seu pedido está a caminho.' }, { guid: `${g}-goto`, type: 'goto', goToPath: 'fim' }]
                : [{ guid: `${g}-msg`, type: 'message', text: `Sobre ${names[i]}: escreva sua dúvida.` }, { guid: `${g}-agent`, type: 'agent', assigneeType: 'group', assignee: groupId, text: '' }],
        })),
        { guid: 'fim', name: 'Fim', actions: [{ guid: 'fim-resolver', type: 'resolve', text: 'Até logo!' }] },
      ],
    };
    const file = path.join(os.tmpdir(), `many-paths-${process.pid}-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(bot));
    await page.goto('/settings/bot');
    await page.getByTestId('bot-import-input').setInputFiles(file);
    await page.waitForURL('**/settings/bot/new');
    await settledCanvas(page, ['Início', ...names, 'Fim']);
    expect(await page.locator('.bot-edge-label').count()).to.equal(11);
    expect(await layoutProblems(page)).to.deep.equal([]);
    // The longest option is cut with '…' and keeps its whole text in its title; the others are whole.
    const cut = page.locator('.bot-edge-label', { hasText: long });
    expect(await cut.getAttribute('title')).to.equal(long);
    expect(await isCut(cut)).to.equal(true);
    for (const label of await page.locator('.bot-edge-label', { hasNotText: long }).all()) {
      expect(await isCut(label)).to.equal(false);
    }
    // The first path (where the bot starts) is leftmost.
    const startBox = (await node(page, 'Início').boundingBox())!;
    for (const name of names) expect((await node(page, name).boundingBox())!.x).to.be.greaterThan(startBox.x);

    // A node dragged onto another overlaps it; 'Organizar' lays the paths out again.
    await dragBetween(page, node(page, 'Trocas').getByTitle('Trocas'), node(page, 'Pagamento').getByTitle('Pagamento'));
    expect((await layoutProblems(page)).some((p) => p.startsWith('nodes overlap'))).to.equal(true);
    await page.getByRole('button', { name: 'Organizar' }).click();
    await page.waitForTimeout(600);
    expect(await layoutProblems(page)).to.deep.equal([]);

    // The positions are saved with the bot, and the reload keeps them (nothing to lay out again).
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot criado');
    await page.waitForURL(/\/settings\/bot\/\d+$/);
    const row = await api.deps.knex('bots').where({ workspaceId: ws.id, name: 'Muitos caminhos' }).first();
    expect(Object.keys(row.definition.layout).sort()).to.deep.equal(['inicio', ...guids, 'fim'].sort());
    await page.reload();
    await settledCanvas(page, ['Início', ...names, 'Fim']);
    expect(await layoutProblems(page)).to.deep.equal([]);
  });

  it('asks before leaving with unsaved changes, toggles, exports, re-imports and deletes', async () => {
    await buildMenuBot(page, { owner, channel: 'Site', groupName });
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot criado');
    await page.waitForURL(/\/settings\/bot\/\d+$/);

    // Unsaved changes: leaving asks; 'Cancelar' stays, 'Sair' leaves.
    await page.locator('#main-content').getByRole('link', { name: 'Configurações' }).click();
    await page.getByLabel(/^Nome/).fill('Atendimento Site 2');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link', { name: 'Etiquetas' }).click();
    await page.getByText('Você tem mudanças não salvas, tem certeza que deseja sair?').waitFor();
    await page.getByRole('button', { name: 'Cancelar' }).click();
    expect(pathnameOf(page)).to.match(/\/settings\/bot\/\d+$/);
    await page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link', { name: 'Bot' }).click();
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL('**/settings/bot');
    expect((await api.deps.knex('bots').where({ workspaceId: ws.id }).first()).name).to.equal('Atendimento Site');

    // Active toggle from the list, saved at once.
    await switchOn(page.getByRole('switch', { name: 'Ativo: Atendimento Site' }));
    await toast(page, 'Bot atualizado');
    expect((await api.deps.knex('bots').where({ workspaceId: ws.id }).first()).isActive).to.equal(true);

    // Export → a JSON file; importing it opens /settings/bot/new prefilled.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar: Atendimento Site' }).click()]);
    expect(download.suggestedFilename()).to.equal('bot-atendimento-site.json');
    const file = path.join(os.tmpdir(), `bot-${process.pid}-${Date.now()}.json`);
    await download.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.balcaoBot).to.equal(1);
    expect(exported.bot).to.include({ name: 'Atendimento Site', isActive: true, priority: 7 });
    expect(exported.bot.paths).to.have.length(3);
    expect(exported.bot).to.not.have.property('id');

    // An invalid file is silently ignored (SPEC §8). 'Bot atualizado' above may still be on screen (react-admin
    // hides a toast after 4 s): wait it out, so any snackbar counted below is the import's.
    await page.locator('.MuiSnackbar-root').first().waitFor({ state: 'detached', timeout: 10_000 });
    const bad = path.join(os.tmpdir(), `bad-${process.pid}-${Date.now()}.json`);
    writeFileSync(bad, '{"balcaoBot": 1, "bot": {"name": 3}}');
    await page.getByTestId('bot-import-input').setInputFiles(bad);
    await page.waitForTimeout(300);
    expect(pathnameOf(page)).to.equal('/settings/bot');
    expect(await page.locator('.MuiSnackbar-root').count()).to.equal(0);

    await page.getByTestId('bot-import-input').setInputFiles(file);
    await page.waitForURL('**/settings/bot/new');
    await page.getByTestId('bot-title').filter({ hasText: 'Atendimento Site' }).waitFor();
    await node(page, 'Humano').getByText(`Grupo: ${groupName}`).waitFor();
    expect(await page.locator('.react-flow__edge').count()).to.equal(2);
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot criado');
    await page.waitForURL(/\/settings\/bot\/\d+$/);
    const bots = await api.deps.knex('bots').where({ workspaceId: ws.id }).orderBy('id');
    expect(bots).to.have.length(2);
    expect(bots[1].definition.paths).to.deep.equal(bots[0].definition.paths);

    // Delete with its confirmation.
    await page.getByRole('button', { name: 'Deletar' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Deletar Bot').waitFor();
    await confirm.getByText('Tem certeza que deseja deletar esse bot?').waitFor();
    await confirm.getByRole('button', { name: 'Deletar' }).click();
    await toast(page, 'Bot excluído.');
    await page.waitForURL('**/settings/bot');
    expect(await api.deps.knex('bots').where({ workspaceId: ws.id })).to.have.length(1);
  });

  it('marks the action the server refuses (a tag deleted meanwhile) and saves once it is fixed', async () => {
    const { makeLabel } = await import('../inbox/factories');
    const tagId = await makeLabel(api.deps.knex, ws, 'VIP');
    const start = '8a1b9d7e-0d0c-4a55-9b51-0f1f3d7b2c10';
    const res = await api.request('POST', '/api/bot', {
      token: owner.token,
      body: {
        name: 'Marcador', priority: 0, expire: { hours: 0, minutes: 1, message: '' }, layout: {},
        paths: [{ guid: start, name: 'Início', actions: [{ guid: '5d2c6a0e-41d7-4c1e-8d8e-3b8f1f0a9e21', type: 'tag', tag: tagId, text: 'Marcado' }, { guid: '0b7f6f0c-2b2e-4b9e-9d7a-7c3f0e1d2a33', type: 'message', text: 'Oi' }] }],
      },
    });
    expect(res.status).to.equal(201);
    await api.deps.knex('labels').where({ id: tagId }).delete();
    await logIn(page, owner);
    await page.goto(`/settings/bot/${res.body.data.id}`);
    await node(page, 'Início').getByText('Oi', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Corrija os campos destacados antes de salvar.');
    await node(page, 'Início').getByTestId('action-tag-0').getByText('Etiqueta não encontrada.').waitFor();
    await page.getByTestId('bot-errors').getByText('Início › Etiqueta: Etiqueta não encontrada.').waitFor();

    // The error follows its action when the actions are reordered (press 200 ms, then drag).
    const first = node(page, 'Início').getByTestId('action-tag-0');
    const box = (await first.boundingBox())!;
    const second = (await node(page, 'Início').getByTestId('action-message-1').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(350);
    await page.mouse.move(box.x + box.width / 2, second.y + second.height - 2, { steps: 8 });
    await page.mouse.up();
    await node(page, 'Início').getByTestId('action-tag-1').getByText('Etiqueta não encontrada.').waitFor();
    // And back with the keyboard (Alt+↑ on the focused action).
    await node(page, 'Início').getByTestId('action-tag-1').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await node(page, 'Início').getByTestId('action-tag-0').getByText('Etiqueta não encontrada.').waitFor();

    // Fixed by deleting the action: the save goes through.
    await node(page, 'Início').getByTestId('action-tag-0').click();
    await page.getByRole('button', { name: 'Excluir ação' }).click();
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot atualizado');
    const row = await api.deps.knex('bots').where({ id: res.body.data.id }).first();
    expect(row.definition.paths[0].actions.map((a: { type: string }) => a.type)).to.deep.equal(['message']);
  });

  it('every action type has its form at /path/{guid}/{action}/new, checked by the shared schema', async () => {
    const { makeLabel } = await import('../inbox/factories');
    const tagId = await makeLabel(api.deps.knex, ws, 'Lead');
    const [start, middle, end] = ['1f0c2b7a-3d4e-4f50-8a61-7b8c9d0e1f21', '2a1b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c52', '3b2c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d63'];
    const res = await api.request('POST', '/api/bot', {
      token: owner.token,
      body: {
        name: 'Completo', priority: 1, expire: { hours: 0, minutes: 1, message: '' }, layout: { [start]: { x: 0, y: 0 }, [middle]: { x: 340, y: 0 }, [end]: { x: 340, y: 300 } },
        paths: [{ guid: start, name: 'Início', actions: [] }, { guid: middle, name: 'Meio', actions: [] }, { guid: end, name: 'Fim', actions: [] }],
      },
    });
    const id = res.body.data.id as number;
    await logIn(page, owner);
    await page.goto(`/settings/bot/${id}`);
    const names: Record<string, string> = { [start]: '1. Início', [middle]: '2. Meio', [end]: '3. Fim' };
    // In-app navigation only: a reload would drop the unsaved edits.
    const open = async (pathGuid: string, type: string) => {
      await page.getByRole('navigation', { name: 'Caminhos' }).getByText(names[pathGuid]!).click();
      await page.getByRole('complementary').getByRole('link', { name: type, exact: true }).click();
      await page.getByRole('dialog').waitFor();
    };
    const apply = () => page.getByRole('button', { name: 'Aplicar' }).click();
    const closed = () => page.getByRole('dialog').waitFor({ state: 'detached' });

    // The panel's buttons lead to the SPEC-shaped route; reloading there opens the same form.
    await open(start, 'Mensagem');
    expect(pathnameOf(page)).to.equal(`/settings/bot/${id}/path/${start}/message/new`);
    await page.getByLabel(/^Texto/).fill('Bem-vindo!');
    await apply();
    await closed();

    await open(start, 'Pergunta');
    await page.getByRole('textbox', { name: /^Texto/ }).fill('Qual é o seu código de cliente?');
    await page.getByRole('combobox', { name: /^Guardar resposta em/ }).click();
    await page.getByRole('option', { name: 'Propriedade personalizada' }).click();
    await page.getByLabel(/^Nome da propriedade/).fill('Código do cliente');
    await page.getByLabel(/^Código da propriedade/).fill('Codigo1');
    await apply();
    await page.getByText('O código deve ter apenas letras minúsculas.').waitFor();
    await page.getByLabel(/^Código da propriedade/).fill('codigo');
    await apply();
    await closed();

    await open(start, 'Etiqueta');
    await apply();
    await page.getByRole('dialog').getByText('A etiqueta é obrigatória.').waitFor();
    await page.getByRole('combobox', { name: /^Etiqueta/ }).click();
    await page.getByRole('option', { name: 'Lead' }).click();
    await apply();
    await closed();

    await open(start, 'Integração');
    await page.getByLabel(/^Nome/).fill('CRM');
    await page.getByLabel(/^URL/).fill('https://crm.exemplo.com.br/clientes/{{codigo}}');
    await page.getByLabel(/^Cabeçalhos/).fill('{"Authorization": ');
    await page.getByRole('combobox', { name: /^Caminho em caso de falha/ }).click();
    await page.getByRole('option', { name: 'Fim' }).click();
    await apply();
    await page.getByText('JSON inválido.').waitFor();
    await page.getByLabel(/^Cabeçalhos/).fill('{"Authorization": "Bearer x"}');
    await apply();
    await closed();

    await open(start, 'Subcaminho');
    await page.getByRole('combobox', { name: /^Caminho/ }).click();
    await page.getByRole('option', { name: 'Meio' }).click();
    await apply();
    await closed();
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot atualizado');
    // After a path jump nothing more can be added, and its 'new' route sends back to the panel.
    await page.goto(`/settings/bot/${id}/path/${start}/message/new`);
    await page.waitForURL(`**/settings/bot/${id}/path/${start}`);
    await page.getByRole('complementary').getByText('Este caminho termina com uma ação final: nenhuma ação pode vir depois dela.').waitFor();

    await open(middle, 'Finalizar atendimento');
    await page.getByLabel(/^Texto/).fill('Obrigado pelo contato!');
    await apply();
    await closed();

    await open(end, 'Ir para caminho');
    await page.getByRole('combobox', { name: /^Caminho/ }).click();
    await page.getByRole('option', { name: 'Início' }).click();
    await apply();
    await closed();

    // Edges: failure branch, sub-path jump and goto.
    expect(await page.locator('.react-flow__edge').count()).to.equal(3);
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    // The first save's toast may still show: wait for the second save in the database.
    let row = await api.deps.knex('bots').where({ id }).first();
    for (let i = 0; i < 50 && !row.definition.paths[2].actions.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = await api.deps.knex('bots').where({ id }).first();
    }
    const [p1, p2, p3] = row.definition.paths;
    expect(p1.actions.map((a: { type: string }) => a.type)).to.deep.equal(['message', 'input', 'tag', 'integration', 'path']);
    expect(p1.actions[1]).to.include({ inputProp: 'custom', inputPropName: 'Código do cliente', inputPropCode: 'codigo', inputInvalid: 'Campo inválido, escreva novamente.' });
    expect(p1.actions[2]).to.include({ tag: tagId });
    expect(p1.actions[3]).to.deep.include({ name: 'CRM', failurePath: end, script: { url: 'https://crm.exemplo.com.br/clientes/{{codigo}}', method: 'GET', headers: { Authorization: 'Bearer x' }, body: '' } });
    expect(p1.actions[4]).to.include({ type: 'path', goToPath: middle });
    expect(p2.actions[0]).to.include({ type: 'resolve', text: 'Obrigado pelo contato!' });
    expect(p3.actions[0]).to.include({ type: 'goto', goToPath: start });

    // An existing action opens at /path/{guid}/{action}/{guid}; a wrong type in the URL goes back to the path.
    await page.goto(`/settings/bot/${id}/path/${start}/integration/${p1.actions[3].guid}`);
    expect(await page.getByLabel(/^Cabeçalhos/).inputValue()).to.contain('Bearer x');
    await page.goto(`/settings/bot/${id}/path/${start}/message/${p1.actions[3].guid}`);
    await page.waitForURL(`**/settings/bot/${id}/path/${start}`);
    await page.goto(`/settings/bot/${id}/path/${start}/robot/new`);
    await page.waitForURL('**/settings/bot');
  });

  it('keeps agents below level 6 out (SPEC §6)', async () => {
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ari Agente' });
    await logIn(page, agent);
    await page.goto('/settings/bot');
    await page.getByText('Você não tem permissão para acessar esta página.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link', { name: 'Bot' }).count()).to.equal(0);
  });
});
