import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { openPage, useAppPage, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { makeChannel, type TestChannel } from '../inbox/factories';
import { logIn } from './support';

/**
 * The whole loop in two browsers: a visitor on /widget writes, the agent sees it live in the inbox, answers
 * (typed and through a quick phrase) and the visitor sees it live; a private note never reaches the
 * visitor; after 'Resolver' the visitor's next message opens a new call.
 */
describe('e2e: visitor and agent live, end to end', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let visitor: BrowserSession | undefined;
  let agent: TestOperator;
  let channel: TestChannel;
  let company: string;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    company = `Padaria ${Date.now()}`;
    const ws = await makeWorkspace(api.deps.knex, company);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ana Agente' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site', avatar: '#1570EF' });
  });
  afterEach(async () => {
    await visitor?.close();
    visitor = undefined;
  });

  it('visitor writes, agent answers live; notes stay private; resolve then a new message opens a new call', async () => {
    await logIn(page, agent);
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();

    visitor = await openPage(api.config.publicUrl);
    const v = visitor.page;
    await v.goto(`/widget?workspacePlatformIdentifier=${channel.identifier}`);
    const chat = v.getByRole('dialog', { name: company });
    await chat.getByText('Fale conosco').waitFor();
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Olá');
    await input.press('Enter');

    // The agent's inbox shows it live, without a reload.
    const row = page.getByRole('option').filter({ hasText: 'Olá' });
    await row.waitFor();
    await row.click();
    const log = page.getByRole('log', { name: 'Mensagens da conversa' });
    await log.getByText('Olá').waitFor();
    const composer = page.getByRole('combobox', { name: /Responder|Nota privada/ });

    await composer.pressSequentially('Bom dia! Como posso ajudar?');
    await composer.press('Enter');
    await chat.locator('li.msg:not(.mine)', { hasText: 'Bom dia! Como posso ajudar?' }).waitFor();

    // A quick phrase through '/', sent to the visitor.
    const made = await api.request('POST', '/api/inbox/quick-phrases', { token: agent.token, body: { tag: '/horario', phrase: 'Abrimos das 6h às 20h.', privacy: 'public' } });
    expect(made.status).to.equal(201);
    await composer.pressSequentially('/hor');
    const menu = page.getByRole('listbox', { name: 'Frases rápidas' });
    await menu.getByRole('option').first().waitFor();
    await composer.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await composer.press('Enter');
    await chat.locator('li.msg:not(.mine)', { hasText: 'Abrimos das 6h às 20h.' }).waitFor();

    // A private note shows for the team and never reaches the visitor.
    await page.getByRole('button', { name: 'Nota privada' }).click();
    await composer.pressSequentially('Cliente pediu bolo de fubá.');
    await composer.press('Enter');
    await log.getByRole('article', { name: 'Nota privada' }).filter({ hasText: 'Cliente pediu bolo de fubá.' }).waitFor();
    await page.getByRole('button', { name: 'Responder' }).click();
    await composer.pressSequentially('Mais alguma coisa?');
    await composer.press('Enter');
    // Delivered after the note: if the note were going out, it would have arrived first.
    await chat.locator('li.msg:not(.mine)', { hasText: 'Mais alguma coisa?' }).waitFor();
    expect(await chat.getByText('Cliente pediu bolo de fubá.').count()).to.equal(0);

    const conversationId = Number(new URL(page.url()).pathname.split('/').pop());
    const firstCall = await api.deps.knex('customer_platforms as cp').join('calls as c', 'c.id', 'cp.current_call_id').where('cp.id', conversationId).first('c.id', 'c.protocol');

    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByTestId('resolved-banner').waitFor();

    await input.fill('Esqueci de perguntar: vocês entregam?');
    await input.press('Enter');
    // Live again for the agent: the banner goes, the composer is back, the message is there.
    await log.getByText('Esqueci de perguntar: vocês entregam?').waitFor();
    await page.getByTestId('resolved-banner').waitFor({ state: 'detached' });
    await composer.waitFor();
    const secondCall = await api.deps.knex('customer_platforms as cp').join('calls as c', 'c.id', 'cp.current_call_id').where('cp.id', conversationId).first('c.id', 'c.protocol', 'cp.is_finished');
    expect(secondCall.id).to.not.equal(firstCall.id);
    expect(secondCall.protocol).to.be.greaterThan(firstCall.protocol);
    expect(secondCall.isFinished).to.equal(false);
  });
});
