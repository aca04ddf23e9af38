import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import { makeOperator, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { MetaGraphFake, type GraphTemplateRecord } from '../../fakes/metaGraph';
import { makeOwner, sendWorkflowResult, untilDeliveryState, type WorkerSetup } from '../helpers';
import { addCloudLine, deliverCloudMessages, startCloudApi, stopCloudApi, withQuickWorker, type CloudLine } from './support';
import { toTemplate } from '../../../api/channels/whatsapp/templates';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Templates as Meta's Business Management API lists them (docs: "Template management", "Get templates"). */
const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'pedido_enviado',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['#123'] } },
      { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.', example: { body_text: [['Maria', 'São Paulo']] } },
      { type: 'FOOTER', text: 'Loja Exemplo' },
    ],
  },
  {
    name: 'lembrete',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'MARKETING',
    parameter_format: 'NAMED',
    components: [{ type: 'BODY', text: 'Oi {{nome}}! Ainda podemos ajudar?', example: { body_text_named_params: [{ param_name: 'nome', example: 'Maria' }] } }],
  },
  {
    name: 'promo_imagem',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.whatsapp.net/v/x'] } },
      { type: 'BODY', text: 'Novidades da semana.' },
    ],
  },
  { name: 'rascunho', language: 'pt_BR', status: 'PENDING', category: 'UTILITY', components: [{ type: 'BODY', text: 'Ainda não aprovado' }] },
  { name: 'recusado', language: 'en_US', status: 'REJECTED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Rejected' }] },
];

describe('WhatsApp Cloud templates outside the 24-hour window', function () {
  this.timeout(90_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let line: CloudLine;
  let token: string;
  const appSecret = 'segredo-do-app';
  const customer = { waId: '5511987654321', name: 'Maria Cliente' };

  before(async () => ({ api, worker } = await startCloudApi(graph, 'wa-templates')));
  after(() => stopCloudApi(graph, api, worker));
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    ({ line, token } = await addCloudLine(api, graph, owner, { appSecret, templates: TEMPLATES }));
  });

  const withWorker = (fn: () => Promise<void>) => withQuickWorker(api, worker, fn);

  /** A conversation whose customer last wrote `ageMs` ago. */
  async function conversation(ageMs = 0): Promise<number> {
    const res = await deliverCloudMessages(api, line, appSecret, customer, [{ type: 'text', text: { body: 'Olá' } }]);
    expect(res.status).to.equal(200);
    const m = await api.deps.knex('messages').where({ channelId: line.id, sender: 'customer' }).first();
    if (ageMs) await api.deps.knex('messages').where({ id: m.id }).update({ createdAt: new Date(Date.now() - ageMs) });
    return m.customerPlatformId as number;
  }

  describe('listing', () => {
    it("lists only the line's APPROVED templates with their variables and examples, asking Graph for APPROVED", async () => {
      const res = await api.request('GET', `/api/integrations/whatsapp/${line.id}/templates`, { token: owner.token });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const names = res.body.data.map((t: { name: string }) => t.name);
      expect(names).to.deep.equal(['lembrete', 'pedido_enviado', 'promo_imagem']);
      const pedido = res.body.data.find((t: { name: string }) => t.name === 'pedido_enviado');
      expect(pedido).to.deep.include({ language: 'pt_BR', header: 'Pedido {{1}}', body: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.', footer: 'Loja Exemplo', parameterFormat: 'POSITIONAL', supported: true });
      expect(pedido.bodyVariables).to.deep.equal([{ name: '1', example: 'Maria' }, { name: '2', example: 'São Paulo' }]);
      expect(pedido.headerVariables).to.deep.equal([{ name: '1', example: '#123' }]);
      const lembrete = res.body.data.find((t: { name: string }) => t.name === 'lembrete');
      expect(lembrete).to.deep.include({ parameterFormat: 'NAMED', bodyVariables: [{ name: 'nome', example: 'Maria' }] });
      const promo = res.body.data.find((t: { name: string }) => t.name === 'promo_imagem');
      expect(promo.supported).to.equal(false);
      expect(promo.unsupportedReason).to.include('mídia');
      expect(graph.templateQueries[0].get('status')).to.equal('APPROVED');
    });

    it('follows the paging cursor until the last page', async () => {
      const many: GraphTemplateRecord[] = Array.from({ length: 230 }, (_, i) => ({ name: `modelo_${String(i).padStart(3, '0')}`, language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Oi' }] }));
      graph.templates.set(line.businessAccountId, many);
      const res = await api.request('GET', `/api/integrations/whatsapp/${line.id}/templates`, { token: owner.token });
      expect(res.body.data).to.have.length(230);
      expect(graph.templateQueries).to.have.length(3);
    });

    it("another workspace's line is a 404 and an agent below level 6 cannot list a line's templates", async () => {
      const other = await makeOwner(api);
      expect((await api.request('GET', `/api/integrations/whatsapp/${line.id}/templates`, { token: other.owner.token })).status).to.equal(404);
      const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      expect((await api.request('GET', `/api/integrations/whatsapp/${line.id}/templates`, { token: agent.token })).status).to.equal(403);
    });

    it('a revoked token answers a pt-BR error and marks the line disconnected', async () => {
      graph.revokeToken(token);
      const res = await api.request('GET', `/api/integrations/whatsapp/${line.id}/templates`, { token: owner.token });
      expect(res.status).to.equal(503);
      expect(res.body.errors[0].descriptions[0]).to.include('token de acesso');
      expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');
    });
  });

  describe('the window', () => {
    it('is open within 24 h of the customer’s last message and closed after, with when it closes', async () => {
      const id = await conversation(DAY_MS - 60_000);
      let res = await api.request('GET', `/api/inbox/whatsapp-window/${id}`, { token: owner.token });
      expect(res.body.data).to.include({ cloud: true, open: true });
      expect(new Date(res.body.data.closesAt).getTime()).to.be.closeTo(Date.now() + 60_000, 5_000);
      await api.deps.knex('messages').where({ customerPlatformId: id, sender: 'customer' }).update({ createdAt: new Date(Date.now() - DAY_MS - 1000) });
      res = await api.request('GET', `/api/inbox/whatsapp-window/${id}`, { token: owner.token });
      expect(res.body.data).to.include({ cloud: true, open: false });
    });

    it("another workspace's conversation is a 404", async () => {
      const id = await conversation();
      const other = await makeOwner(api);
      expect((await api.request('GET', `/api/inbox/whatsapp-window/${id}`, { token: other.owner.token })).status).to.equal(404);
      expect((await api.request('GET', `/api/inbox/whatsapp-templates/${id}`, { token: other.owner.token })).status).to.equal(404);
    });
  });

  describe('sending a template', () => {
    it('goes out as type template with its parameters through the delivery path, stored with the filled text', async () => {
      const id = await conversation(2 * DAY_MS);
      let messageId = 0;
      await withWorker(async () => {
        const res = await api.request('POST', '/api/inbox/whatsapp-template', {
          token: owner.token,
          body: { id, name: 'pedido_enviado', language: 'pt_BR', header: { '1': '#987' }, body: { '1': 'Maria', '2': 'Campinas' } },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        messageId = res.body.data.id;
        await untilDeliveryState(api, messageId, 'sent');
        expect(await sendWorkflowResult(api, messageId)).to.equal('sent');
      });
      expect(graph.sent).to.have.length(1);
      expect(graph.sent[0].body).to.deep.include({ to: customer.waId, type: 'template' });
      expect(graph.sent[0].body.template).to.deep.equal({
        name: 'pedido_enviado',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '#987' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Maria' }, { type: 'text', text: 'Campinas' }] },
        ],
      });
      const row = await api.deps.knex('messages').where({ id: messageId }).first();
      expect(row.text).to.equal('Pedido #987\n\nOlá Maria, seu pedido saiu para entrega em Campinas.\n\nLoja Exemplo');
      expect(row.externalId).to.equal(graph.sent[0].id);
    });

    it('names the parameters of a NAMED template', async () => {
      const id = await conversation(2 * DAY_MS);
      await withWorker(async () => {
        const res = await api.request('POST', '/api/inbox/whatsapp-template', { token: owner.token, body: { id, name: 'lembrete', language: 'pt_BR', body: { nome: 'Maria' } } });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        await untilDeliveryState(api, res.body.data.id, 'sent');
      });
      expect(graph.sent[0].body.template).to.deep.equal({ name: 'lembrete', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'nome', text: 'Maria' }] }] });
    });

    it('refuses empty or multi-line variables, unknown and unapproved templates and media-header ones, storing nothing', async () => {
      const id = await conversation(2 * DAY_MS);
      const post = (body: Record<string, unknown>) => api.request('POST', '/api/inbox/whatsapp-template', { token: owner.token, body: { id, language: 'pt_BR', ...body } });
      let res = await post({ name: 'pedido_enviado', header: { '1': '' }, body: { '1': 'Maria\nSilva' } });
      expect(res.status).to.equal(400);
      const byKey = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
      expect(byKey).to.deep.equal({ 'header.1': 'Preencha a variável {{1}}.', 'body.1': 'Sem quebras de linha, tabulações ou mais de 4 espaços seguidos.', 'body.2': 'Preencha a variável {{2}}.' });
      res = await post({ name: 'rascunho' });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.include({ key: 'name' });
      res = await post({ name: 'promo_imagem' });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0].descriptions[0]).to.include('mídia');
      expect(await api.deps.knex('messages').where({ customerPlatformId: id, sender: 'operator' })).to.have.length(0);
    });
  });

  it('reads Meta template entries without a body or name as nothing (toTemplate)', () => {
    expect(toTemplate({ name: 'x', language: 'pt_BR', components: [{ type: 'HEADER', format: 'TEXT', text: 'Oi' }] })).to.equal(undefined);
    expect(toTemplate({ language: 'pt_BR', components: [{ type: 'BODY', text: 'Oi' }] })).to.equal(undefined);
  });
});
