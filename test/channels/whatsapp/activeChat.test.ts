import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import { makeOperator, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta, makeChannel } from '../../inbox/factories';
import { MetaGraphFake, type GraphTemplateRecord } from '../../fakes/metaGraph';
import { makeOwner, sendWorkflowResult, untilDeliveryState, type WorkerSetup } from '../helpers';
import { addCloudLine, deliverCloudMessages, startCloudApi, stopCloudApi, withQuickWorker, type CloudLine } from './support';
import { CLOUD_NEEDS_TEMPLATE, QR_HAS_NO_TEMPLATES, TEMPLATE_NOT_FOUND } from '../../../api/inbox/activeChat';
import { ACTIVE_CHAT_NOT_BOTH } from '../../../api/inbox/schema';

/** Templates as Meta's Business Management API lists them (docs: "Get templates"). */
const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'boas_vindas',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}', example: { header_text: ['Maria'] } },
      { type: 'BODY', text: 'Aqui é a {{1}}. Seu pedido {{2}} está pronto.', example: { body_text: [['Loja', '#1']] } },
    ],
  },
  { name: 'sem_variaveis', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Podemos ajudar?' }] },
  { name: 'rascunho', language: 'pt_BR', status: 'PENDING', category: 'UTILITY', components: [{ type: 'BODY', text: 'Ainda não aprovado' }] },
];

describe('New outbound message on a WhatsApp Cloud line starts with an approved template (POST /api/inbox/active-chat)', function () {
  this.timeout(90_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let line: CloudLine;
  const appSecret = 'segredo-do-app';

  before(async () => ({ api, worker } = await startCloudApi(graph, 'wa-active-chat')));
  after(() => stopCloudApi(graph, api, worker));
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    ({ line } = await addCloudLine(api, graph, owner, { appSecret, templates: TEMPLATES }));
  });

  const withWorker = (fn: () => Promise<void>) => withQuickWorker(api, worker, fn);
  const sentTo = () => graph.sent.filter((s) => s.phoneNumberId === line.phoneNumberId);
  const start = (body: Record<string, unknown>, token = owner.token) =>
    api.request('POST', '/api/inbox/active-chat', { token, body: { workspacePlatformId: line.id, phone: '+55 (21) 99876-5432', name: 'João', ...body } });
  const storedNothing = async () => {
    expect(await api.deps.knex('customer_platforms').where({ channelId: line.id })).to.have.length(0);
    expect(sentTo()).to.have.length(0);
  };

  it('sends the template with its variables (header, then body) to the digits, stores the filled text, and opens one conversation that the reply lands in', async () => {
    let conversationId = 0;
    await withWorker(async () => {
      const res = await start({ template: { name: 'boas_vindas', language: 'pt_BR', variables: ['João', 'Loja Exemplo', '#42'] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      conversationId = res.body.data.id;
      const m = await api.deps.knex('messages').where({ customerPlatformId: conversationId }).first();
      await untilDeliveryState(api, m.id, 'sent');
      expect(await sendWorkflowResult(api, m.id)).to.equal('sent');
      expect(m.text).to.equal('Olá João\n\nAqui é a Loja Exemplo. Seu pedido #42 está pronto.');
      expect(m.sender).to.equal('operator');
    });
    const cp = await api.deps.knex('customer_platforms').where({ id: conversationId }).first();
    expect(cp).to.include({ channelId: line.id, externalId: '5521998765432' });
    expect(sentTo()).to.have.length(1);
    expect(sentTo()[0].body).to.deep.include({ to: '5521998765432', type: 'template' });
    expect(sentTo()[0].body.template).to.deep.equal({
      name: 'boas_vindas',
      language: { code: 'pt_BR' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'João' }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Loja Exemplo' }, { type: 'text', text: '#42' }] },
      ],
    });
    const reply = await deliverCloudMessages(api, line, appSecret, { waId: '5521998765432', name: 'João' }, [{ type: 'text', text: { body: 'Oi!' } }]);
    expect(reply.status).to.equal(200);
    expect(await api.deps.knex('customer_platforms').where({ channelId: line.id })).to.have.length(1);
  });

  it('sends a template without variables with no components', async () => {
    await withWorker(async () => {
      const res = await start({ template: { name: 'sem_variaveis', language: 'pt_BR' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const m = await api.deps.knex('messages').where({ customerPlatformId: res.body.data.id }).first();
      await untilDeliveryState(api, m.id, 'sent');
    });
    expect(sentTo()[0].body.template).to.deep.equal({ name: 'sem_variaveis', language: { code: 'pt_BR' } });
  });

  it('refuses free text on a Cloud line with a pt-BR field error, storing and sending nothing', async () => {
    const res = await start({ content: delta('Olá, João!') });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'content', descriptions: [CLOUD_NEEDS_TEMPLATE] });
    await storedNothing();
  });

  it('refuses both text and a template, and neither', async () => {
    let res = await start({ content: delta('Oi'), template: { name: 'sem_variaveis', language: 'pt_BR' } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'template', descriptions: [ACTIVE_CHAT_NOT_BOTH] });
    res = await start({});
    expect(res.status).to.equal(400);
    expect(res.body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['content']);
    await storedNothing();
  });

  it('refuses an unknown or unapproved template, a wrong number of variables, and empty or multi-line values', async () => {
    let res = await start({ template: { name: 'rascunho', language: 'pt_BR' } });
    expect(res.body.errors[0]).to.deep.include({ key: 'template.name', descriptions: [TEMPLATE_NOT_FOUND] });
    res = await start({ template: { name: 'boas_vindas', language: 'en_US', variables: ['a', 'b', 'c'] } });
    expect(res.body.errors[0]).to.deep.include({ key: 'template.name', descriptions: [TEMPLATE_NOT_FOUND] });
    res = await start({ template: { name: 'boas_vindas', language: 'pt_BR', variables: ['João'] } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'template.variables', descriptions: ['Este modelo tem 3 variáveis; foram enviadas 1.'] });
    res = await start({ template: { name: 'boas_vindas', language: 'pt_BR', variables: ['João', ' ', 'a\nb'] } });
    expect(res.status).to.equal(400);
    const byKey = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
    expect(byKey).to.deep.equal({ 'template.variables.1': 'Preencha a variável {{1}}.', 'template.variables.2': 'Sem quebras de linha, tabulações ou mais de 4 espaços seguidos.' });
    await storedNothing();
  });

  it('lists the line for the dialog (cloud + approved templates) to any agent of the workspace, 404 elsewhere; a QR line is not cloud', async () => {
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    let res = await api.request('GET', `/api/inbox/active-chat/templates/${line.id}`, { token: agent.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.cloud).to.equal(true);
    expect(res.body.data.templates.map((t: { name: string }) => t.name)).to.deep.equal(['boas_vindas', 'sem_variaveis']);
    const other = await makeOwner(api);
    expect((await api.request('GET', `/api/inbox/active-chat/templates/${line.id}`, { token: other.owner.token })).status).to.equal(404);
    const qr = await makeChannel(api.deps.knex, ws, 'whatsapp');
    res = await api.request('GET', `/api/inbox/active-chat/templates/${qr.id}`, { token: owner.token });
    expect(res.body.data).to.deep.equal({ cloud: false, templates: [] });
  });

  it('refuses a template on a QR line (QR lines send free text) before asking WhatsApp about the number', async () => {
    const qr = await makeChannel(api.deps.knex, ws, 'whatsapp');
    const res = await start({ workspacePlatformId: qr.id, template: { name: 'sem_variaveis', language: 'pt_BR' } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'template', descriptions: [QR_HAS_NO_TEMPLATES] });
    expect(await api.deps.knex('customer_platforms').where({ channelId: qr.id })).to.have.length(0);
  });

  it("another workspace cannot start a conversation on this line (404), even with a valid template", async () => {
    const other = await makeOwner(api);
    const res = await start({ template: { name: 'sem_variaveis', language: 'pt_BR' } }, other.owner.token);
    expect(res.status).to.equal(404);
    await storedNothing();
  });
});
