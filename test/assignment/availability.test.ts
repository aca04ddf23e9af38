import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { handBackAbsentAgents } from '../../api/assignment/handBackAbsent';
import { inboundMessage, makeChannel, makeGroup, type TestChannel } from '../inbox/factories';
import { topics } from '../../api/realtime/publisher';
import { Clients, inbox, subscribeCodes, waitFor, sleep } from '../realtime/mqttClients';

describe("availability: PUT /api/operators/availability ('online' | 'ausente') and auto-assignment", function () {
  this.timeout(60_000);
  let api: TestApi;
  let clients: Clients;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
  });
  after(async () => {
    await clients.endAll();
    await api.close();
  });

  interface Setup {
    ws: TestWorkspace;
    channel: TestChannel;
    agents: TestOperator[];
    groupId: number;
  }

  /** `n` agents (level 3), all connected (is_online), in one group with an active rotation rule on a channel. */
  async function setup(n: number): Promise<Setup> {
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    const agents: TestOperator[] = [];
    for (let i = 0; i < n; i++) agents.push(await makeOperator(knex, api.config.jwtSecret, ws, 3));
    await knex('workspace_members').where({ workspaceId: ws.id }).update({ isOnline: true });
    const groupId = await makeGroup(knex, ws, agents.map((a) => a.id));
    const channel = await makeChannel(knex, ws);
    await knex('assignment_rules').insert({ workspaceId: ws.id, name: 'Suporte', isActive: true, rules: JSON.stringify({ group: groupId, workspacePlatformId: channel.id }) });
    return { ws, channel, agents, groupId };
  }

  const assignee = async (id: number) => (await api.deps.knex('customer_platforms').where({ id }).first('operator_id')).operatorId as number | null;
  const availabilityOf = async (workspaceId: number, operatorId: number) =>
    (await api.deps.knex('workspace_members').where({ workspaceId, operatorId }).first('availability')).availability as string;
  const setAvail = (agent: TestOperator, availability: unknown) => api.request('PUT', '/api/operators/availability', { token: agent.token, body: { availability } });

  it('sets the caller’s own availability, shows it in the members list and validates the value with a pt-BR message', async () => {
    const s = await setup(2);
    const [ana, bia] = s.agents;
    const res = await setAvail(ana, 'ausente');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.include({ availability: 'ausente', online: true });
    expect(await availabilityOf(s.ws.id, ana.id)).to.equal('ausente');

    const list = await api.request('GET', '/api/operator', { token: bia.token });
    const row = list.body.data.find((m: { id: number }) => m.id === ana.id);
    expect(row).to.deep.include({ availability: 'ausente', isOnline: true });

    const bad = await setAvail(ana, 'offline');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'availability', descriptions: ["Escolha 'online' ou 'ausente'."] }]);
    // Only the caller's own: naming another operator is an unknown field, not a way to set theirs.
    const other = await api.request('PUT', '/api/operators/availability', { token: ana.token, body: { availability: 'ausente', operatorId: bia.id } });
    expect(other.status).to.equal(400);
    expect(await availabilityOf(s.ws.id, bia.id)).to.equal('online');
    expect((await api.request('PUT', '/api/operators/availability', { body: { availability: 'online' } })).status).to.equal(401);

    expect((await setAvail(ana, 'online')).body.data.availability).to.equal('online');
    expect(await availabilityOf(s.ws.id, ana.id)).to.equal('online');
  });

  it("changes only the membership of the token's workspace, not the same person's other workspace", async () => {
    const knex = api.deps.knex;
    const a = await makeWorkspace(knex);
    const b = await makeWorkspace(knex);
    const inA = await makeOperator(knex, api.config.jwtSecret, a, 3);
    await knex('workspace_members').insert({ workspaceId: b.id, operatorId: inA.id, accessLevel: 3, isActive: true });
    expect((await setAvail(inA, 'ausente')).status).to.equal(200);
    expect(await availabilityOf(a.id, inA.id)).to.equal('ausente');
    expect(await availabilityOf(b.id, inA.id)).to.equal('online');
  });

  it('publishes member.availability to the team on ws/{id}/all, and to no other workspace', async () => {
    const s = await setup(2);
    const [ana, bia] = s.agents;
    const stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 3);
    const teammate = await clients.connect(String(bia.id), bia.token);
    expect(await subscribeCodes(teammate, [topics.workspace(s.ws.id)])).to.deep.equal([1]);
    const outsider = await clients.connect(String(stranger.id), stranger.token);
    expect(await subscribeCodes(outsider, [topics.workspace(stranger.workspaceId)])).to.deep.equal([1]);
    const seen = inbox(teammate);
    const seenOutside = inbox(outsider);

    await setAvail(ana, 'ausente');
    const event = await waitFor(() => seen.find((r) => r.envelope.event === 'member.availability' && (r.envelope.data as { operatorId: number }).operatorId === ana.id), 15_000, 'member.availability');
    expect(event.topic).to.equal(topics.workspace(s.ws.id));
    expect(event.envelope.data).to.deep.equal({ operatorId: ana.id, availability: 'ausente', online: true });
    await sleep(300);
    expect(seenOutside.filter((r) => r.envelope.event === 'member.availability' && (r.envelope.data as { operatorId: number }).operatorId === ana.id)).to.deep.equal([]);
  });

  it('an agent who is ausente gets no new auto-assigned call: the rotation skips them', async () => {
    const s = await setup(3);
    const [ana, bia, caio] = s.agents;
    await setAvail(bia, 'ausente');
    const picks: (number | null)[] = [];
    for (let i = 0; i < 6; i++) picks.push(await assignee((await receiveInbound(api.deps, inboundMessage(s.channel))).conversationId));
    expect(picks).to.not.include(bia.id);
    expect(picks.filter((p) => p === ana.id)).to.have.length(3);
    expect(picks.filter((p) => p === caio.id)).to.have.length(3);
  });

  it('with the only agent ausente a new call waits in the group; going back online takes that backlog', async () => {
    const s = await setup(1);
    const [ana] = s.agents;
    await setAvail(ana, 'ausente');
    const waiting = await receiveInbound(api.deps, inboundMessage(s.channel));
    expect(await assignee(waiting.conversationId)).to.equal(null);
    expect((await api.deps.knex('customer_platforms').where({ id: waiting.conversationId }).first('group_id')).groupId).to.equal(s.groupId);

    const back = await setAvail(ana, 'online');
    expect(back.body.data.assigned).to.deep.equal([waiting.conversationId]);
    expect(await assignee(waiting.conversationId)).to.equal(ana.id);
  });

  it('connecting while ausente takes nothing from the backlog', async () => {
    const s = await setup(1);
    const [ana] = s.agents;
    await setAvail(ana, 'ausente');
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id }).update({ isOnline: false });
    const waiting = await receiveInbound(api.deps, inboundMessage(s.channel));
    const res = await api.request('POST', '/api/operators/presence', { token: ana.token, body: { online: true } });
    expect(res.body.data.assigned).to.deep.equal([]);
    expect(await assignee(waiting.conversationId)).to.equal(null);
  });

  it('going ausente hands the unanswered round-robin calls back to the rotation at once; answered ones stay', async () => {
    const s = await setup(2);
    const [ana, bia] = s.agents;
    const first = await receiveInbound(api.deps, inboundMessage(s.channel));
    const second = await receiveInbound(api.deps, inboundMessage(s.channel));
    const third = await receiveInbound(api.deps, inboundMessage(s.channel));
    // Rotation by operator id from an empty cursor: ana, bia, ana.
    expect([await assignee(first.conversationId), await assignee(second.conversationId), await assignee(third.conversationId)]).to.deep.equal([ana.id, bia.id, ana.id]);
    await api.deps.knex('calls').where({ id: third.callId }).update({ firstResponseAt: new Date() });

    const res = await setAvail(ana, 'ausente');
    expect(res.body.data.redistributed).to.deep.equal([first.conversationId]);
    expect(await assignee(first.conversationId)).to.equal(bia.id);
    expect(await assignee(third.conversationId), 'answered: stays with ana').to.equal(ana.id);
  });

  it('the hand-back sweep also treats an ausente agent as away (a call that reached them anyway goes back)', async () => {
    const s = await setup(2);
    const [ana, bia] = s.agents;
    const call = await receiveInbound(api.deps, inboundMessage(s.channel));
    expect(await assignee(call.conversationId)).to.equal(ana.id);
    // Written behind the API's back, as if the hand-back at the time had failed.
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: ana.id }).update({ availability: 'ausente' });
    expect(await handBackAbsentAgents(api.deps)).to.include(call.conversationId);
    expect(await assignee(call.conversationId)).to.equal(bia.id);
  });

  it('PUT /api/workspace sets away_after_minutes (1..1440 or null), level 6+', async () => {
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    const owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    const agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    const set = await api.request('PUT', '/api/workspace', { token: owner.token, body: { name: ws.name, awayAfterMinutes: 15 } });
    expect(set.status).to.equal(200);
    expect(set.body.data.awayAfterMinutes).to.equal(15);
    expect((await api.request('GET', '/api/workspace', { token: agent.token })).body.data.awayAfterMinutes).to.equal(15);
    const tooLong = await api.request('PUT', '/api/workspace', { token: owner.token, body: { name: ws.name, awayAfterMinutes: 1441 } });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'awayAfterMinutes', descriptions: ['Máximo de 1440 minutos (24 horas).'] }]);
    expect((await api.request('PUT', '/api/workspace', { token: agent.token, body: { name: ws.name, awayAfterMinutes: 5 } })).status).to.equal(403);
    const off = await api.request('PUT', '/api/workspace', { token: owner.token, body: { name: ws.name, awayAfterMinutes: null } });
    expect(off.body.data.awayAfterMinutes).to.equal(null);
  });

  it("the dashboard's agents online counts an ausente agent as connected and says how many are ausente", async () => {
    const s = await setup(3);
    const [ana, bia] = s.agents;
    await setAvail(ana, 'ausente');
    // Ausente while offline is just offline.
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: bia.id }).update({ isOnline: false, availability: 'ausente' });
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, s.ws, 10);
    const res = await api.request('GET', '/api/dashboard', { token: owner.token });
    expect(res.status).to.equal(200);
    expect(res.body.data.agents).to.deep.include({ connected: 2, away: 1, total: 4 });
  });
});
