import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, closed, sleep } from '../realtime/mqttClients';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, makeGroup } from '../inbox/factories';

describe('presence from the realtime broker: online while a session is connected', () => {
  let api: TestApi;
  let clients: Clients;
  let ws: TestWorkspace;
  let agent: TestOperator;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
    ws = await makeWorkspace(api.deps.knex);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
  });
  after(async () => {
    await clients.endAll();
    await api.close();
  });

  /** Polls an async probe until it holds (the broker updates presence after the session is set up). */
  async function eventually(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > until) throw new Error(`timed out waiting (${timeoutMs} ms) for ${probe.toString()}`);
      await sleep(25);
    }
  }
  const assignee = async (id: number) => (await api.deps.knex('customer_platforms').where({ id }).first('operator_id')).operatorId as number | null;
  const isOnline = async () => (await api.deps.knex('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).first('is_online')).isOnline as boolean;

  it('goes online on the first connection, stays online while another tab is open, and offline after the last', async () => {
    const groupId = await makeGroup(api.deps.knex, ws, [agent.id]);
    const channel = await makeChannel(api.deps.knex, ws);
    await api.deps.knex('assignment_rules').insert({ workspaceId: ws.id, name: 'Suporte', rules: JSON.stringify({ group: groupId, workspacePlatformId: channel.id }) });
    const waiting = await receiveInbound(api.deps, inboundMessage(channel));
    expect(await assignee(waiting.conversationId)).to.equal(null);

    const first = await clients.connect(String(agent.id), agent.token);
    await eventually(isOnline);
    // Coming online picked up the waiting conversation.
    await eventually(async () => (await assignee(waiting.conversationId)) === agent.id);

    const second = await clients.connect(String(agent.id), agent.token);
    first.end(true);
    await closed(first);
    await sleep(200);
    expect(await isOnline()).to.equal(true);

    second.end(true);
    await closed(second);
    await eventually(async () => !(await isOnline()));
  });
});
