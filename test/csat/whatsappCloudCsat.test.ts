import { expect } from 'chai';
import type { TestApi } from '../helpers/api';
import type { TestOperator } from '../helpers/factories';
import { MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { makeOwner, until, type WorkerSetup } from '../channels/helpers';
import { addCloudLine, deliverCloudMessages, startCloudApi, stopCloudApi, withQuickWorker, type CloudLine } from '../channels/whatsapp/support';
import { CSAT_DEFAULTS, csatInstructions } from '../../api/csat/schema';
import { CSAT_SKIPPED, csatSkippedNote } from '../../api/csat/requestCsat';
import { CSAT_SETTINGS_TEXTS } from '../../api/csat/settings';
import { MessageType } from '../../api/models/Message';

const HOUR = 3_600_000;

/** An approved survey template with quick replies, as Meta's Business Management API lists it. */
const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'pesquisa_satisfacao',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'NAMED',
    components: [
      { type: 'BODY', text: 'Oi {{nome}}! Como foi o seu atendimento (protocolo {{protocolo}})? Responda de 1 a 5.', example: { body_text_named_params: [{ param_name: 'nome', example: 'Maria' }, { param_name: 'protocolo', example: '123' }] } },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: '5 - Ótimo' }, { type: 'QUICK_REPLY', text: '3 - Regular' }, { type: 'QUICK_REPLY', text: '1 - Ruim' }] },
    ],
  },
];

describe('CSAT on WhatsApp Cloud: the question through the outbound path, the 24-hour window rule, a typed or tapped answer', function () {
  this.timeout(120_000);
  const graph = new MetaGraphFake();
  const appSecret = 'segredo-do-app';
  let api: TestApi;
  let worker: WorkerSetup;
  let owner: TestOperator;
  let line: CloudLine;
  let customer: { waId: string; name: string };

  before(async () => ({ api, worker } = await startCloudApi(graph, 'csat-cloud')));
  after(() => stopCloudApi(graph, api, worker));
  beforeEach(async () => {
    ({ owner } = await makeOwner(api));
    ({ line } = await addCloudLine(api, graph, owner, { appSecret, templates: TEMPLATES }));
    customer = { waId: `55119${String(Date.now()).slice(-8)}`, name: 'Maria da Silva' };
  });

  const withWorker = (fn: () => Promise<void>) => withQuickWorker(api, worker, fn);
  const settings = (body: Record<string, unknown>) => api.request('PUT', `/api/csat/channels/${line.id}`, { token: owner.token, body: { enabled: true, question: 'Como foi o atendimento?', ...body } });
  const say = (text: string) => deliverCloudMessages(api, line, appSecret, customer, [{ type: 'text', text: { body: text } }]);

  /** A conversation whose customer last wrote `ageMs` ago (an agent answered since), assigned to the owner. */
  async function conversation(ageMs = 0): Promise<number> {
    expect((await say('Olá, meu pedido não chegou')).status).to.equal(200);
    const m = await api.deps.knex('messages').where({ channelId: line.id, sender: 'customer' }).orderBy('id', 'desc').first();
    if (ageMs) await api.deps.knex('messages').where({ id: m.id }).update({ createdAt: new Date(Date.now() - ageMs) });
    await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).update({ operatorId: owner.id });
    await api.deps.knex('calls').where({ id: m.callId }).update({ operatorId: owner.id });
    return m.customerPlatformId as number;
  }
  const resolve = async (id: number) => expect((await api.request('POST', `/api/inbox/all/${id}`, { token: owner.token, body: { status: 'resolve' } })).status).to.equal(200);
  const callsOf = (id: number) => api.deps.knex('calls').where({ customerPlatformId: id }).orderBy('id');
  const sentTo = () => graph.sent.filter((s) => s.body.to === customer.waId);

  it('inside the window: the text question with how to answer goes through channel-send; a typed "5 - excelente" is stored on the call, thanked, never a new call', async () => {
    expect((await settings({})).status).to.equal(200);
    const id = await conversation();
    await withWorker(async () => {
      await resolve(id);
      const [call] = await callsOf(id);
      expect(call.csatState).to.equal('sent');
      await until(async () => sentTo().length === 1);
      expect(sentTo()[0].body).to.deep.include({ type: 'text' });
      expect((sentTo()[0].body.text as { body: string }).body).to.equal(`Como foi o atendimento?\n${csatInstructions('numbers')}`);
      const question = await api.deps.knex('messages').where({ id: call.csatMessageId }).first();
      expect(question).to.include({ type: MessageType.BOT, deliveryState: 'sent', idempotencyKey: `csat:${call.id}` });

      expect((await say('5 - excelente, resolveram rápido')).status).to.equal(200);
      const rated = await callsOf(id);
      expect(rated).to.have.length(1);
      expect(rated[0]).to.include({ csatState: 'answered', csatRating: 5, csatComment: 'excelente, resolveram rápido', isFinished: true });
      expect(await api.deps.knex('customer_platforms').where({ id }).first()).to.include({ isFinished: true, currentCallId: call.id, csatCallId: null });
      await until(async () => sentTo().length === 2);
      expect((sentTo()[1].body.text as { body: string }).body).to.equal(CSAT_DEFAULTS.thanks);
      const thanks = await api.deps.knex('messages').where({ customerPlatformId: id, idempotencyKey: `csat-thanks:${call.id}` }).first();
      expect(thanks).to.include({ callId: call.id, type: MessageType.BOT });
    });
  });

  it('outside the window with an approved template chosen: the template goes, its variables filled; a tapped quick reply answers', async () => {
    const bad = await settings({ template: { name: 'nao_existe', language: 'pt_BR' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.deep.include({ key: 'template.name', descriptions: [CSAT_SETTINGS_TEXTS.templateNotFound] });
    const blank = await settings({ template: { name: 'pesquisa_satisfacao', language: 'pt_BR', body: { nome: ' ' } } });
    expect(blank.body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['template.body.nome', 'template.body.protocolo']);
    const ok = await settings({ template: { name: 'pesquisa_satisfacao', language: 'pt_BR', body: { nome: '{{primeiro_nome}}', protocolo: '{{protocolo}}' } } });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.data).to.deep.include({ cloud: true, template: { name: 'pesquisa_satisfacao', language: 'pt_BR', header: {}, body: { nome: '{{primeiro_nome}}', protocolo: '{{protocolo}}' } } });

    const id = await conversation(30 * HOUR);
    await withWorker(async () => {
      await resolve(id);
      const [call] = await callsOf(id);
      await until(async () => sentTo().length === 1);
      const body = sentTo()[0].body as { type: string; template: { name: string; components: { parameters: { parameter_name: string; text: string }[] }[] } };
      expect(body.type).to.equal('template');
      expect(body.template.name).to.equal('pesquisa_satisfacao');
      expect(body.template.components[0].parameters).to.deep.equal([
        { type: 'text', parameter_name: 'nome', text: 'Maria' },
        { type: 'text', parameter_name: 'protocolo', text: String(call.protocol) },
      ]);
      const question = await api.deps.knex('messages').where({ id: call.csatMessageId }).first();
      expect(question.text).to.contain(`Oi Maria! Como foi o seu atendimento (protocolo ${call.protocol})?`);

      const tapped = await deliverCloudMessages(api, line, appSecret, customer, [{ type: 'button', button: { text: '3 - Regular', payload: '3 - Regular' } }]);
      expect(tapped.status).to.equal(200);
      const rated = await callsOf(id);
      expect(rated).to.have.length(1);
      expect(rated[0]).to.include({ csatRating: 3, csatComment: 'Regular' });
    });
  });

  it('outside the window with no template: nothing reaches Meta, the call keeps why, and the team sees a note saying so', async () => {
    expect((await settings({})).status).to.equal(200);
    const id = await conversation(30 * HOUR);
    await withWorker(async () => {
      await resolve(id);
      const [call] = await callsOf(id);
      expect(call).to.include({ csatState: 'skipped', csatNote: CSAT_SKIPPED.windowClosed });
      const note = await api.deps.knex('messages').where({ id: call.csatMessageId }).first();
      expect(note).to.include({ type: MessageType.SYSTEM, sender: 'system', text: csatSkippedNote(CSAT_SKIPPED.windowClosed), deliveryState: null });
      expect(await api.deps.knex('customer_platforms').where({ id }).first()).to.include({ csatCallId: null });
      // A later "5" is an ordinary message: a new call.
      expect((await say('5')).status).to.equal(200);
      expect(await callsOf(id)).to.have.length(2);
    });
    expect(sentTo()).to.have.length(0);
  });

  it('a second rating after the first is an ordinary message (only the first answer counts)', async () => {
    expect((await settings({ thanks: '' })).status).to.equal(200);
    const id = await conversation();
    await withWorker(async () => {
      await resolve(id);
      await until(async () => sentTo().length === 1);
      await say('4');
      await say('2');
      const calls = await callsOf(id);
      expect(calls).to.have.length(2);
      expect(calls[0].csatRating).to.equal(4);
      expect(calls[1].csatRating).to.equal(null);
      // No thanks configured: nothing more was sent.
      expect(sentTo()).to.have.length(1);
    });
  });
});
