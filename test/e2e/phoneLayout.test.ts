import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import type { TestOperator, TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, makeGroup } from '../inbox/factories';
import { demoBot } from '../../scripts/lib/seed/bot';
import type { Team } from '../../scripts/lib/seed/team';
import { previewOf } from '../../ui/src/inbox/quickPhrases/tag';
import { cutOff, logIn, useOwnerPage } from './support';

describe('e2e: a phone (390 × 844) sees one pane at a time and nothing cut off', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;

  useOwnerPage((s) => ({ api, page, ws, owner } = s), { width: 390, height: 844 });

  it('the header folds its areas into a menu beside the Mensagens icon; the inbox shows the list, then the conversation alone, its contact panel on demand', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'lia', name: 'Lia Campos Pereira da Silva' }, content: [{ insert: 'Oi, quero um bolo\n' }] }));
    await logIn(page, owner);

    // The header collapses into a menu: Mensagens stays an icon with its name for screen readers, the other
    // areas are one menu away, and nothing in the header scrolls sideways.
    const nav = page.getByRole('banner').getByRole('navigation');
    expect(await nav.getByRole('link', { name: 'Mensagens' }).isVisible()).to.equal(true);
    expect((await nav.getByText('Mensagens').boundingBox())!.width, 'the word is for screen readers only').to.be.at.most(1);
    for (const name of ['Agendamentos', 'Relatórios', 'Campanhas', 'Configurações']) expect(await nav.getByRole('link', { name }).count(), `${name} is in the menu`).to.equal(0);
    const banner = page.getByRole('banner');
    for (const box of [banner, nav]) expect(await box.evaluate((el) => (el as any).scrollWidth <= (el as any).clientWidth), 'the header does not scroll sideways').to.equal(true);
    expect(await cutOff(page)).to.deep.equal([]);
    await nav.getByRole('button', { name: 'Abrir menu de navegação' }).click();
    const menu = page.getByRole('menu');
    // The team chat (docs/team-chat.md) folds into the menu too, first: its icon has no room in a phone's header.
    expect(await menu.getByRole('menuitem').allInnerTexts()).to.deep.equal(['Equipe', 'Contatos', 'Agendamentos', 'Relatórios', 'Campanhas', 'Configurações']);
    // Measured once the menu has finished growing in (its opening transition scales it): each entry is a 44 px touch target.
    await page.waitForFunction(
      () => {
        const items = [...(globalThis as any).document.querySelectorAll('[role=menuitem]')];
        return items.length === 6 && items.every((e: any) => e.getBoundingClientRect().height >= 44);
      },
      undefined,
      { timeout: 5_000 },
    );
    expect(await cutOff(page)).to.deep.equal([]);
    await menu.getByRole('menuitem', { name: 'Relatórios' }).click();
    await page.waitForURL('**/reports/**');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await nav.getByRole('link', { name: 'Mensagens' }).click();
    await page.waitForURL('**/inbox/**');

    await page.getByRole('option', { name: /Lia Campos/ }).click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);
    await page.getByRole('log').getByText('Oi, quero um bolo').waitFor();
    expect(await page.getByRole('listbox').count(), 'the list gives way to the conversation').to.equal(0);
    expect(await cutOff(page)).to.deep.equal([]);
    // The contact's name is read whole: the header's actions wrap below it.
    const name = page.getByTestId('conversation-name');
    expect(await name.evaluate((el) => (el as any).scrollWidth <= (el as any).clientWidth), 'the name is not cut by an ellipsis').to.equal(true);

    // The composer is on screen, and a reply and a private note go out from it.
    const composer = page.getByRole('combobox', { name: /Responder|Nota privada/ });
    const box = (await composer.boundingBox())!;
    expect(box.y + box.height, 'the composer is inside the screen').to.be.at.most(844);
    expect(box.x + box.width).to.be.at.most(390);
    await composer.pressSequentially('Claro! Qual sabor?');
    await composer.press('Enter');
    await page.getByRole('log').getByRole('article').filter({ hasText: 'Claro! Qual sabor?' }).waitFor();
    await page.getByRole('button', { name: 'Nota privada' }).click();
    await composer.pressSequentially('Cliente de sexta.');
    await composer.press('Enter');
    await page.getByRole('log').getByRole('article', { name: 'Nota privada' }).filter({ hasText: 'Cliente de sexta.' }).waitFor();
    await page.getByRole('log').locator('[data-pending]').waitFor({ state: 'detached' });
    const stored = await api.deps.knex('messages').where({ customerPlatformId: conv.conversationId, sender: 'operator' }).orderBy('id').select('type', 'text');
    expect(stored).to.deep.equal([{ type: 0, text: 'Claro! Qual sabor?' }, { type: 2, text: 'Cliente de sexta.' }]);
    // Touch targets of the conversation's header and composer are at least 44 px (ui/src/theme/muiTheme.ts).
    for (const name of ['Fechar conversa', 'Mostrar painel do contato', 'Nota privada']) {
      const b = (await page.getByRole('button', { name }).first().boundingBox())!;
      expect(Math.min(b.width, b.height), name).to.be.at.least(44);
    }
    expect(await cutOff(page)).to.deep.equal([]);

    await page.getByRole('button', { name: 'Mostrar painel do contato' }).click();
    await page.getByRole('presentation').getByText('Lia Campos').first().waitFor();
    // The panel's heading names the contact whole too (it wraps, no '…').
    const panelName = page.getByRole('presentation').getByRole('heading', { name: 'Lia Campos Pereira da Silva', exact: true });
    expect(await panelName.evaluate((el) => (el as any).scrollWidth <= (el as any).clientWidth), "the panel's name is not cut by an ellipsis").to.equal(true);
    expect(await cutOff(page)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await page.getByRole('presentation').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Fechar conversa' }).click();
    await page.getByRole('option', { name: /Lia Campos/ }).waitFor();
  });

  it("the quick phrases dialog shows each phrase's preview whole under its shortcut and actions", async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'rui', name: 'Rui' }, content: [{ insert: 'Olá\n' }] }));
    const phrase = 'Obrigado pelo contato! Retornamos em até 2 horas úteis.';
    await api.deps.knex('quick_phrases').insert({ workspaceId: ws.id, operatorId: owner.id, tag: '/retorno', phrase });
    await logIn(page, owner);
    await page.goto(`/inbox/all/${conv.conversationId}`);
    await page.getByRole('combobox', { name: /Responder|Nota privada/ }).pressSequentially('/');
    await page.getByText('Gerenciar frases rápidas').click();
    const dialog = page.getByRole('dialog', { name: 'Frases rápidas' });
    const preview = dialog.getByTestId('quick-phrase-preview');
    expect(await preview.textContent()).to.equal(previewOf(phrase));
    // Beside the chip and the two buttons a phone showed 'Obrigado pel…'.
    expect(await preview.evaluate((el) => (el as any).scrollWidth <= (el as any).clientWidth && (el as any).scrollHeight <= (el as any).clientHeight), 'the preview is not cut').to.equal(true);
    expect((await preview.boundingBox())!.width, 'the preview has the row to itself').to.be.at.least(250);
    for (const name of ['Editar a frase /retorno', 'Excluir a frase /retorno']) expect(await dialog.getByRole('button', { name }).isVisible(), name).to.equal(true);
    expect(await cutOff(page)).to.deep.equal([]);
  });

  it('settings keep the page whole: a list is a card per row, the side menu opens from a button naming the page, and picking an entry closes it', async () => {
    await makeChannel(api.deps.knex, ws);
    await logIn(page, owner);
    await page.goto('/settings/channels');
    await page.getByRole('heading', { name: 'Canais' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Menu de configurações' }).count(), 'no side menu beside the page').to.equal(0);
    expect(await cutOff(page)).to.deep.equal([]);
    // A list is a card per row, no table squeezing its columns: no word is split over two lines ('Conectad' / 'o').
    const cards = page.getByRole('list', { name: 'Canais' });
    await cards.getByRole('listitem').first().waitFor();
    expect(await page.getByRole('table').count()).to.equal(0);
    const splitWords = await cards.evaluate((root) => {
      const d = (root as any).ownerDocument;
      const walker = d.createTreeWalker(root, 4);
      const split: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of String(node.textContent).split(/\s+/).filter(Boolean)) {
          const at = String(node.textContent).indexOf(word);
          const range = d.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + word.length);
          const lines = new Set([...range.getClientRects()].map((r: any) => Math.round(r.top)));
          if (lines.size > 1) split.push(word);
        }
      }
      return split;
    });
    expect(splitWords).to.deep.equal([]);
    await cards.getByRole('listitem').first().click();
    await page.waitForURL('**/settings/channels/chat-widget/**');
    await page.goto('/settings/channels');
    await page.getByRole('heading', { name: 'Canais' }).waitFor();

    await page.getByRole('button', { name: 'Canais' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu de configurações' });
    await menu.getByRole('link', { name: 'Plugins' }).click();
    await page.waitForURL('**/settings/plugins');
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Plugins' }).waitFor();
    expect(await cutOff(page)).to.deep.equal([]);
  });

  it('the bot editor puts the paths above a canvas as wide as the screen, and a path opens in a panel that fits it', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const groupId = await makeGroup(api.deps.knex, ws, [owner.id]);
    const team = { widget: { id: channel.id, identifier: 'x' }, groups: { vendas: groupId, atendimento: groupId } } as unknown as Team;
    const bot = await api.request('POST', '/api/bot', { token: owner.token, body: demoBot(team) });
    expect(bot.status).to.equal(201);
    await logIn(page, owner);
    await page.goto(`/settings/bot/${bot.body.data.id}`);
    await page.locator('.react-flow__node').first().waitFor();
    expect(await cutOff(page)).to.deep.equal([]);
    const paths = await page.getByRole('navigation', { name: 'Caminhos' }).boundingBox();
    const canvas = await page.getByTestId('bot-canvas').boundingBox();
    expect(paths !== null && canvas !== null, 'paths list and canvas on screen').to.equal(true);
    expect(canvas!.y, 'the canvas below the paths').to.be.at.least(paths!.y + paths!.height - 1);
    expect(canvas!.width, 'canvas width').to.be.at.least(340);
    expect(canvas!.height, 'canvas height').to.be.at.least(500);
    // The flow is drawn in it, fitted to its size: every path's node inside the canvas.
    for (const name of ['Início', 'Encomendas', 'Fim']) {
      const n = (await page.locator('.react-flow__node').filter({ has: page.getByTestId(`path-node-${name}`) }).boundingBox())!;
      expect(n !== null, name).to.equal(true);
      expect(n.width * n.height, `${name} drawn`).to.be.above(100);
      expect(n.x >= canvas!.x - 1 && n.x + n.width <= canvas!.x + canvas!.width + 1 && n.y >= canvas!.y - 1 && n.y + n.height <= canvas!.y + canvas!.height + 1, `${name} inside the canvas`).to.equal(true);
    }
    await page.getByRole('navigation', { name: 'Caminhos' }).getByText(/Encomendas/).click();
    const panel = page.getByRole('complementary', { name: 'Encomendas' });
    await panel.waitFor();
    const box = (await panel.boundingBox())!;
    expect(box.x, 'panel left edge').to.be.at.least(0);
    expect(box.x + box.width, 'panel right edge').to.be.at.most(390);
    expect(await cutOff(page)).to.deep.equal([]);
  });
});
