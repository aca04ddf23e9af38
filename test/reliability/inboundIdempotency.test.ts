import { expect } from 'chai';
import { testDatabase } from '../helpers/db';
import { testTemporalAddress } from '../helpers/temporal';
import { ChildApi } from './support/childApi';
import { Agent } from './support/agent';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { createMqttPublisher } from '../../api/realtime/mqttPublisher';
import { JWT_SECRET, MQTT_INTERNAL_PASSWORD } from './support/childApi';
import { clientMessageId, eventually, firstContact, makeTeam, sendAsVisitor, type Team } from './support/fixtures';

/** The same inbound event delivered 10 times at once (a provider's retries, a double-clicked send). */
describe('Reliability: the same inbound event posted 10 times in parallel', function () {
  this.timeout(90_000);
  let api: ChildApi;
  let team: Team;
  let agent: Agent;

  before(async () => {
    const { url } = await testDatabase();
    api = new ChildApi({ databaseUrl: url, temporalAddress: await testTemporalAddress() });
    await api.start();
  });
  after(async () => {
    await agent?.close();
    await api?.stop();
  });
  beforeEach(async () => {
    const { knex } = await testDatabase();
    team = await makeTeam(knex, api);
    await agent?.close();
    agent = new Agent(api.wsUrl, team.ws.id, team.owner.id, team.owner.token);
    await agent.ready();
  });

  it('widget message with one clientMessageId: every request answered with the same stored message, one row, one chat.newMessage', async () => {
    const { knex } = await testDatabase();
    const visitor = await firstContact(api, team);
    await eventually(async () => agent.newMessageIds().includes(visitor.messageId), 10_000, 'first contact published');
    const id = clientMessageId();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sendAsVisitor(api, team, visitor, 'mensagem repetida', id)));
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const ids = new Set(answers.map((res) => res.body.data.message.id as number));
    expect(ids.size, 'every answer names the same message').to.equal(1);
    const [messageId] = ids;

    const rows = await knex('messages').where({ channelId: team.widget.id }).whereLike('external_id', `%:${id}`);
    expect(rows.map((r) => r.id)).to.deep.equal([messageId]);
    expect(await knex('inbound_events').where({ channelId: team.widget.id }).whereLike('external_id', `%:${id}`)).to.have.length(1);

    await eventually(async () => agent.newMessageIds().includes(messageId), 10_000, 'message published');
    await new Promise((r) => setTimeout(r, 500));
    expect(agent.newMessageIds().filter((m) => m === messageId), 'published once').to.have.length(1);
  });

  it('5 widget messages each posted twice at once (10 requests together): 5 rows, each published once', async () => {
    const { knex } = await testDatabase();
    const visitor = await firstContact(api, team);
    const ids = Array.from({ length: 5 }, clientMessageId);
    // Every id posted twice at once, all 10 requests together.
    const answers = await Promise.all([...ids, ...ids].map((id, i) => sendAsVisitor(api, team, visitor, `texto ${i % 5}`, id)));
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const stored = await knex('messages').where({ channelId: team.widget.id, sender: 'customer' }).whereNot({ id: visitor.messageId }).select('id', 'external_id');
    expect(stored).to.have.length(5);
    await eventually(async () => stored.every((m) => agent.newMessageIds().includes(m.id)), 10_000, 'all published');
    await new Promise((r) => setTimeout(r, 500));
    const counts = stored.map((m) => agent.newMessageIds().filter((x) => x === m.id).length);
    expect(counts).to.deep.equal([1, 1, 1, 1, 1]);
  });

  it('a channel event for a new contact handed to receiveInbound 10 times at once: one contact, one conversation, one message, one chat.newMessage', async () => {
    const { knex } = await testDatabase();
    // A server process of its own, publishing through the api's broker like the worker does.
    const publisher = createMqttPublisher(api.wsUrl, MQTT_INTERNAL_PASSWORD);
    try {
      const config = { ...loadConfig({ DATA_DIR: api.dataDir, JWT_SECRET, MQTT_INTERNAL_PASSWORD, PORT: String(api.port) }) };
      const deps = { knex, logger: createLogger('silent'), publisher, config };
      const event = {
        workspaceId: team.ws.id,
        channelId: team.widget.id,
        externalId: `wamid.${clientMessageId()}`,
        identity: { externalId: `5511${Date.now() % 1e8}`, name: 'Maria Souza' },
        content: [{ insert: 'Oi, meu pedido não chegou\n' }],
        type: 0 as const,
      };
      const results = await Promise.all(Array.from({ length: 10 }, () => receiveInbound(deps, { ...event })));
      expect(new Set(results.map((r) => r.messageId)).size).to.equal(1);
      expect(results.filter((r) => !r.duplicate)).to.have.length(1);
      const { messageId, conversationId } = results[0];
      expect(await knex('customer_platforms').where({ channelId: team.widget.id, externalId: event.identity.externalId })).to.have.length(1);
      expect(await knex('customers').where({ workspaceId: team.ws.id, name: 'Maria Souza' })).to.have.length(1);
      expect(await knex('messages').where({ customerPlatformId: conversationId })).to.have.length(1);
      await eventually(async () => agent.newMessageIds().includes(messageId), 10_000, 'published');
      await new Promise((r) => setTimeout(r, 500));
      expect(agent.newMessageIds().filter((m) => m === messageId)).to.have.length(1);
    } finally {
      await publisher.close();
    }
  });
});
