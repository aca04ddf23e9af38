import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { Clients, inbox, subscribeCodes, waitFor } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { poolWaiters } from '../../api/db/poolState';
import { WIDGET_SHED_IN_FLIGHT, WIDGET_SHED_POOL_WAITERS, widgetMessagesInFlight } from '../../api/channels/widget/shed';
import { createVisitor } from '../../api/auth/visitorSessions';
import { firstContact, makeWidget, type TestWidget } from './helpers';

/**
 * A widget message in few round trips (docs/performance.md "Ingest"; their count is held by
 * test/perf/roundTrips.test.ts): what the message's one statement publishes, and the refusal under overload.
 */
describe('widget ingest: statements per message', () => {
  let api: TestApi;
  let owner: TestOperator;
  let widget: TestWidget;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    widget = await makeWidget(api, owner);
  });
  beforeEach(() => api.deps.rateLimiter.reset());
  after(() => api.close());

  const send = (content: string, token?: string) =>
    api.request('POST', '/api/v1/widget/messages', { body: { content, type: 'text', identifier: widget.identifier }, token });

  it('publishes, from the message statement\'s own read, the conversation an inbox refetch shows (starred, preview)', async () => {
    const visitor = await firstContact(api, widget, 'Primeira');
    const res = await api.request('POST', `/api/inbox/favorites/${visitor.conversationId}`, { token: owner.token });
    expect(res.status).to.equal(200);
    const clients = new Clients(api.url);
    try {
      const client = await clients.connect(String(owner.id), owner.token);
      const received = inbox(client);
      expect(await subscribeCodes(client, [topics.operator(owner.workspaceId, owner.id)])).to.deep.equal([1]);
      expect((await send('Segunda mensagem', visitor.token)).status).to.equal(201);
      const event = await waitFor(() => received.find((r) => r.envelope.event === 'chat.newMessage'));
      const data = event.envelope.data as { conversation: Record<string, unknown>; message: Record<string, unknown> };
      const refetched = await api.request('GET', `/api/inbox/conversations/${visitor.conversationId}`, { token: owner.token });
      expect(data.conversation).to.deep.equal(refetched.body.data);
      expect(data.conversation).to.include({ starred: true, hasNewMessages: true, isFinished: false });
      expect((data.conversation.lastMessage as { text: string }).text).to.equal('Segunda mensagem');
    } finally {
      await clients.endAll();
    }
  });

  it('over capacity (the pool\'s queue past its bound) a message is refused at once with 503 and Retry-After, and taken again once the queue drains', async () => {
    const visitor = await firstContact(api, widget, 'Antes da fila');
    const knex = api.deps.knex;
    const max = (knex.client as { pool: { max: number } }).pool.max;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Every connection held, then a queue of plain queries behind them: what an overload looks like to the pool.
    let holding = 0;
    const holders = Array.from({ length: max }, () =>
      knex.transaction(async (trx) => {
        await trx.raw('select 1');
        holding++;
        await gate;
      }),
    );
    const queued: Promise<unknown>[] = [];
    try {
      for (const until = Date.now() + 15_000; holding < max && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      expect(holding, 'every connection held').to.equal(max);
      // A knex query runs once it is awaited (then): these wait for a connection.
      for (let i = 0; i < WIDGET_SHED_POOL_WAITERS; i++) queued.push(knex.raw('select 1').then(() => undefined));
      for (const until = Date.now() + 15_000; poolWaiters(knex) < WIDGET_SHED_POOL_WAITERS && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      expect(poolWaiters(knex)).to.be.at.least(WIDGET_SHED_POOL_WAITERS);
      // Answered while every connection is still held: it never waited for the pool.
      const refused = await send('Na fila cheia', visitor.token);
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(refused.headers.get('access-control-allow-origin'), 'the widget on any site can read the refusal').to.equal('*');
      expect(refused.body).to.deep.equal({
        errors: [{ type: 'ServiceUnavailableError', title: 'Serviço indisponível', descriptions: ['Muitas mensagens chegando agora. Tente novamente em instantes.'] }],
      });
    } finally {
      release();
      await Promise.all([...holders, ...queued]);
    }
    expect(poolWaiters(knex)).to.equal(0);
    expect((await send('Depois da fila', visitor.token)).status).to.equal(201);
    const texts = await knex('messages').where({ customerPlatformId: visitor.conversationId }).pluck('text');
    expect(texts).to.include('Depois da fila').and.not.include('Na fila cheia');
  });

  it(`with ${WIDGET_SHED_IN_FLIGHT} messages in flight (each holding no pool connection, the pool's queue short) the next is refused at once with 503, and the ${WIDGET_SHED_IN_FLIGHT} are all taken once the database answers`, async () => {
    const knex = api.deps.knex;
    const max = (knex.client as { pool: { max: number } }).pool.max;
    const tokens = await Promise.all(Array.from({ length: WIDGET_SHED_IN_FLIGHT + 1 }, () => createVisitor(knex, { workspaceId: widget.workspaceId, id: widget.id }).then((v) => v.token)));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let holding = 0;
    const holders = Array.from({ length: max }, () =>
      knex.transaction(async (trx) => {
        await trx.raw('select 1');
        holding++;
        await gate;
      }),
    );
    let pending: Promise<{ status: number }>[] = [];
    try {
      for (const until = Date.now() + 15_000; holding < max && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      expect(holding, 'every connection held').to.equal(max);
      pending = tokens.slice(0, WIDGET_SHED_IN_FLIGHT).map((token, i) => send(`Em voo ${i}`, token));
      for (const until = Date.now() + 30_000; widgetMessagesInFlight(knex) < WIDGET_SHED_IN_FLIGHT && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      expect(widgetMessagesInFlight(knex)).to.equal(WIDGET_SHED_IN_FLIGHT);
      // Their token lookups wait together for one statement: the pool's queue is far from its own bound.
      expect(poolWaiters(knex)).to.be.below(WIDGET_SHED_POOL_WAITERS);
      const refused = await send('Uma a mais', tokens[WIDGET_SHED_IN_FLIGHT]);
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
    } finally {
      release();
      await Promise.all(holders);
    }
    expect((await Promise.all(pending)).map((r) => r.status)).to.deep.equal(Array(WIDGET_SHED_IN_FLIGHT).fill(201));
    expect(widgetMessagesInFlight(knex)).to.equal(0);
    expect((await send('Agora sim', tokens[WIDGET_SHED_IN_FLIGHT])).status).to.equal(201);
  });
});
