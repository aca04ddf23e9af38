import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { openPage, useAppPage, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, makeGroup } from '../inbox/factories';
import { cutOff, logIn, toast } from './support';

/** Counts the team chat's chimes (the sound's window event, docs/team-chat.md "Sound") from now on. */
async function countTeamSounds(page: Page): Promise<void> {
  await page.evaluate(
    "window.__teamSounds = 0; window.addEventListener('balcao:notification-sound', (e) => { if (e.detail && e.detail.preference === 'teamSound') window.__teamSounds += 1; })",
  );
}
const teamSounds = (page: Page) => page.evaluate<number>('window.__teamSounds');

/** Polls until `probe` holds (generous: the machine may be busy). */
async function until(probe: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !(await probe()); ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const message = (page: Page, text: string | RegExp): Locator => page.getByTestId('team-message').filter({ hasText: text });

describe('e2e: team chat — two agents live: a direct message, the header badge, a group room, a #protocolo mention, edit and delete', function () {
  this.timeout(240_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  let other: BrowserSession | undefined;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Alice Agente' });
  });
  afterEach(async () => {
    await other?.close();
    other = undefined;
  });

  it('Olga writes to Alice; Alice hears it on another page (badge and sound), reads it (badge clears), answers; the group room, a mention, an edit and a delete follow live', async () => {
    const groupId = await makeGroup(api.deps.knex, ws, [owner.id, agent.id]);
    await api.deps.knex('groups').where({ id: groupId }).update({ name: 'Vendas' });
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await makeConversation(api.deps, channel, { name: 'Lia Campos' });
    const protocol = Number((await api.deps.knex('calls').where({ id: conv.callId }).first('protocol')).protocol);

    other = await openPage(api.url);
    const alice = other.page;
    await logIn(page, owner, { live: true });
    await logIn(alice, agent, { live: true });
    await countTeamSounds(alice);
    const aliceButton = alice.getByTestId('team-chat-button');
    expect(await aliceButton.getAttribute('data-unread')).to.equal('0');

    // Olga opens a direct conversation with Alice from the chat page.
    await page.getByTestId('team-chat-button').click();
    await page.waitForURL('**/equipe');
    await page.getByRole('button', { name: 'Nova conversa' }).click();
    await page.getByRole('menuitem', { name: 'Mensagem direta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mensagem direta' });
    await dialog.getByRole('button', { name: 'Alice Agente' }).click();
    await page.waitForURL(/\/equipe\/\d+$/);
    const composer = page.getByRole('textbox', { name: 'Mensagem para a sala' });
    await composer.fill('Oi Alice, pode cobrir o caixa às 15h?');
    await composer.press('Enter');
    await message(page, 'Oi Alice, pode cobrir o caixa às 15h?').waitFor();

    // Alice, still in the inbox, sees the badge and hears the chime.
    await until(async () => (await aliceButton.getAttribute('data-unread')) === '1', 'the badge on Alice’s header');
    expect(await aliceButton.getAttribute('aria-label')).to.equal('Equipe: 1 mensagem não lida');
    await until(async () => (await teamSounds(alice)) >= 1, 'the team chime');
    expect(alice.url()).to.match(/\/inbox\/all$/);

    // She opens the chat and the conversation: the badge clears.
    await aliceButton.click();
    const dmRow = alice.getByTestId('team-room').filter({ hasText: 'Olga Dona' });
    expect(await dmRow.getAttribute('data-unread')).to.equal('1');
    await dmRow.click();
    await message(alice, 'Oi Alice, pode cobrir o caixa às 15h?').waitFor();
    await until(async () => (await aliceButton.getAttribute('data-unread')) === '0', 'the badge to clear');
    expect(await aliceButton.getAttribute('aria-label')).to.equal('Equipe');
    const aliceComposer = alice.getByRole('textbox', { name: 'Mensagem para a sala' });
    await aliceComposer.fill('Posso sim!');
    await aliceComposer.press('Enter');
    await message(page, 'Posso sim!').waitFor();

    // The group's room: Olga writes with a mention of the conversation's protocol.
    await page.getByTestId('team-room').filter({ hasText: 'Vendas' }).click();
    await composer.fill(`Reunião às 14h sobre o #${protocol}, ok?`);
    await composer.press('Enter');
    await message(page, 'Reunião às 14h').waitFor();
    const vendas = alice.getByTestId('team-room').filter({ hasText: 'Vendas' });
    await until(async () => (await vendas.getAttribute('data-unread')) === '1', 'the group room’s unread count');
    await vendas.click();
    const mention = message(alice, 'Reunião às 14h').getByRole('link', { name: `Abrir a conversa do protocolo ${protocol}` });
    await mention.waitFor();

    // Olga fixes her message, then deletes her first one in the group; Alice sees both live.
    const mineId = await message(page, 'Reunião às 14h').getAttribute('data-message-id');
    const mine = page.locator(`[data-testid="team-message"][data-message-id="${mineId}"]`);
    await mine.hover();
    await mine.getByRole('button', { name: 'Editar mensagem' }).click();
    const editBox = mine.getByRole('textbox', { name: 'Editar mensagem' });
    await editBox.fill(`Reunião às 15h sobre o #${protocol}, ok?`);
    await editBox.press('Enter');
    await message(page, 'Reunião às 15h').getByText('(editada)').waitFor();
    await message(alice, 'Reunião às 15h').getByText('(editada)').waitFor();
    await message(alice, 'Reunião às 15h').getByRole('link', { name: `Abrir a conversa do protocolo ${protocol}` }).waitFor();

    await composer.fill('Esta saiu por engano');
    await composer.press('Enter');
    await message(alice, 'Esta saiu por engano').waitFor();
    const wrong = message(page, 'Esta saiu por engano');
    await wrong.hover();
    await wrong.getByRole('button', { name: 'Apagar mensagem' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apagar' }).click();
    await toast(page, 'Mensagem apagada.');
    await until(async () => (await message(alice, 'Esta saiu por engano').count()) === 0, 'the deleted text to leave Alice’s view');
    expect(await alice.getByTestId('team-message').filter({ hasText: 'Mensagem apagada' }).count()).to.equal(1);
    // Alice cannot change Olga's messages.
    expect(await message(alice, 'Reunião às 15h').getByRole('button', { name: 'Editar mensagem' }).count()).to.equal(0);

    // The mention opens the conversation in the inbox.
    await message(alice, 'Reunião às 15h').getByRole('link', { name: `Abrir a conversa do protocolo ${protocol}` }).click();
    await alice.waitForURL(`**/inbox/all/${conv.conversationId}`);
    await alice.getByRole('heading', { name: 'Lia Campos' }).first().waitFor();
  });

  it('the sound can be turned off: a new message then marks the badge without the chime', async () => {
    const groupId = await makeGroup(api.deps.knex, ws, [owner.id, agent.id]);
    const room = (await api.deps.knex('team_rooms').where({ groupId }).first('id')).id as number;
    await logIn(page, agent, { live: true });
    await page.getByTestId('team-chat-button').click();
    const sound = page.getByRole('button', { name: 'Som das mensagens da equipe' });
    expect(await sound.getAttribute('aria-pressed')).to.equal('true');
    await sound.click();
    expect(await sound.getAttribute('aria-pressed')).to.equal('false');
    await page.getByRole('link', { name: 'Mensagens' }).click();
    await countTeamSounds(page);
    const res = await api.request('POST', `/api/team/rooms/${room}/messages`, { token: owner.token, body: { body: 'Alguém aí?' } });
    expect(res.status).to.equal(201);
    await until(async () => (await page.getByTestId('team-chat-button').getAttribute('data-unread')) === '1', 'the badge');
    expect(await teamSounds(page)).to.equal(0);
    // The switch is the browser's: the same key the settings' switch writes.
    expect(await page.evaluate<string | null>("localStorage.getItem('balcao.inbox.teamSound')")).to.equal('false');
  });
});

describe('e2e: team chat on a phone (390 × 844) — one pane at a time, the composer within reach', function () {
  this.timeout(180_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('the areas menu has Equipe with its count; the list opens a room, the room has the composer on screen and a way back', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Alice Agente' });
    const direct = await api.request('POST', '/api/team/direct', { token: owner.token, body: { operatorId: agent.id } });
    for (let i = 1; i <= 40; i++) await api.request('POST', `/api/team/rooms/${direct.body.data.id}/messages`, { token: owner.token, body: { body: `Recado ${i}` } });
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, agent, { live: true });

    const menu = page.getByRole('banner').getByRole('button', { name: 'Abrir menu de navegação' });
    await until(async () => (await menu.getAttribute('data-unread')) === 'true', 'the dot on the areas menu');
    await menu.click();
    await page.getByRole('menuitem', { name: /Equipe/ }).click();
    await page.waitForURL('**/equipe');
    expect(await page.getByRole('textbox', { name: 'Mensagem para a sala' }).count()).to.equal(0);
    await page.getByTestId('team-room').filter({ hasText: 'Olga Dona' }).click();
    await message(page, 'Recado 40').waitFor();
    // The room alone: no list beside it; the composer is on screen without scrolling the page.
    expect(await page.getByTestId('team-room').count()).to.equal(0);
    const composer = page.getByRole('textbox', { name: 'Mensagem para a sala' });
    const box = await composer.boundingBox();
    expect(box, 'composer box').to.not.equal(null);
    expect(box!.y + box!.height).to.be.at.most(844);
    expect(await cutOff(page)).to.deep.equal([]);
    await composer.fill('Chego em 10 minutos');
    await composer.press('Enter');
    await message(page, 'Chego em 10 minutos').waitFor();
    await page.getByRole('link', { name: 'Voltar para as salas' }).click();
    await page.waitForURL('**/equipe');
    await page.getByTestId('team-room').filter({ hasText: 'Olga Dona' }).waitFor();
    expect(await cutOff(page)).to.deep.equal([]);
  });
});
