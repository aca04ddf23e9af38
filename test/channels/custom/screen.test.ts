import { expect } from 'chai';
import { signWebhook } from '../../../api/webhooks/secret';
import { allowLoopbackCustomEndpointsForTests } from '../../../api/channels/custom/testing';
import type { Page } from 'playwright-core';
import type { TestApi } from '../../helpers/api';
import { useAppPage, type BrowserSession } from '../../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { WebhookReceiver } from '../../fakes/webhookReceiver';
import { logIn, toast } from '../../e2e/support';

describe('e2e: /settings/channels/add/custom (endpoint, secret shown once, inbound URL, delivery log)', function () {
  this.timeout(120_000);
  const receiver = new WebhookReceiver();
  let api: TestApi;
  let session: BrowserSession;
  let page: Page;
  let owner: TestOperator;
  let ws: TestWorkspace;

  before(async () => {
    allowLoopbackCustomEndpointsForTests(true);
    await receiver.start();
  });
  after(async () => {
    allowLoopbackCustomEndpointsForTests(false);
    await receiver.stop();
  });
  useAppPage((s) => ({ api, browser: session, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
  });

  it('saves with the toast, shows the secret once (it signs a real inbound message), and the channel page later shows the URL and log without it', async () => {
    await logIn(page, owner);
    await page.goto('/settings/channels/add');
    await page.getByRole('link', { name: /Customizado/ }).click();
    await page.waitForURL('**/settings/channels/add/custom');

    // Field errors from the shared schema, then from the API's SSRF guard.
    await page.getByLabel(/^Descrição/).fill('ERP da loja');
    await page.getByLabel(/^Endpoint de saída/).fill('nada');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe uma URL completa, começando com https://').waitFor();
    allowLoopbackCustomEndpointsForTests(false);
    try {
      await page.getByLabel(/^Endpoint de saída/).fill(receiver.url);
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('A URL deve começar com https://').waitFor();
    } finally {
      allowLoopbackCustomEndpointsForTests(true);
    }
    expect(await api.deps.knex('channels').where({ workspaceId: ws.id, type: 'custom' })).to.have.length(0);

    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Canal customizado salvo');
    const secret = await page.getByRole('textbox', { name: 'Segredo' }).inputValue();
    expect(secret).to.match(/^whsec_/);
    await page.getByText('este segredo não será exibido de novo').waitFor();
    await session.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copiar Segredo' }).click();
    await toast(page, 'Copiado para clipboard');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).to.equal(secret);
    const webhookUrl = await page.getByRole('textbox', { name: 'URL de entrada' }).inputValue();
    const row = await api.deps.knex('channels').where({ workspaceId: ws.id, type: 'custom' }).first();
    expect(webhookUrl).to.equal(`${api.config.publicUrl}/api/hooks/custom/${row.identifier}`);

    // The secret the screen showed signs an inbound message the API accepts.
    const body = JSON.stringify({ id: 'erp-1', sender: { id: 'cliente-1', name: 'Ana' }, content: 'Olá' });
    const ts = Math.floor(Date.now() / 1000);
    const res = await fetch(`${api.url}/api/hooks/custom/${row.identifier}`, {
      method: 'POST',
      headers: { 'webhook-id': 'erp-1', 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, 'erp-1', ts, body) },
      body,
    });
    expect(res.status).to.equal(200);

    // Later, from the channel list: the endpoints and the (empty) log, never the secret.
    await page.goto('/settings/channels');
    await page.getByText('ERP da loja').first().click();
    await page.waitForURL(`**/settings/channels/custom/${row.id}`);
    expect(await page.getByRole('textbox', { name: 'URL de entrada' }).inputValue()).to.equal(webhookUrl);
    expect(await page.getByRole('textbox', { name: 'Endpoint de saída' }).inputValue()).to.equal(receiver.url);
    await page.getByText('Nenhuma mensagem enviada ainda.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Segredo' }).count()).to.equal(0);
    expect(await page.content()).to.not.include(secret);
  });
});
