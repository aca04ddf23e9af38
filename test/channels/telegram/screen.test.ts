import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../../helpers/api';
import { useAppPage } from '../../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../../helpers/factories';
import { TelegramFake } from '../../fakes/telegram';
import { logIn, toast } from '../../e2e/support';

describe('e2e: /settings/channels/add/telegram (bot token checked by getMe, webhook registered, toast)', function () {
  this.timeout(120_000);
  const telegram = new TelegramFake();
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;
  let wsId: number;

  before(() => telegram.start());
  after(() => telegram.stop());
  useAppPage((s) => ({ api, page } = s), () => ({ telegramApiUrl: telegram.url }));
  beforeEach(async () => {
    // Telegram (and its fake) only take an HTTPS webhook on 443/80/88/8443. Set after the app was built, so
    // the page keeps the loopback address it was loaded from (security headers) while setWebhook gets this.
    api.config.publicUrl = 'https://balcao.example';
    const ws = await makeWorkspace(api.deps.knex);
    wsId = ws.id;
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
  });

  it('shows the pt-BR error of a wrong token, then saves with the toast and the bot; the line page takes a new token after a revoke (reconnecting) and deletes it', async () => {
    const { token, bot } = telegram.addBot();
    await logIn(page, owner);
    await page.goto('/settings/channels/add');
    await page.getByRole('link', { name: /Telegram/ }).click();
    await page.waitForURL('**/settings/channels/add/telegram');

    // The shared schema first, then getMe's refusal as the field's error; nothing saved either time.
    await page.getByLabel(/^Token do bot/).fill('abc');
    await page.getByLabel(/^Descrição/).fill('Bot da loja');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Token do bot inválido. Copie o token que o @BotFather enviou.').waitFor();
    await page.getByLabel(/^Token do bot/).fill(`${bot.id}:AAnaoexistenaoexistenaoexiste1234`);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Token do bot inválido. Copie o token que o @BotFather enviou.').waitFor();
    expect(await api.deps.knex('channels').where({ workspaceId: wsId, type: 'telegram' })).to.have.length(0);

    await page.getByLabel(/^Token do bot/).fill(token);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Linha de Telegram salva');
    await page.getByText(`@${bot.username}`).waitFor();
    expect(await page.content()).to.not.include(token);
    const [row] = await api.deps.knex('channels').where({ workspaceId: wsId, type: 'telegram' });
    expect(row).to.include({ description: 'Bot da loja', status: 'connected' });
    expect(telegram.webhooks.get(token)?.url).to.equal(`${api.config.publicUrl}/api/hooks/telegram/${row.identifier}`);

    // A revoked token disconnects the line; on its page a new token of the same bot and a new description reconnect it.
    telegram.revokeToken(token);
    await api.deps.knex('channels').where({ id: row.id }).update({ status: 'disconnected' });
    const { token: newToken } = telegram.addBotWithId(bot.id, bot.username);
    await page.goto(`/settings/channels/telegram/${row.id}`);
    await page.getByText(`@${bot.username}`).waitFor();
    await page.getByText(/^Status: Desconectado/).waitFor();
    await page.getByLabel(/^Token do bot/).fill(newToken);
    await page.getByLabel(/^Descrição/).fill('Bot da loja 2');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Linha de Telegram salva');
    await page.getByText('Status: Conectado', { exact: true }).waitFor();
    expect(await api.deps.knex('channels').where({ id: row.id }).first()).to.include({ description: 'Bot da loja 2', status: 'connected' });
    expect(telegram.webhooks.get(newToken)?.url).to.equal(`${api.config.publicUrl}/api/hooks/telegram/${row.identifier}`);
    expect(await page.content()).to.not.include(newToken.split(':')[1]);

    // Deleting from the line page removes it and unregisters the bot's webhook.
    await page.getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Excluído com sucesso.');
    await page.waitForURL('**/settings/channels');
    expect(await api.deps.knex('channels').where({ id: row.id })).to.have.length(0);
    expect(telegram.webhooks.has(newToken)).to.equal(false);
  });
});
