import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { firstContact, makeWidget, type TestVisitor, type TestWidget } from '../widget/helpers';
import { act, makeBot, path } from '../bots/support';
import { CSAT_DEFAULTS, CSAT_MESSAGES } from '../../api/csat/schema';
import { CSAT_WIDGET_TEXTS } from '../../api/csat/widgetAnswer';
import { MessageType } from '../../api/models/Message';

const DAY = 86_400_000;

describe('CSAT on the website widget: the question after Resolver, the answer stored on the call, never a new call nor a bot message', function () {
  this.timeout(60_000);
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  let widget: TestWidget;
  let visitor: TestVisitor;

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('csat-widget') });
  });
  after(() => api?.close());
  beforeEach(async () => {
    // Every test starts visitors from the same address: the first-contact limits start over.
    await api.deps.rateLimiter.reset();
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    widget = await makeWidget(api, owner);
    visitor = await firstContact(api, widget, 'Olá, quero trocar um produto');
  });

  const enable = async (body: Record<string, unknown> = {}) => {
    const res = await api.request('PUT', `/api/csat/channels/${widget.id}`, { token: owner.token, body: { enabled: true, question: 'De 1 a 5, como foi o atendimento?', ...body } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };
  const resolve = async (id = visitor.conversationId) => {
    const res = await api.request('POST', `/api/inbox/all/${id}`, { token: owner.token, body: { status: 'resolve' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const conversation = () => api.deps.knex('customer_platforms').where({ id: visitor.conversationId }).first();
  const calls = () => api.deps.knex('calls').where({ customerPlatformId: visitor.conversationId }).orderBy('id');
  const answer = (body: Record<string, unknown>, token = visitor.token) => api.request('POST', '/api/v1/widget/csat', { token, body });
  const say = (text: string) => api.request('POST', '/api/v1/widget/messages', { token: visitor.token, body: { content: text, type: 'text', identifier: widget.identifier } });
  const widgetMessages = async () => (await api.request('GET', '/api/v1/widget/messages', { token: visitor.token })).body.data as { id: number; content: { insert: string }[]; csat?: Record<string, unknown> }[];

  describe('settings', () => {
    it('is off by default; level 6+ turns it on with its own question; agents are refused; bad input names every field in pt-BR', async () => {
      const read = await api.request('GET', `/api/csat/channels/${widget.id}`, { token: owner.token });
      expect(read.body.data).to.deep.include({ channelId: widget.id, channelType: 'widget', enabled: false, scale: 'numbers', question: CSAT_DEFAULTS.question, thanks: CSAT_DEFAULTS.thanks, template: null, cloud: false });
      expect((await api.request('PUT', `/api/csat/channels/${widget.id}`, { token: agent.token, body: { enabled: true, question: 'Oi?' } })).status).to.equal(403);
      const bad = await api.request('PUT', `/api/csat/channels/${widget.id}`, { token: owner.token, body: { enabled: 'sim', scale: 'estrelas', question: ' ', thanks: 'x'.repeat(301) } });
      expect(bad.status).to.equal(400);
      const keys = Object.fromEntries(bad.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
      expect(keys).to.deep.equal({ enabled: CSAT_MESSAGES.enabled, scale: CSAT_MESSAGES.scale, question: CSAT_MESSAGES.question, thanks: CSAT_MESSAGES.thanksLong });
      const template = await api.request('PUT', `/api/csat/channels/${widget.id}`, { token: owner.token, body: { enabled: true, question: 'Nota?', template: { name: 'pesquisa', language: 'pt_BR' } } });
      expect(template.status).to.equal(400);
      expect(template.body.errors[0]).to.include({ key: 'template' });
      const saved = await enable({ scale: 'emojis' });
      expect(saved).to.include({ enabled: true, scale: 'emojis', question: 'De 1 a 5, como foi o atendimento?' });
      expect((await api.request('GET', `/api/csat/channels/${widget.id}`, { token: owner.token })).body.data).to.include({ enabled: true, scale: 'emojis' });
    });

    it('another workspace’s channel is a 404, read or written', async () => {
      const other = await makeWorkspace(api.deps.knex);
      const stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
      expect((await api.request('GET', `/api/csat/channels/${widget.id}`, { token: stranger.token })).status).to.equal(404);
      expect((await api.request('PUT', `/api/csat/channels/${widget.id}`, { token: stranger.token, body: { enabled: true, question: 'x' } })).status).to.equal(404);
      expect((await conversation()).csatCallId).to.equal(null);
    });

    it('off: Resolver asks nothing', async () => {
      await resolve();
      expect((await calls())[0]).to.include({ csatState: null, csatMessageId: null });
      expect(await api.deps.knex('messages').where({ customerPlatformId: visitor.conversationId, type: MessageType.BOT })).to.have.length(0);
    });
  });

  describe('the question and the answer', () => {
    beforeEach(() => enable());

    it('Resolver stores the question in the finished call and the visitor reads it with its rating buttons', async () => {
      await resolve();
      const [call] = await calls();
      expect(call).to.include({ isFinished: true, csatState: 'sent' });
      const question = await api.deps.knex('messages').where({ id: call.csatMessageId }).first();
      expect(question).to.include({ type: MessageType.BOT, sender: 'bot', callId: call.id, text: 'De 1 a 5, como foi o atendimento?\n', idempotencyKey: `csat:${call.id}` });
      expect(question.status).to.equal(2);
      expect((await conversation())).to.include({ isFinished: true, csatCallId: call.id });
      const shown = (await widgetMessages()).find((m) => m.id === call.csatMessageId);
      expect(shown?.csat).to.include({ state: 'pending', scale: 'numbers', rating: null, thanks: CSAT_DEFAULTS.thanks });
    });

    it('the buttons’ answer is stored on the call with its comment; the conversation stays resolved, no call opens, the question shows the rating; a second answer is refused', async () => {
      await resolve();
      const [call] = await calls();
      const res = await answer({ rating: 4, comment: '  Rápido, mas faltou o prazo de entrega. ', messageId: call.csatMessageId });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.include({ messageId: call.csatMessageId });
      expect(res.body.data.csat).to.include({ state: 'answered', rating: 4, comment: 'Rápido, mas faltou o prazo de entrega.' });
      const after = await calls();
      expect(after).to.have.length(1);
      expect(after[0]).to.include({ csatState: 'answered', csatRating: 4, csatComment: 'Rápido, mas faltou o prazo de entrega.', isFinished: true });
      expect(after[0].csatAnsweredAt).to.be.instanceOf(Date);
      expect(await conversation()).to.include({ isFinished: true, csatCallId: null, currentCallId: call.id });
      expect((await widgetMessages()).find((m) => m.id === call.csatMessageId)?.csat).to.include({ state: 'answered', rating: 4 });

      const again = await answer({ rating: 1 });
      expect(again.status).to.equal(409);
      expect(again.body.errors[0].descriptions).to.deep.equal([CSAT_WIDGET_TEXTS.answered]);
      expect((await calls())[0].csatRating).to.equal(4);
    });

    it('an out-of-range or malformed rating is a 400 in pt-BR and stores nothing', async () => {
      await resolve();
      for (const rating of [0, 6, 3.5, '5']) {
        const res = await answer({ rating });
        expect(res.status).to.equal(400);
        expect(res.body.errors[0]).to.deep.include({ key: 'rating', descriptions: [CSAT_MESSAGES.rating] });
      }
      const long = await answer({ rating: 5, comment: 'x'.repeat(1001) });
      expect(long.body.errors[0]).to.deep.include({ key: 'comment', descriptions: [CSAT_MESSAGES.comment] });
      expect((await calls())[0]).to.include({ csatState: 'sent', csatRating: null });
    });

    it('a visitor with no question to answer gets a 404; another visitor cannot answer this one’s question', async () => {
      expect((await answer({ rating: 5 })).status).to.equal(404);
      await resolve();
      const other = await firstContact(api, widget, 'Outra pessoa');
      expect((await answer({ rating: 1 }, other.token)).status).to.equal(404);
      expect((await calls())[0].csatRating).to.equal(null);
    });

    it('a typed rating ("5 muito bom") answers too: stored as the customer’s message in the resolved call, never a new call', async () => {
      await resolve();
      const [call] = await calls();
      const res = await say('5 muito bom, obrigado!');
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const after = await calls();
      expect(after).to.have.length(1);
      expect(after[0]).to.include({ csatRating: 5, csatComment: 'muito bom, obrigado!' });
      const stored = await api.deps.knex('messages').where({ id: res.body.data.message.id }).first();
      expect(stored).to.include({ callId: call.id, sender: 'customer' });
      expect(stored.extraData.csat).to.include({ kind: 'answer', rating: 5 });
      expect(await conversation()).to.include({ isFinished: true, currentCallId: call.id });
    });

    it('never reaches a bot: with a bot on the channel, the answer starts no session; the next ordinary message does', async () => {
      await makeBot(api.deps.knex, ws, { channels: [widget.id], paths: [path('Início', [act.message('Olá! Sou o bot.')])] });
      await resolve();
      await say('3');
      expect(await api.deps.knex('bot_sessions').where({ customerPlatformId: visitor.conversationId })).to.have.length(0);
      expect((await calls())[0].csatRating).to.equal(3);
      await say('Preciso de outra coisa');
      const after = await calls();
      expect(after).to.have.length(2);
      expect(await api.deps.knex('bot_sessions').where({ customerPlatformId: visitor.conversationId, callId: after[1].id })).to.have.length(1);
    });

    it('a message that is no rating opens a new call as usual and ends the question: a later rating is an ordinary message, the buttons are refused', async () => {
      await resolve();
      const [call] = await calls();
      await say('Obrigado!');
      let after = await calls();
      expect(after).to.have.length(2);
      expect(await conversation()).to.include({ isFinished: false, currentCallId: after[1].id });
      await say('5');
      after = await calls();
      expect(after).to.have.length(2);
      expect(after[0]).to.include({ id: call.id, csatState: 'sent', csatRating: null });
      const late = await answer({ rating: 5, messageId: call.csatMessageId });
      expect(late.status).to.equal(409);
      expect(late.body.errors[0].descriptions).to.deep.equal([CSAT_WIDGET_TEXTS.closed]);
    });

    it(`a late answer (after ${7} days) is no answer: the typed digit opens a new call, the buttons say the time is over`, async () => {
      await resolve();
      const [call] = await calls();
      await api.deps.knex('customer_platforms').where({ id: visitor.conversationId }).update({ csatUntil: new Date(Date.now() - 1000) });
      await api.deps.knex('messages').where({ id: call.csatMessageId }).update({ extraData: api.deps.knex.raw("jsonb_set(extra_data, '{csat,until}', to_jsonb(?::text))", [new Date(Date.now() - DAY).toISOString()]) });
      expect((await widgetMessages()).find((m) => m.id === call.csatMessageId)?.csat).to.include({ state: 'expired' });
      const res = await answer({ rating: 5 });
      expect(res.status).to.equal(409);
      expect(res.body.errors[0].descriptions).to.deep.equal([CSAT_WIDGET_TEXTS.closed]);
      await say('5');
      const after = await calls();
      expect(after).to.have.length(2);
      expect(after[0]).to.include({ csatState: 'sent', csatRating: null });
    });

    it('Reabrir ends the question too', async () => {
      await resolve();
      const open = await api.request('POST', `/api/inbox/all/${visitor.conversationId}`, { token: owner.token, body: { status: 'open' } });
      expect(open.status).to.equal(200);
      await resolve();
      const [first, second] = await calls();
      expect(second.csatState).to.equal('sent');
      const res = await answer({ rating: 2, messageId: first.csatMessageId });
      expect(res.status).to.equal(409);
      expect((await answer({ rating: 2 })).status).to.equal(200);
      expect((await calls()).map((c) => c.csatRating)).to.deep.equal([null, 2]);
    });

    it('records csat:received for the workspace’s subscribed webhook, in the answer’s transaction', async () => {
      const saved = await api.request('PUT', '/api/webhook', { token: owner.token, body: { webhook: 'hooks.example.test/balcao', subscriptions: { 'csat:received': true } } });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      expect(saved.body.data.subscriptions).to.include({ 'csat:received': true });
      await resolve();
      const [call] = await calls();
      await answer({ rating: 5, comment: 'Ótimo' });
      const [delivery] = await api.deps.knex('webhook_deliveries').where({ workspaceId: ws.id, event: 'csat:received' });
      expect(delivery, 'a delivery row').to.not.equal(undefined);
      expect(delivery.payload).to.deep.include({ type: 'csat:received', workspaceId: ws.id });
      expect(delivery.payload.data).to.deep.include({ conversationId: visitor.conversationId, channelId: widget.id, rating: 5, comment: 'Ótimo' });
      expect(delivery.payload.data.call).to.include({ id: call.id, protocol: call.protocol });
      expect(await api.deps.knex('webhook_deliveries').where({ workspaceId: ws.id, event: 'message:received' })).to.have.length(0);
    });
  });
});
