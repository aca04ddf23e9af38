import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { unique, type TestOperator } from '../helpers/factories';
import { MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { until, type WorkerSetup } from '../channels/helpers';
import { makeAgent, useGraphFakeAndWorker, withAppWorker } from './whatsappSteps';
import { logIn, toast } from './support';

const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'primeiro_contato',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Olá {{1}}, aqui é a equipe da {{2}}. Podemos falar sobre seu pedido?', example: { body_text: [['Maria', 'Loja']] } }],
  },
];

/**
 * e2e of 'Nova mensagem' on a WhatsApp Cloud line (issue 12): Meta refuses free text outside the 24-hour
 * window (131047), so the dialog offers the line's approved templates instead of the text box and says why;
 * the conversation opens at /inbox/all/{id} and the template, with its variables, reaches the Graph fake.
 */
describe('e2e: new outbound message on a WhatsApp Cloud line starts with a template', function () {
  this.timeout(150_000);
  const graph = new MetaGraphFake();
  let setup: WorkerSetup;
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;

  useGraphFakeAndWorker(graph, (s) => (setup = s));
  useAppPage((s) => ({ api, page } = s), () => ({ metaGraphUrl: graph.url, temporalTaskQueue: unique('e2e-wa-active') }));
  beforeEach(async () => {
    owner = await makeAgent(api);
    graph.sent.length = 0;
  });

  const withWorker = (fn: () => Promise<void>) => withAppWorker(api, setup, fn);

  it('Nova mensagem on a Cloud line shows the template picker with why, sends the filled template and opens the conversation', async () => {
    const token = unique('EAAG-token');
    graph.allowToken(token);
    const businessAccountId = String(Date.now());
    graph.templates.set(businessAccountId, TEMPLATES);
    const created = await api.request('POST', '/api/integrations/whatsapp', {
      token: owner.token,
      body: { name: 'Vendas', phone: '+55 (11) 91234-5678', provider: 'cloud', phoneNumberId: '106540352242922', businessAccountId, accessToken: token, appSecret: 'segredo-do-app' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);

    await logIn(page, owner);
    await page.goto('/inbox/all');
    await page.getByRole('navigation', { name: 'Caixas de entrada' }).getByRole('button', { name: 'Nova mensagem' }).click();
    const dlg = page.getByRole('dialog', { name: 'Nova mensagem' });
    // The only line is chosen already; being a Cloud line, a template replaces the text box.
    const picker = dlg.getByTestId('new-message-template');
    await picker.getByText('a primeira mensagem para quem não falou com você nas últimas 24 horas precisa ser um modelo aprovado pela Meta').waitFor();
    expect(await dlg.getByLabel(/^Mensagem/).count()).to.equal(0);

    await dlg.getByLabel(/^Telefone/).pressSequentially('5521998765432');
    await dlg.getByLabel(/^Nome/).fill('João Novo');
    await dlg.getByLabel(/banimento do número/).check();
    const send = dlg.getByRole('button', { name: 'Enviar', exact: true });
    expect(await send.isDisabled(), 'no template chosen yet').to.equal(true);
    await picker.getByLabel('Modelo de mensagem').click();
    await page.getByRole('option', { name: 'primeiro_contato (pt_BR)' }).click();
    await send.click();
    await picker.getByText('Preencha a variável {{1}}.').waitFor();
    await picker.getByLabel('Variável {{1}}').fill('João');
    await picker.getByLabel('Variável {{2}}').fill('Loja Exemplo');
    expect(await picker.getByTestId('template-preview').textContent()).to.equal('Olá João, aqui é a equipe da Loja Exemplo. Podemos falar sobre seu pedido?');

    await withWorker(async () => {
      await send.click();
      await toast(page, 'Mensagem enviada.');
      await page.waitForURL(/\/inbox\/all\/\d+$/);
      await until(async () => graph.sent.length === 1);
    });
    const conversationId = Number(new URL(page.url()).pathname.split('/').pop());
    const cp = await api.deps.knex('customer_platforms').where({ id: conversationId }).first();
    expect(cp).to.include({ channelId: created.body.data.id, externalId: '5521998765432' });
    expect(graph.sent[0].body).to.deep.include({ to: '5521998765432', type: 'template' });
    expect(graph.sent[0].body.template).to.deep.equal({
      name: 'primeiro_contato',
      language: { code: 'pt_BR' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'João' }, { type: 'text', text: 'Loja Exemplo' }] }],
    });
    await page.getByRole('log', { name: 'Mensagens da conversa' }).getByText('Olá João, aqui é a equipe da Loja Exemplo. Podemos falar sobre seu pedido?').waitFor();
  });
});
