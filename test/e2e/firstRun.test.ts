import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { logIn, newAccount, signUpInPage, toast } from './support';

/**
 * Issue 11 §4 "a new workspace is a dead end": right after signup the inbox and the channels page say
 * what to do first, and the site chat is one click away with its test page and install code.
 */
describe('e2e: first run of a new workspace', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('signup → the inbox says to add the site chat → one click makes it → its test page sends a message → it shows in the inbox', async () => {
    const account = newAccount();
    await signUpInPage(page, account);
    await page.waitForURL('**/inbox/all', { timeout: 15_000 });

    expect(await page.getByTestId('inbox-empty').textContent()).to.equal('Sem conversas');
    const guide = page.getByTestId('first-run');
    await guide.getByRole('heading', { name: 'Comece pelo chat do seu site' }).waitFor();
    await guide.getByText('Este workspace ainda não tem nenhum canal.', { exact: false }).waitFor();

    // 'Nova mensagem' no longer sends the newcomer to a WhatsApp line that cannot be connected yet.
    await page.getByRole('button', { name: 'Nova mensagem' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova mensagem' });
    await dialog.getByText('adicione o chat do site', { exact: false }).waitFor();
    await dialog.getByRole('link', { name: 'Ir para Canais' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await guide.getByRole('button', { name: 'Adicionar chat do site' }).click();
    await toast(page, 'Chat do site salvo');
    const ready = page.getByTestId('first-run-ready');
    await ready.getByRole('heading', { name: 'Seu chat do site está pronto' }).waitFor();
    const [channel] = await api.deps.knex('channels').join('workspaces', 'workspaces.id', 'channels.workspace_id').where('workspaces.name', account.workspace).select('channels.identifier', 'channels.id', 'channels.type');
    expect(channel, 'the widget channel').to.not.equal(undefined);
    expect(await ready.getByTestId('widget-snippet').textContent()).to.equal(`<script src="${api.url}/widget.js" data-identifier="${channel.identifier}" async></script>`);
    const testLink = ready.getByRole('link', { name: 'Abrir página de teste' });
    expect(await testLink.getAttribute('href')).to.equal(`/widget?workspacePlatformIdentifier=${channel.identifier}`);
    expect(await ready.getByRole('link', { name: 'Configurar o chat (nome e cor)' }).getAttribute('href')).to.equal(`/settings/channels/chat-widget/${channel.id}`);
    await page.screenshot({ path: 'test-results/first-run-ready.png' });

    const [visitor] = await Promise.all([page.context().waitForEvent('page'), testLink.click()]);
    const chat = visitor.getByRole('dialog', { name: account.workspace });
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Olá! Sou a primeira visitante.');
    await input.press('Enter');
    await chat.locator('li.msg.mine .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor();

    // Live in the inbox, without a reload.
    const row = page.getByRole('option', { name: /Olá! Sou a primeira visitante\./ });
    await row.waitFor();
    await row.click();
    await page.getByRole('log', { name: 'Mensagens da conversa' }).getByText('Olá! Sou a primeira visitante.').waitFor();
    await visitor.close();
  });

  it('the channels page of a workspace without channels offers the site chat first and opens it with its code', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    await logIn(page, owner);
    await page.goto('/settings/channels');
    const guide = page.getByTestId('first-run');
    await guide.getByRole('heading', { name: 'Comece pelo chat do seu site' }).waitFor();
    await page.screenshot({ path: 'test-results/first-run-channels.png' });
    await guide.getByRole('button', { name: 'Adicionar chat do site' }).click();
    await toast(page, 'Chat do site salvo');
    await page.waitForURL(/\/settings\/channels\/chat-widget\/\d+$/);
    await page.getByTestId('widget-snippet').waitFor();
    await page.getByRole('link', { name: 'Testar o widget' }).waitFor();
    expect(await page.getByLabel(/^Descrição/).inputValue()).to.equal('Chat do site');
  });

  it('a channel added on the settings pages ends the inbox first run at once (one cache of the channel list)', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    await logIn(page, owner);
    await page.getByTestId('first-run').getByRole('heading', { name: 'Comece pelo chat do seu site' }).waitFor();

    // Within the app (no reload, the inbox's answer still fresh): the usual add page, not the first-run button.
    await page.getByRole('link', { name: 'Configurações' }).click();
    await page.getByRole('link', { name: 'Canais' }).click();
    await page.waitForURL('**/settings/channels');
    await page.getByRole('link', { name: 'Adicionar canal' }).click();
    await page.getByRole('link', { name: /Chat do site/ }).click();
    await page.waitForURL('**/settings/channels/add/chat-widget');
    await page.getByLabel(/^Descrição/).fill('Chat da loja');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Chat do site salvo');

    await page.getByRole('link', { name: 'Mensagens' }).click();
    await page.waitForURL('**/inbox/all');
    await page.getByTestId('nothing-selected').waitFor();
    expect(await page.getByTestId('first-run').count()).to.equal(0);
  });

  it('an agent below level 6 in a workspace without channels is told whom to ask', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    await logIn(page, agent);
    const guide = page.getByTestId('first-run');
    await guide.getByText('Peça a um administrador do workspace', { exact: false }).waitFor();
    expect(await guide.getByRole('button', { name: 'Adicionar chat do site' }).count()).to.equal(0);
  });
});
