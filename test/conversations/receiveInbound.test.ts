import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, inbox, sleep, subscribeCodes, waitFor } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, type TestChannel } from '../inbox/factories';

describe('receiveInbound: the shared inbound pipeline', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channel: TestChannel;

  before(async () => {
    api = await startTestApi();
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    channel = await makeChannel(api.deps.knex, ws);
  });
  after(() => api.close());

  const count = async (table: string, where: Record<string, unknown>) => Number((await api.deps.knex(table).where(where).count({ n: '*' }))[0].n);

  it('creates the contact, the conversation, a call with a protocol and the message from a first contact', async () => {
    const msg = inboundMessage(channel, { identity: { externalId: 'visitante-novo', name: 'Maria Souza', email: 'maria@exemplo.com.br', phone: '5511999990000' } });
    const result = await receiveInbound(api.deps, msg);
    expect(result.duplicate).to.equal(false);
    const knex = api.deps.knex;
    const cp = await knex('customer_platforms').where({ id: result.conversationId }).first();
    expect(cp).to.include({ workspaceId: ws.id, channelId: channel.id, externalId: 'visitante-novo', isFinished: false, hasNewMessages: true, currentCallId: result.callId });
    expect(cp.lastMessage).to.deep.include({ text: 'Olá, preciso de ajuda', type: 0, sender: 'customer' });
    const customer = await knex('customers').where({ id: cp.customerId }).first();
    expect(customer).to.include({ name: 'Maria Souza', email: 'maria@exemplo.com.br', phone: '5511999990000', workspaceId: ws.id });
    const call = await knex('calls').where({ id: result.callId }).first();
    expect(call.protocol).to.be.a('number').above(0);
    expect(call.isFinished).to.equal(false);
    expect(call.waitingSince).to.be.instanceOf(Date);
    const message = await knex('messages').where({ id: result.messageId }).first();
    expect(message).to.include({ sender: 'customer', type: 0, externalId: msg.externalId, callId: result.callId, channelId: channel.id, text: 'Olá, preciso de ajuda' });
    const event = await knex('inbound_events').where({ channelId: channel.id, externalId: msg.externalId }).first();
    expect(event.processedAt).to.be.instanceOf(Date);
  });

  it('puts the next message of the same identity in the same conversation and call', async () => {
    const identity = { externalId: 'visitante-repetido', name: 'João' };
    const first = await receiveInbound(api.deps, inboundMessage(channel, { identity }));
    const second = await receiveInbound(api.deps, inboundMessage(channel, { identity, content: [{ insert: 'Outra coisa\n' }] }));
    expect(second.conversationId).to.equal(first.conversationId);
    expect(second.callId).to.equal(first.callId);
    expect(second.messageId).to.not.equal(first.messageId);
    expect(await count('customers', { workspaceId: ws.id, name: 'João' })).to.equal(1);
  });

  it('stores one message when the same event arrives 10 times in parallel, and every call returns normally', async () => {
    const msg = inboundMessage(channel, { identity: { externalId: 'visitante-paralelo' } });
    const results = await Promise.all(Array.from({ length: 10 }, () => receiveInbound(api.deps, { ...msg })));
    expect(results.filter((r) => !r.duplicate)).to.have.length(1);
    expect(new Set(results.map((r) => r.messageId)).size).to.equal(1);
    expect(new Set(results.map((r) => r.conversationId)).size).to.equal(1);
    expect(await count('messages', { channelId: channel.id, externalId: msg.externalId })).to.equal(1);
    expect(await count('customer_platforms', { channelId: channel.id, externalId: 'visitante-paralelo' })).to.equal(1);
  });

  it('keeps one contact and one call when different first messages of a new identity race', async () => {
    const identity = { externalId: 'visitante-corrida', name: 'Corrida' };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => receiveInbound(api.deps, inboundMessage(channel, { identity, content: [{ insert: `msg ${i}\n` }] }))));
    expect(new Set(results.map((r) => r.conversationId)).size).to.equal(1);
    expect(new Set(results.map((r) => r.callId)).size).to.equal(1);
    expect(new Set(results.map((r) => r.messageId)).size).to.equal(6);
    expect(await count('customers', { workspaceId: ws.id, name: 'Corrida' })).to.equal(1);
  });

  it('answers a repeated event with what the first stored and changes nothing', async () => {
    const msg = inboundMessage(channel);
    const first = await receiveInbound(api.deps, msg);
    await api.deps.knex('customer_platforms').where({ id: first.conversationId }).update({ hasNewMessages: false });
    const again = await receiveInbound(api.deps, { ...msg, content: [{ insert: 'texto diferente\n' }] });
    expect(again).to.deep.equal({ ...first, duplicate: true });
    const cp = await api.deps.knex('customer_platforms').where({ id: first.conversationId }).first();
    expect(cp.hasNewMessages).to.equal(false);
  });

  it('reopens a resolved conversation with a new call and a new protocol on the next inbound message', async () => {
    const identity = { externalId: 'visitante-volta' };
    const first = await receiveInbound(api.deps, inboundMessage(channel, { identity }));
    const res = await api.request('POST', `/api/inbox/all/${first.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
    expect(res.status).to.equal(200);
    expect(res.body.data.isFinished).to.equal(true);
    const archived = await api.request('GET', '/api/inbox?segmentId=archived', { token: owner.token });
    expect(archived.body.data.map((c: { id: number }) => c.id)).to.include(first.conversationId);

    const second = await receiveInbound(api.deps, inboundMessage(channel, { identity }));
    expect(second.conversationId).to.equal(first.conversationId);
    expect(second.callId).to.not.equal(first.callId);
    const calls = await api.deps.knex('calls').whereIn('id', [first.callId, second.callId]).orderBy('id');
    expect(calls[0]).to.include({ isFinished: true });
    expect(calls[1]).to.include({ isFinished: false });
    expect(calls[1].protocol).to.be.above(calls[0].protocol);
    const open = await api.request('GET', '/api/inbox?segmentId=all', { token: owner.token });
    const item = open.body.data.find((c: { id: number }) => c.id === first.conversationId);
    expect(item).to.include({ isFinished: false, callId: second.callId, protocol: calls[1].protocol, hasNewMessages: true });
    const archivedAfter = await api.request('GET', '/api/inbox?segmentId=archived', { token: owner.token });
    expect(archivedAfter.body.data.map((c: { id: number }) => c.id)).to.not.include(first.conversationId);
  });

  it('publishes chat.newCall and chat.newMessage after commit to operators who may see the conversation', async () => {
    const clients = new Clients(api.url);
    try {
      const client = await clients.connect(String(owner.id), owner.token);
      const received = inbox(client);
      expect(await subscribeCodes(client, [topics.operator(ws.id, owner.id)])).to.deep.equal([1]);
      const result = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'visitante-ao-vivo', name: 'Ao Vivo' } }));
      await waitFor(() => received.find((r) => r.envelope.event === 'chat.newMessage'));
      const events = received.map((r) => r.envelope.event);
      expect(events).to.deep.equal(['chat.newCall', 'chat.newMessage']);
      const data = received[1].envelope.data as { conversation: Record<string, unknown>; message: Record<string, unknown> };
      expect(data.conversation).to.include({ id: result.conversationId, name: 'Ao Vivo', callId: result.callId, starred: false, workspacePlatformId: channel.id, platformId: 4 });
      expect(data.message).to.include({ id: result.messageId, sender: 'customer', text: 'Olá, preciso de ajuda' });

      received.length = 0;
      await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'visitante-ao-vivo' } }));
      await waitFor(() => received.find((r) => r.envelope.event === 'chat.newMessage'));
      await sleep(100);
      expect(received.map((r) => r.envelope.event)).to.deep.equal(['chat.newMessage']);
    } finally {
      await clients.endAll();
    }
  });

  it('never fails an inbound message because publishing failed', async () => {
    const failing = { ...api.deps, publisher: { publish: async () => Promise.reject(new Error('broker fora')), close: async () => {} } };
    const result = await receiveInbound(failing, inboundMessage(channel));
    expect(result.duplicate).to.equal(false);
    expect(await api.deps.knex('messages').where({ id: result.messageId }).first()).to.not.equal(undefined);
  });
});
