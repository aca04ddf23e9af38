import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { inboundMessage, makeChannel } from '../inbox/factories';
import { verifySignature, WebhookReceiver } from '../fakes/webhookReceiver';
import { logIn, toast } from './support';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

describe('e2e: Webhook settings (URL, events, signing secret, delivery log, Reenviar)', function () {
  this.timeout(180_000);
  let api: TestApi;
  let session: BrowserSession;
  let connection: NativeConnection;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let ws: TestWorkspace;
  let admin: TestOperator;
  const receiver = new WebhookReceiver();

  before(async () => {
    await ensureUiBuilt();
    // Its own task queue: the worker below may reach loopback, so it must run only this file's workflows.
    api = await startTestApi({ temporalTaskQueue: unique('webhook-e2e') });
    [connection, workflowBundle] = await Promise.all([testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
    await connection?.close();
    await api?.close();
    await closeBrowser();
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9, { name: 'Alice Admin' });
    session = await openPage(api.url);
    receiver.all.length = 0;
    receiver.accepted.length = 0;
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      console.log(`    screenshot: ${await screenshotOnFailure(session.page, this.currentTest.fullTitle())}\n    browser errors: ${JSON.stringify(session.consoleErrors)}`);
    }
    await session.close();
  });

  /** A worker like production's, except that it may deliver to the loopback receiver (the explicit test option). */
  async function withWorker(fn: () => Promise<void>): Promise<void> {
    const worker = await Worker.create({
      connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle,
      activities: createActivities(
        { knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent') },
        { webhooks: { allowLoopbackForTests: true, timeoutMs: 2000, initialDelayMs: 200, maxDelayMs: 800, orderWaitMs: 50, maxAttempts: 20 } },
      ),
    });
    await worker.runUntil(fn());
  }

  it('an admin saves URL, e-mail and events; the receiver verifies a delivery with the secret the screen shows; the log lists it and Reenviar sends the same webhook-id again', async () => {
    const { page } = session;
    const channel = await makeChannel(api.deps.knex, ws);
    await logIn(page, admin);
    await page.goto('/settings/account/profile');
    await page.getByRole('link', { name: 'Webhook' }).click();
    await page.waitForURL('**/settings/webhook');
    await page.getByText('Nenhum webhook configurado.').waitFor();
    await page.getByRole('link', { name: 'Configurar webhook' }).click();
    await page.waitForURL('**/settings/webhook/new');

    // An internal address is refused on the field (the guarded URL check of the API).
    await page.getByLabel(/^URL do webhook/).fill('127.0.0.1/hooks');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.locator('#field-webhook[aria-invalid="true"]').waitFor();
    expect(await api.deps.knex('webhooks').where({ workspaceId: ws.id })).to.have.length(0);

    // Without a scheme: stored with https:// (SPEC §5).
    await page.getByLabel(/^URL do webhook/).fill('hooks.example.test/balcao');
    await page.getByLabel(/^E-mail para avisos/).fill('ti@exemplo.com.br');
    await page.getByRole('checkbox', { name: /message:received/ }).check();
    await page.getByRole('checkbox', { name: /person:changed/ }).check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Webhook salvo');
    await page.waitForURL(/\/settings\/webhook\/\d+$/);
    const [stored] = await api.deps.knex('webhooks').where({ workspaceId: ws.id });
    expect(stored).to.deep.include({ url: 'https://hooks.example.test/balcao', email: 'ti@exemplo.com.br' });
    expect([...stored.subscriptions].sort()).to.deep.equal(['message:received', 'person:changed']);
    // The saved record's page: its secret, and the URL as stored.
    const secret = await page.getByLabel('Secret de assinatura', { exact: true }).inputValue();
    expect(await page.getByLabel(/^URL do webhook/).inputValue()).to.equal('https://hooks.example.test/balcao');
    expect(secret).to.equal(stored.secret).and.match(/^whsec_/);
    await page.getByText('Nenhuma entrega ainda.').waitFor();

    // The API refuses loopback as in production; only the stored row is pointed at the local receiver.
    await api.deps.knex('webhooks').where({ id: stored.id }).update({ url: receiver.url });
    receiver.secret = secret;

    await withWorker(async () => {
      await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'rita', name: 'Rita Cliente' }, content: [{ insert: 'Quero um orçamento\n' }] }));
      await receiver.waitFor(() => receiver.accepted.length === 1);
      const first = receiver.accepted[0];
      expect(first.signatureValid, 'signed with the secret the screen shows').to.equal(true);
      expect(verifySignature(secret, first.id, first.timestamp, first.body.replace('orçamento', 'desconto'), first.signature)).to.equal(false);
      expect(first.json).to.deep.include({ type: 'message:received', workspaceId: ws.id });

      // The log (refreshed by hand) shows the delivery under the webhook-id the receiver saw.
      const [delivery] = await api.deps.knex('webhook_deliveries').where({ workspaceId: ws.id });
      await page.getByRole('button', { name: 'Atualizar' }).click();
      const row = page.getByRole('row').filter({ hasText: first.id });
      await row.getByRole('cell', { name: 'Entregue' }).waitFor();
      expect(first.id).to.equal(`msg_${delivery.id}`);

      await row.getByRole('button', { name: `Reenviar ${first.id}` }).click();
      await toast(page, 'Entrega reenviada');
      await receiver.waitFor(() => receiver.accepted.length === 2);
      const again = receiver.accepted[1];
      expect(again.id, 'same webhook-id on Reenviar').to.equal(first.id);
      expect(again.signatureValid).to.equal(true);
      expect(JSON.parse(again.body)).to.deep.equal(first.json);
      await page.getByRole('button', { name: 'Atualizar' }).click();
      await row.getByRole('cell', { name: 'Entregue' }).waitFor();
    });
    expect(await api.deps.knex('webhook_deliveries').where({ workspaceId: ws.id })).to.have.length(1);

    // Back on the list: the one webhook, and no second 'Configurar webhook'.
    await page.getByRole('link', { name: 'Voltar' }).click();
    await page.waitForURL('**/settings/webhook');
    await page.getByRole('row').filter({ hasText: receiver.url }).getByRole('cell', { name: 'Ativo' }).waitFor();
    expect(await page.getByRole('link', { name: 'Configurar webhook' }).count()).to.equal(0);
  });

  it('regenerating the secret asks first and shows the new one; a level 3 agent has no Webhook screen', async () => {
    const { page } = session;
    await api.request('PUT', '/api/webhook', { token: admin.token, body: { webhook: 'https://hooks.example.test/x', subscriptions: { 'message:received': true } } });
    const before = (await api.deps.knex('webhooks').where({ workspaceId: ws.id }).first('secret', 'id')) as { secret: string; id: number };
    await logIn(page, admin);
    await page.goto('/settings/webhook');
    await page.getByRole('row').filter({ hasText: 'https://hooks.example.test/x' }).click();
    await page.waitForURL(`**/settings/webhook/${before.id}`);
    expect(await page.getByLabel('Secret de assinatura', { exact: true }).inputValue()).to.equal(before.secret);
    await page.getByRole('button', { name: 'Gerar novo secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    // Polled from the test side: the app's CSP (script-src 'self') refuses string predicates run in the page.
    const secretField = page.getByLabel('Secret de assinatura', { exact: true });
    let shown = await secretField.inputValue();
    for (let i = 0; i < 100 && shown === before.secret; i++) {
      await page.waitForTimeout(100);
      shown = await secretField.inputValue();
    }
    const after = (await api.deps.knex('webhooks').where({ id: before.id }).first('secret')) as { secret: string };
    expect(shown).to.equal(after.secret).and.not.equal(before.secret);

    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const other = await openPage(api.url);
    try {
      await logIn(other.page, agent);
      await other.page.goto('/settings/tags');
      await other.page.getByRole('heading', { name: 'Etiquetas' }).waitFor();
      expect(await other.page.getByRole('link', { name: 'Webhook' }).count()).to.equal(0);
      await other.page.goto(`/settings/webhook/${before.id}`);
      await other.page.getByText('Você não tem permissão para acessar esta página.').waitFor();
      expect(await other.page.getByLabel('Secret de assinatura').count()).to.equal(0);
    } finally {
      await other.close();
    }
  });
});
