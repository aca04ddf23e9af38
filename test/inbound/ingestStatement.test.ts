import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, inbox, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, makeGroup, makeLabel, type TestChannel } from '../inbox/factories';

/**
 * receiveInbound's one-statement path (api/inbound/ingestStatement.ts): what it publishes is what the inbox
 * reads back, a race it loses leaves nothing and the transaction path takes the message, and a resolve that
 * commits while it waits is seen.
 */
describe('inbound in one statement', () => {
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let grouped: TestOperator;
  let outsider: TestOperator;
  let groupId: number;
  let channel: TestChannel;

  before(async function () {
    this.timeout(60_000);
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    grouped = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    outsider = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    groupId = await makeGroup(knex, ws, [grouped.id]);
    channel = await makeChannel(knex, ws);
  });
  after(() => api.close());

  /** The statements `body` sends through the api's knex. */
  async function statementsOf(body: () => Promise<unknown>): Promise<string[]> {
    const sql: string[] = [];
    const on = (q: { sql: string }) => sql.push(q.sql);
    knex.on('query', on);
    try {
      await body();
    } finally {
      knex.removeListener('query', on);
    }
    return sql;
  }

  async function refetched(conversationId: number, messageId: number, who: TestOperator = owner) {
    const conversation = await api.request('GET', `/api/inbox/conversations/${conversationId}`, { token: who.token });
    expect(conversation.status).to.equal(200);
    const messages = await api.request('GET', `/api/inbox/messages?id=${conversationId}`, { token: who.token });
    expect(messages.status).to.equal(200);
    return { conversation: conversation.body.data, message: (messages.body.data as { id: number }[]).find((m) => m.id === messageId) };
  }

  it('publishes, from its own read, the conversation and message the inbox reads back: a first contact (chat.newCall, protocol) and a later message (tags, starred, group)', async () => {
    const clients = new Clients(api.url);
    try {
      const received = new Map<number, Received[]>();
      for (const who of [owner, grouped, outsider]) {
        const client = await clients.connect(String(who.id), who.token);
        received.set(who.id, inbox(client));
        expect(await subscribeCodes(client, [topics.operator(ws.id, who.id)])).to.deep.equal([1]);
      }
      const identity = { externalId: 'visitante-lido-de-volta', name: 'Lida de Volta', email: 'lida@exemplo.com.br' };
      let first!: Awaited<ReturnType<typeof receiveInbound>>;
      const sql = await statementsOf(async () => (first = await receiveInbound(api.deps, inboundMessage(channel, { identity }))));
      // The open-call statement finds no conversation and the first-contact statement stores it; no transaction
      // path (its event insert). Presence work of the agents who just connected may run beside it, so only these are checked.
      expect(sql.filter((q) => q.includes('"new_cp"')), sql.join('\n')).to.have.length(1);
      expect(sql.filter((q) => q.startsWith('insert into "inbound_events"')), sql.join('\n')).to.have.length(0);
      for (const who of [owner, grouped, outsider]) {
        const events = await waitFor(() => {
          const got = received.get(who.id)!;
          return got.some((r) => r.envelope.event === 'chat.newMessage') ? got : undefined;
        });
        expect(events.map((r) => r.envelope.event), `nível ${who.accessLevel}`).to.deep.equal(['chat.newCall', 'chat.newMessage']);
      }
      const newCall = received.get(owner.id)![0].envelope.data as { conversation: Record<string, unknown> };
      const newMessage = received.get(owner.id)![1].envelope.data as { conversation: Record<string, unknown>; message: Record<string, unknown> };
      const back = await refetched(first.conversationId, first.messageId);
      expect(newCall.conversation).to.deep.equal(back.conversation);
      expect(newMessage.conversation).to.deep.equal(back.conversation);
      expect(newMessage.conversation.protocol).to.be.a('number').above(0);
      expect(newMessage.message).to.deep.equal(back.message);

      // Tagged, starred by the owner, moved to the group: only the owner and the group's agent may see it now.
      const label = await makeLabel(knex, ws, 'Prioridade');
      await knex('call_labels').insert({ workspaceId: ws.id, callId: first.callId, labelId: label });
      expect((await api.request('POST', `/api/inbox/favorites/${first.conversationId}`, { token: owner.token })).status).to.equal(200);
      await knex('customer_platforms').where({ id: first.conversationId }).update({ groupId });
      for (const r of received.values()) r.length = 0;
      let second!: Awaited<ReturnType<typeof receiveInbound>>;
      const again = await statementsOf(async () => (second = await receiveInbound(api.deps, inboundMessage(channel, { identity, content: [{ insert: 'Segunda\n' }] }))));
      expect(again.filter((q) => q.startsWith('with "cp"')), again.join('\n')).to.have.length(1);
      expect(again.filter((q) => q.includes('"new_cp"') || q.startsWith('insert into "inbound_events"')), again.join('\n')).to.have.length(0);
      for (const who of [owner, grouped]) {
        const event = await waitFor(() => received.get(who.id)!.find((r) => r.envelope.event === 'chat.newMessage'));
        const data = event.envelope.data as { conversation: Record<string, unknown>; message: Record<string, unknown> };
        const seen = await refetched(second.conversationId, second.messageId, who);
        expect(data.conversation, `nível ${who.accessLevel}`).to.deep.equal(seen.conversation);
        expect(data.message).to.deep.equal(seen.message);
      }
      const ownerView = (received.get(owner.id)![0].envelope.data as { conversation: { starred: boolean; tags: { name: string }[]; groupId: number } }).conversation;
      expect(ownerView).to.deep.include({ starred: true, groupId });
      expect(ownerView.tags.map((t) => t.name)).to.deep.equal(['Prioridade']);
      // The agent outside the group is no recipient any more.
      await waitFor(() => received.get(grouped.id)!.length > 0 || undefined);
      expect(received.get(outsider.id)!.map((r) => r.envelope.event)).to.deep.equal([]);
    } finally {
      await clients.endAll();
    }
  });

  it('a resolve that commits while the message waits for the conversation lock: the message opens a new call, never lands in the finished one', async () => {
    const identity = { externalId: 'visitante-resolvido-no-meio' };
    const first = await receiveInbound(api.deps, inboundMessage(channel, { identity }));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // What the resolve command does, holding the row while the message arrives.
    const resolve = knex.transaction(async (trx) => {
      await trx('customer_platforms').where({ id: first.conversationId }).forUpdate().first('id');
      locked();
      await held;
      await trx('calls').where({ id: first.callId }).update({ isFinished: true, finishedAt: trx.fn.now() });
      await trx('customer_platforms').where({ id: first.conversationId }).update({ isFinished: true });
    });
    await isLocked;
    const arriving = receiveInbound(api.deps, inboundMessage(channel, { identity, content: [{ insert: 'Chegou durante o resolver\n' }] }));
    // The message's statement is waiting for the row (its snapshot still sees the call open).
    await waitFor(async () => {
      const { rows } = await knex.raw<{ rows: { n: number }[] }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%inbound%'",
      );
      return rows[0].n > 0 || undefined;
    });
    release();
    await resolve;
    const second = await arriving;
    expect(second.conversationId).to.equal(first.conversationId);
    expect(second.callId).to.not.equal(first.callId);
    const message = await knex('messages').where({ id: second.messageId }).first('call_id');
    expect(message.callId).to.equal(second.callId);
    expect(await knex('messages').where({ callId: first.callId }).pluck('id')).to.deep.equal([first.messageId]);
    const calls = await knex('calls').where({ customerPlatformId: first.conversationId }).orderBy('id').select('id', 'is_finished', 'protocol');
    expect(calls.map((c: { isFinished: boolean }) => c.isFinished)).to.deep.equal([true, false]);
  });

  it('a first contact that loses the conversation to another transaction: its statement aborts and leaves nothing, and the message goes into the winner’s conversation', async () => {
    const identity = { externalId: 'visitante-disputado', name: 'Disputado' };
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const isInserted = new Promise<void>((r) => (inserted = r));
    const winner = knex.transaction(async (trx) => {
      const [customer] = await trx('customers').insert({ workspaceId: ws.id, name: 'Vencedor', origin: 'visitor' }).returning('id');
      const [cp] = await trx('customer_platforms').insert({ workspaceId: ws.id, channelId: channel.id, externalId: identity.externalId, customerId: customer.id }).returning('id');
      inserted();
      await held;
      return cp.id as number;
    });
    await isInserted;
    const msg = inboundMessage(channel, { identity });
    const customersBefore = Number((await knex('customers').where({ workspaceId: ws.id }).count({ n: '*' }))[0].n);
    const arriving = receiveInbound(api.deps, msg);
    await waitFor(async () => {
      const { rows } = await knex.raw<{ rows: { n: number }[] }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%inbound%'",
      );
      return rows[0].n > 0 || undefined;
    });
    release();
    const conversationId = await winner;
    const result = await arriving;
    expect(result.conversationId).to.equal(conversationId);
    expect(await knex('customer_platforms').where({ channelId: channel.id, externalId: identity.externalId }).pluck('id')).to.deep.equal([conversationId]);
    // The statement's contact (and its sequence's ids) did not stay: only the winner's contact was added.
    expect(Number((await knex('customers').where({ workspaceId: ws.id }).count({ n: '*' }))[0].n)).to.equal(customersBefore + 1);
    expect(await knex('messages').where({ channelId: channel.id, externalId: msg.externalId }).pluck('id')).to.deep.equal([result.messageId]);
    const event = await knex('inbound_events').where({ channelId: channel.id, externalId: msg.externalId }).first('processed_at', 'attempts', 'payload');
    expect(event.attempts).to.equal(1);
    expect(event.payload.result).to.deep.equal({ conversationId, messageId: result.messageId, callId: result.callId, duplicate: false });
  });

  it('leaves to the transaction path what needs the api’s code: a webhook subscribed to message:received gets its outbox delivery', async () => {
    const other = await makeWorkspace(knex);
    const otherChannel = await makeChannel(knex, other);
    const [hook] = await knex('webhooks').insert({ workspaceId: other.id, url: 'https://exemplo.com.br/hook', secret: 'segredo-do-webhook', subscriptions: ['message:received'] }).returning('id');
    const identity = { externalId: 'visitante-com-webhook' };
    const first = await receiveInbound(api.deps, inboundMessage(otherChannel, { identity }));
    const second = await receiveInbound(api.deps, inboundMessage(otherChannel, { identity }));
    const deliveries = await knex('webhook_deliveries').where({ webhookId: hook.id }).orderBy('id').select('event', 'payload');
    expect(deliveries.map((d: { event: string }) => d.event)).to.deep.equal(['message:received', 'message:received']);
    expect(deliveries.map((d: { payload: { data: { message?: { id: number } } } }) => d.payload.data.message?.id)).to.deep.equal([first.messageId, second.messageId]);
  });

  it('a quoted reply in one statement: the quoted message of the same conversation is linked, one of another conversation is not', async () => {
    const identity = { externalId: 'visitante-que-cita' };
    const quoted = inboundMessage(channel, { identity, content: [{ insert: 'Original\n' }] });
    const first = await receiveInbound(api.deps, quoted);
    const elsewhere = inboundMessage(channel, { identity: { externalId: 'outro-visitante' }, content: [{ insert: 'De outra conversa\n' }] });
    await receiveInbound(api.deps, elsewhere);
    let reply!: Awaited<ReturnType<typeof receiveInbound>>;
    const sql = await statementsOf(async () => (reply = await receiveInbound(api.deps, inboundMessage(channel, { identity, replyToExternalId: quoted.externalId }))));
    expect(sql.filter((q) => q.startsWith('insert into "inbound_events"')), 'no transaction path').to.have.length(0);
    expect(await knex('messages').where({ id: reply.messageId }).first('reply_to_id')).to.deep.equal({ replyToId: first.messageId });
    const back = await refetched(reply.conversationId, reply.messageId);
    expect((back.message as unknown as { replyTo: { id: number; text: string } }).replyTo).to.include({ id: first.messageId, text: 'Original' });
    const across = await receiveInbound(api.deps, inboundMessage(channel, { identity, replyToExternalId: elsewhere.externalId }));
    expect(await knex('messages').where({ id: across.messageId }).first('reply_to_id')).to.deep.equal({ replyToId: null });
  });
});
