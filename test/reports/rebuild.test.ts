import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { delta, inboundMessage, makeChannel, type TestChannel } from '../inbox/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { sendMessage } from '../../api/inbox/sendMessage';
import { loadViewer } from '../../api/policy/conversations';
import { rebuildReports } from '../../api/reports/rebuild';
import { MessageType } from '../../api/models/Message';
import { makeBot } from './clock';

/** The backfill recomputes from messages what the triggers recorded live: the same facts and daily rows. */
describe('reports: rebuildReports (backfill of history)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let widget: TestChannel;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    widget = await makeChannel(knex, ws, 'widget');
  });
  after(async () => {
    await api.close();
  });

  const facts = async () =>
    (
      await knex('report_facts')
        .where({ workspaceId: ws.id })
        .select('call_id', 'kind', 'at', 'day', 'ms', 'operator_id', 'group_id', 'channel_id')
    )
      .map((r) => JSON.stringify(r))
      .sort();
  // The daily rows and their two rollups.
  const daily = async () =>
    (
      await Promise.all(
        ['report_daily', 'report_daily_agent', 'report_daily_total'].map(async (table) => (await knex(table).where({ workspaceId: ws.id }).select('*')).map((r) => `${table} ${JSON.stringify(r)}`)),
      )
    )
      .flat()
      .sort();

  it('gives the same facts and daily rows as the live triggers for bursts, private notes, a bot hand-off and a resolve', async () => {
    const viewer = await loadViewer(knex, { workspaceId: ws.id, operatorId: owner.id, accessLevel: 10 });
    const at = (min: number) => new Date(Date.now() - (120 - min) * 60_000);
    const visitor = 'rebuild-visitor';
    const say = (min: number) => receiveInbound(api.deps, inboundMessage(widget, { identity: { externalId: visitor, name: 'Lia' }, sentAt: at(min) }));
    const reply = (id: number, min: number, type: 0 | 2 = MessageType.COMMON) => sendMessage(api.deps, viewer, { id, type, content: delta('resposta') }, at(min));

    const first = await say(0);
    await say(1);
    await reply(first.conversationId, 3, MessageType.PRIVATE);
    await reply(first.conversationId, 5);
    await say(10);
    await say(11);
    await reply(first.conversationId, 14);
    await reply(first.conversationId, 15);
    const resolved = await api.request('POST', `/api/inbox/all/${first.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
    expect(resolved.status).to.equal(200);

    // A second conversation held by a bot, handed off, answered.
    const second = await receiveInbound(api.deps, inboundMessage(widget, { identity: { externalId: 'rebuild-bot', name: 'Rui' }, sentAt: at(20) }));
    const bot = await makeBot(knex, ws.id);
    const [session] = await knex('bot_sessions')
      .insert({ workspaceId: ws.id, customerPlatformId: second.conversationId, botId: bot, callId: second.callId, workflowId: `bot-session:${second.conversationId}`, status: 'active' })
      .returning('id');
    await knex('bot_sessions').where({ id: session.id }).update({ status: 'transferred', finishedAt: at(30) });
    await sendMessage(api.deps, viewer, { id: second.conversationId, type: MessageType.COMMON, content: delta('oi') }, at(33));

    const liveFacts = await facts();
    const liveDaily = await daily();
    expect(liveFacts.length).to.be.greaterThan(8);
    const { facts: n } = await rebuildReports(knex, ws.id);
    expect(n).to.equal(liveFacts.length);
    expect(await facts()).to.deep.equal(liveFacts);
    expect(liveDaily.filter((r) => r.startsWith('report_daily_total '))).to.have.length.at.least(1);
    expect(await daily()).to.deep.equal(liveDaily);
  });

  it('backfills a workspace whose history has no facts yet', async () => {
    await knex('report_facts').where({ workspaceId: ws.id }).delete();
    await knex('report_daily').where({ workspaceId: ws.id }).delete();
    await rebuildReports(knex, ws.id);
    const res = await api.request('GET', '/api/report', { token: owner.token });
    expect(res.body.data.summary.newConversations).to.equal(2);
    expect(res.body.data.summary.resolvedConversations).to.equal(1);
  });
});
