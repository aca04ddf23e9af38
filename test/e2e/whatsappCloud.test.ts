import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { unique, type TestOperator } from '../helpers/factories';
import { MetaGraphFake, messagesWebhook, type GraphTemplateRecord } from '../fakes/metaGraph';
import { postCloudWebhook } from '../channels/whatsapp/support';
import { until, type WorkerSetup } from '../channels/helpers';
import { makeAgent, useGraphFakeAndWorker, withAppWorker } from './whatsappSteps';
import { insertCampaign } from '../campaigns/helpers';
import { logIn, toast } from './support';

const BUSINESS_ACCOUNT_ID = '102290129340398';
const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'retomar_atendimento',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Olá {{1}}, podemos continuar seu atendimento sobre {{2}}?', example: { body_text: [['Maria', 'o pedido']] } }],
  },
];

/**
 * e2e of a WhatsApp Cloud line (issue 12): added through the screen, a customer message posted by the fake
 * as Meta posts it (signed) appears live, the agent's reply reaches the fake; a token the fake revokes
 * (Graph error 190) disconnects the line and the banner appears live, 'Ver Canal' opening the line.
 * A Temporal worker runs the delivery workflows (channel-send) beside the app, as `npm start` does.
 */
describe('e2e: WhatsApp Cloud line (screen, live inbox, replies, disconnection banner, templates)', function () {
  this.timeout(150_000);
  const graph = new MetaGraphFake();
  let setup: WorkerSetup;
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;
  const customer = { waId: '5511987654321', name: 'Maria Cliente' };

  useGraphFakeAndWorker(graph, (s) => (setup = s));
  useAppPage((s) => ({ api, page } = s), () => ({ metaGraphUrl: graph.url, temporalTaskQueue: unique('e2e-wa') }));
  beforeEach(async () => {
    owner = await makeAgent(api);
    graph.sent.length = 0;
    graph.templates.set(BUSINESS_ACCOUNT_ID, TEMPLATES);
  });

  /** Runs `fn` while a worker executes the app's workflows and activities (delivery with short retries). */
  const withWorker = (fn: () => Promise<void>) => withAppWorker(api, setup, fn);

  const composer = () => page.getByRole('combobox', { name: /Responder|Nota privada/ });
  const log = () => page.getByRole('log', { name: 'Mensagens da conversa' });
  const option = (name: string) => page.getByRole('option', { name: new RegExp(name) });

  /** Adds the Cloud line through /settings/channels/add/whatsapp and answers its row. */
  async function addCloudLine(token: string, appSecret: string) {
    await page.goto('/settings/channels/add');
    await page.getByRole('link', { name: /WhatsApp/ }).click();
    await page.waitForURL('**/settings/channels/add/whatsapp');
    await page.getByLabel(/^Nome/).fill('Vendas');
    await page.getByLabel(/^Número/).pressSequentially('5511912345678');
    expect(await page.getByLabel(/^Número/).inputValue()).to.equal('+55 (11) 91234-5678');
    await page.getByLabel('API oficial').check();
    await page.getByLabel(/^ID do número de telefone/).fill('106540352242922');
    await page.getByLabel(/^ID da conta do WhatsApp Business/).fill(BUSINESS_ACCOUNT_ID);
    await page.getByLabel(/^Token de acesso/).fill(token);
    await page.getByLabel(/^Chave secreta do app/).fill(appSecret);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Linha de WhatsApp salva');
    const webhookUrl = await page.getByRole('textbox', { name: 'URL de callback' }).inputValue();
    const row = await api.deps.knex('channels').where({ workspaceId: owner.workspaceId, type: 'whatsapp' }).first();
    expect(webhookUrl).to.equal(`${api.config.publicUrl}/api/hooks/whatsapp/${row.identifier}`);
    expect(await page.getByRole('textbox', { name: 'Token de verificação' }).inputValue()).to.equal(row.config.verifyToken);
    // Meta has one callback URL per app: the screen shows the app-level one every line of the app shares.
    expect(await page.getByRole('textbox', { name: 'Webhook do app (todas as linhas)' }).inputValue()).to.equal(`${api.config.publicUrl}/api/hooks/whatsapp`);
    expect(await page.content()).to.not.include(token).and.not.include(appSecret);
    return { id: row.id as number, hookUrl: `${api.url}/api/hooks/whatsapp/${row.identifier}`, phoneNumberId: '106540352242922', businessAccountId: BUSINESS_ACCOUNT_ID };
  }

  it('adds a Cloud line on the screen; a signed customer message arrives live; the reply reaches Graph; a revoked token disconnects it with the banner and Ver Canal', async () => {
    const token = unique('EAAG-token');
    const appSecret = 'segredo-do-app';
    graph.allowToken(token);
    await logIn(page, owner);
    const line = await addCloudLine(token, appSecret);

    await page.goto('/inbox/all');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    const posted = await postCloudWebhook(api, line.hookUrl, messagesWebhook(line, customer, [{ type: 'text', text: { body: 'Oi, meu pedido atrasou' } }]), appSecret);
    expect(posted.status).to.equal(200);
    await option('Maria Cliente').waitFor();
    await option('Maria Cliente').click();
    await log().getByText('Oi, meu pedido atrasou').waitFor();

    await withWorker(async () => {
      await composer().pressSequentially('Vou verificar agora, Maria.');
      await composer().press('Enter');
      await until(async () => graph.sent.length === 1);
      expect(graph.sent[0].body).to.deep.include({ to: customer.waId, type: 'text' });
      expect(graph.sent[0].body.text).to.deep.equal({ preview_url: false, body: 'Vou verificar agora, Maria.' });

      // Graph has no call that deletes a sent message: once the reply carries its WhatsApp id ('Responder'
      // appears on it), the inbox offers reply but not 'Apagar mensagem' on this Cloud line.
      await until(async () => Boolean(await api.deps.knex('messages').where({ text: 'Vou verificar agora, Maria.' }).whereNotNull('external_id').first('id')));
      await page.reload();
      await option('Maria Cliente').click();
      const reply = log().getByRole('article').filter({ hasText: 'Vou verificar agora, Maria.' });
      await reply.hover();
      await reply.getByRole('button', { name: 'Responder' }).waitFor();
      expect(await reply.getByRole('button', { name: 'Apagar mensagem' }).count()).to.equal(0);

      // Meta revokes the token: the next send gets Graph's 190, the line goes down and the banner shows live.
      expect(await page.getByTestId('channel-disconnected-banner').count()).to.equal(0);
      graph.revokeToken(token);
      await composer().pressSequentially('Mais alguma coisa?');
      await composer().press('Enter');
      await page.getByTestId('channel-disconnected-banner').filter({ hasText: 'Vendas' }).waitFor();
    });
    expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');
    await log().getByText('Não entregue').first().waitFor();

    await page.getByTestId('channel-disconnected-banner').getByRole('link', { name: 'Ver Canal' }).click();
    await page.waitForURL(`**/settings/channels/whatsapp/${line.id}`);
    await page.getByTestId('whatsapp-line-status').filter({ hasText: 'Desconectado' }).waitFor();
    expect(await page.getByLabel(/^Número/).isDisabled()).to.equal(true);

    // The banner is there on the next app start too, and 'Fechar' hides it.
    await page.reload();
    await page.getByTestId('channel-disconnected-banner').waitFor();
    await page.getByTestId('channel-disconnected-banner').getByRole('button', { name: 'Fechar' }).click();
    await page.getByTestId('channel-disconnected-banner').waitFor({ state: 'detached' });
  });

  it('outside the 24-hour window the composer offers the approved templates with their variables, and the template reaches Graph', async () => {
    const token = unique('EAAG-token');
    const appSecret = 'segredo-do-app';
    graph.allowToken(token);
    await logIn(page, owner);
    const line = await addCloudLine(token, appSecret);
    expect((await postCloudWebhook(api, line.hookUrl, messagesWebhook(line, customer, [{ type: 'text', text: { body: 'Olá' } }]), appSecret)).status).to.equal(200);
    const first = await api.deps.knex('messages').where({ channelId: line.id }).first();
    await api.deps.knex('messages').where({ id: first.id }).update({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) });

    await page.goto(`/inbox/all/${first.customerPlatformId}`);
    const picker = page.getByTestId('template-picker');
    await picker.getByText('Já se passaram mais de 24 horas').waitFor();
    expect(await composer().isVisible()).to.equal(false);
    await picker.getByLabel('Modelo de mensagem').click();
    await page.getByRole('option', { name: 'retomar_atendimento (pt_BR)' }).click();
    await picker.getByRole('button', { name: 'Enviar modelo' }).click();
    await picker.getByText('Preencha a variável {{1}}.').waitFor();
    await picker.getByLabel('Variável {{1}}').fill('Maria');
    await picker.getByLabel('Variável {{2}}').fill('o pedido 42');
    expect(await picker.getByTestId('template-preview').textContent()).to.equal('Olá Maria, podemos continuar seu atendimento sobre o pedido 42?');

    await withWorker(async () => {
      await picker.getByRole('button', { name: 'Enviar modelo' }).click();
      await toast(page, 'Mensagem enviada.');
      await until(async () => graph.sent.length === 1);
    });
    expect(graph.sent[0].body).to.deep.include({ to: customer.waId, type: 'template' });
    expect(graph.sent[0].body.template).to.deep.equal({
      name: 'retomar_atendimento',
      language: { code: 'pt_BR' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }, { type: 'text', text: 'o pedido 42' }] }],
    });
    await log().getByText('Olá Maria, podemos continuar seu atendimento sobre o pedido 42?').waitFor();

    // The customer answers: the window opens again and free text comes back.
    expect((await postCloudWebhook(api, line.hookUrl, messagesWebhook(line, customer, [{ type: 'text', text: { body: 'Pode sim' } }]), appSecret)).status).to.equal(200);
    await composer().waitFor();
    expect(await page.getByTestId('template-picker').count()).to.equal(0);
  });
  it('shows what the customer sends beyond text: a reaction on the message it reacts to (live, and gone when removed), a contact card, a location with its map link, a button reply with its payload', async () => {
    const token = unique('EAAG-token');
    const appSecret = 'segredo-do-app';
    graph.allowToken(token);
    await logIn(page, owner);
    const line = await addCloudLine(token, appSecret);
    const deliver = async (messages: Record<string, unknown>[]) => expect((await postCloudWebhook(api, line.hookUrl, messagesWebhook(line, customer, messages), appSecret)).status).to.equal(200);
    await deliver([{ type: 'text', text: { body: 'Vocês entregam no sábado?' } }]);
    const first = await api.deps.knex('messages').where({ channelId: line.id }).first();
    // The agent's answer, as the delivery path leaves it once Graph accepted it (its wamid recorded).
    const sent = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: first.customerPlatformId, type: 0, content: [{ insert: 'Entregamos sim!\n' }] } });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(201);
    const wamid = `wamid.e2e-${Date.now()}`;
    await api.deps.knex('messages').where({ id: sent.body.data.id }).update({ externalId: wamid, deliveryState: 'sent', status: 2 });

    await page.goto(`/inbox/all/${first.customerPlatformId}`);
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    const answer = log().getByRole('article').filter({ hasText: 'Entregamos sim!' });
    await answer.waitFor();
    expect(await answer.getByTestId('message-reaction').count()).to.equal(0);

    // The reaction appears live on the agent's message; Meta's removal (no emoji) takes it away live.
    await deliver([{ type: 'reaction', reaction: { message_id: wamid, emoji: '❤️' } }]);
    await answer.getByRole('img', { name: 'Reação do cliente: ❤️' }).waitFor();
    expect(await log().getByText('não suportada').count()).to.equal(0);
    await deliver([{ type: 'reaction', reaction: { message_id: wamid } }]);
    await answer.getByTestId('message-reaction').waitFor({ state: 'detached' });

    await deliver([{ type: 'contacts', contacts: [{ name: { formatted_name: 'Ana Transportes' }, phones: [{ phone: '+55 11 97777-6666', wa_id: '5511977776666', type: 'WORK' }], org: { company: 'Ana Log' } }] }]);
    const card = log().getByTestId('message-contact');
    await card.waitFor();
    expect(await card.getAttribute('aria-label')).to.equal('Contato compartilhado: Ana Transportes');
    expect(await card.getByText('Ana Log').count()).to.equal(1);
    expect(await card.getByRole('link', { name: '+55 11 97777-6666' }).getAttribute('href')).to.equal('https://wa.me/5511977776666');

    await deliver([{ type: 'location', location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' } }]);
    const place = log().getByTestId('message-location');
    await place.waitFor();
    expect(await place.getByText('MASP — Av. Paulista, 1578').count()).to.equal(1);
    expect(await place.getByRole('link', { name: 'Abrir no mapa' }).getAttribute('href')).to.equal('https://www.google.com/maps/search/?api=1&query=-23.5613,-46.6565');

    await deliver([{ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'confirmar-sabado', title: 'Sim, confirmar' } } }]);
    const choice = log().getByRole('article').filter({ hasText: 'Sim, confirmar' });
    await choice.waitFor();
    expect(await choice.getByTestId('message-button-reply').textContent()).to.equal('Resposta de botão · confirmar-sabado');

    // All of it is still there after a reload (stored, not only live).
    await page.reload();
    await log().getByTestId('message-contact').waitFor();
    expect(await log().getByTestId('message-location').count()).to.equal(1);
    expect(await log().getByTestId('message-reaction').count()).to.equal(0);
  });

  it('a customer answering a campaign shows in the inbox which campaign the answer is to; another customer’s message does not', async () => {
    const token = unique('EAAG-token');
    const appSecret = 'segredo-do-app';
    graph.allowToken(token);
    await logIn(page, owner);
    const line = await addCloudLine(token, appSecret);
    const knex = api.deps.knex;
    const campaignId = await insertCampaign(knex, { workspaceId: owner.workspaceId, channelId: line.id, status: 'finished_success' });
    const { name } = await knex('campaigns').where({ id: campaignId }).first();
    await knex('campaign_numbers').insert({ workspaceId: owner.workspaceId, campaignId, phone: customer.waId, raw: customer.waId, normalized: customer.waId, status: 'sent', externalId: 'wamid.campanha-1', sentAt: new Date() });

    expect((await postCloudWebhook(api, line.hookUrl, messagesWebhook(line, customer, [{ type: 'text', text: { body: 'Quero a oferta' } }]), appSecret)).status).to.equal(200);
    const other = { waId: '5521998887777', name: 'Outra Pessoa' };
    expect((await postCloudWebhook(api, line.hookUrl, messagesWebhook(line, other, [{ type: 'text', text: { body: 'Bom dia' } }]), appSecret)).status).to.equal(200);

    await page.goto('/inbox/all');
    await option('Maria Cliente').click();
    const answer = log().getByRole('article').filter({ hasText: 'Quero a oferta' });
    await answer.waitFor();
    expect(await answer.getByTestId('message-campaign').textContent()).to.equal(`Resposta à campanha ${name}`);
    await option('Outra Pessoa').click();
    await log().getByRole('article').filter({ hasText: 'Bom dia' }).waitFor();
    expect(await log().getByTestId('message-campaign').count()).to.equal(0);
  });
});
