import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, closed, inbox, sleep, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { topics } from '../../api/realtime/publisher';
import { inboundMessage, makeChannel, makeGroup, type TestChannel } from '../inbox/factories';
import { handBackAbsentAgents } from '../../api/assignment/handBackAbsent';

/**
 * docs/assignment.md "When an agent becomes unavailable": presence from real MQTT sessions on the embedded
 * broker, real PostgreSQL, events observed by the other agents' real MQTT clients.
 */
describe('redistribution: an unavailable agent hands their unanswered round-robin calls back to the rotation', function () {
  this.timeout(30_000);
  let api: TestApi;
  let clients: Clients;

  before(async () => {
    // At once here; the grace period has its own tests below.
    api = await startTestApi({ presenceGraceMs: 0 });
    clients = new Clients(api.url);
  });
  afterEach(() => clients.endAll());
  after(() => api.close());

  interface Agent extends TestOperator {
    client?: MqttClient;
    received: Received[];
  }
  interface Setup {
    ws: TestWorkspace;
    channel: TestChannel;
    groupId: number;
    agents: Agent[];
    admin: TestOperator;
  }

  async function setup(n: number): Promise<Setup> {
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    const admin = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    const agents: Agent[] = [];
    for (let i = 0; i < n; i++) agents.push({ ...(await makeOperator(knex, api.config.jwtSecret, ws, 3)), received: [] });
    const groupId = await makeGroup(knex, ws, agents.map((a) => a.id));
    const channel = await makeChannel(knex, ws);
    await knex('assignment_rules').insert({ workspaceId: ws.id, name: 'Suporte', rules: JSON.stringify({ group: groupId, workspacePlatformId: channel.id }) });
    return { ws, channel, groupId, agents, admin };
  }

  const member = (ws: TestWorkspace, a: TestOperator) => api.deps.knex('workspace_members').where({ workspaceId: ws.id, operatorId: a.id }).first('is_online', 'is_active');
  const conversation = (id: number) => api.deps.knex('customer_platforms').where({ id }).first('operator_id', 'group_id');
  const openCall = (id: number) => api.deps.knex('calls').where({ customerPlatformId: id, isFinished: false }).first('operator_id', 'auto_assigned_operator_id');

  async function eventually(probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
    const until = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > until) throw new Error(`timed out waiting (${ms} ms) for ${probe.toString()}`);
      await sleep(25);
    }
  }

  /** Connects the agent's MQTT session (which puts them online) and records what reaches their topic. */
  async function goOnline(s: Setup, a: Agent): Promise<void> {
    a.client = await clients.connect(String(a.id), a.token);
    a.received = inbox(a.client);
    expect(await subscribeCodes(a.client, [topics.operator(s.ws.id, a.id)])).to.deep.equal([1]);
    await eventually(async () => (await member(s.ws, a)).isOnline === true);
  }
  async function goOffline(s: Setup, a: Agent): Promise<void> {
    a.client?.end(true);
    if (a.client) await closed(a.client);
    await eventually(async () => (await member(s.ws, a)).isOnline === false);
  }
  const newCall = async (s: Setup) => (await receiveInbound(api.deps, inboundMessage(s.channel))).conversationId;
  const eventsAbout = (a: Agent, id: number) =>
    a.received.filter((r) => (r.envelope.data as { conversation?: { id: number }; conversationId?: number }).conversation?.id === id || (r.envelope.data as { conversationId?: number }).conversationId === id);

  it('going offline (last MQTT session closed) passes each unanswered call to the next online agent; answered ones stay', async () => {
    const s = await setup(3);
    const [a, b, c] = s.agents;
    for (const x of s.agents) await goOnline(s, x);
    const calls = [await newCall(s), await newCall(s), await newCall(s), await newCall(s)];
    const owners = await Promise.all(calls.map(async (id) => (await conversation(id)).operatorId));
    expect(owners).to.deep.equal([a.id, b.id, c.id, a.id], 'the rotation by operator id');
    expect(await openCall(calls[0])).to.deep.equal({ operatorId: a.id, autoAssignedOperatorId: a.id });
    // a answers the first call: it is theirs from now on.
    const reply = await api.request('POST', '/api/inbox/messages', { token: a.token, body: { id: calls[0], content: [{ insert: 'Já vejo isso!\n' }], type: 0 } });
    expect(reply.status, JSON.stringify(reply.body)).to.equal(201);

    await goOffline(s, a);
    await eventually(async () => (await conversation(calls[3])).operatorId !== a.id);
    // The cursor was on a (4th pick); a is offline, so the next after a is b.
    expect(await conversation(calls[3])).to.deep.equal({ operatorId: b.id, groupId: s.groupId });
    expect(await openCall(calls[3])).to.deep.equal({ operatorId: b.id, autoAssignedOperatorId: b.id });
    expect((await conversation(calls[0])).operatorId).to.equal(a.id, 'answered: stays with a');

    // b and c (group members, level 3) see the group's conversations: both are told of the new assignee live.
    const toB = await waitFor(() => eventsAbout(b, calls[3]).find((r) => r.envelope.event === 'chat.callStatus'));
    expect((toB.envelope.data as { conversation: { operatorId: number } }).conversation.operatorId).to.equal(b.id);
    await waitFor(() => eventsAbout(c, calls[3]).find((r) => r.envelope.event === 'chat.callStatus'));
    expect(eventsAbout(b, calls[0]).filter((r) => r.envelope.event === 'chat.callStatus'), 'nothing about the answered call').to.have.length(0);
  });

  it('with nobody else online the call waits unassigned in the group, and the next agent to connect takes it', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    await goOnline(s, a);
    const id = await newCall(s);
    expect((await conversation(id)).operatorId).to.equal(a.id);
    await goOffline(s, a);
    await eventually(async () => (await conversation(id)).operatorId === null);
    expect(await conversation(id)).to.deep.equal({ operatorId: null, groupId: s.groupId });
    expect((await openCall(id)).autoAssignedOperatorId).to.equal(null);

    await goOnline(s, b);
    await eventually(async () => (await conversation(id)).operatorId === b.id);
    const event = await waitFor(() => eventsAbout(b, id).find((r) => r.envelope.event === 'chat.callStatus'));
    expect((event.envelope.data as { conversation: { operatorId: number } }).conversation.operatorId).to.equal(b.id);
  });

  it('a call taken over by someone else is not handed back when the rotation pick goes offline', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    await goOnline(s, a);
    await goOnline(s, b);
    const id = await newCall(s);
    expect((await conversation(id)).operatorId).to.equal(a.id);
    const transfer = await api.request('POST', '/api/inbox/assignment', { token: b.token, body: { id } });
    expect(transfer.status, JSON.stringify(transfer.body)).to.be.oneOf([200, 201, 204]);
    expect((await conversation(id)).operatorId).to.equal(b.id);
    await goOffline(s, a);
    await sleep(200);
    expect((await conversation(id)).operatorId).to.equal(b.id);
    // b going offline does not hand it back either: the rotation gave it to a, b took it by hand.
    await goOffline(s, b);
    await sleep(200);
    expect((await conversation(id)).operatorId).to.equal(b.id);
  });

  it('deactivating an agent (PUT /operator/:id) hands back their unanswered calls at once', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    await goOnline(s, a);
    await goOnline(s, b);
    const first = await newCall(s);
    const second = await newCall(s);
    expect([(await conversation(first)).operatorId, (await conversation(second)).operatorId]).to.deep.equal([a.id, b.id]);
    const res = await api.request('PUT', `/api/operator/${a.id}`, { token: s.admin.token, body: { isActive: false } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // The request itself redistributes (with an external broker there is no disconnect to do it).
    expect(await conversation(first)).to.deep.equal({ operatorId: b.id, groupId: s.groupId });
    const toB = await waitFor(() => eventsAbout(b, first).find((r) => r.envelope.event === 'chat.callStatus'));
    expect((toB.envelope.data as { conversation: { operatorId: number } }).conversation.operatorId).to.equal(b.id);
    expect((await member(s.ws, a)).isActive).to.equal(false);
  });
  it('leaving the group (PUT /group) hands back its unanswered round-robin calls; joining while online picks up its backlog', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    await goOnline(s, a);
    await goOnline(s, b);
    const first = await newCall(s);
    const second = await newCall(s);
    expect([(await conversation(first)).operatorId, (await conversation(second)).operatorId]).to.deep.equal([a.id, b.id]);
    const left = await api.request('PUT', `/api/group/${s.groupId}`, { token: s.admin.token, body: { members: [b.id] } });
    expect(left.status, JSON.stringify(left.body)).to.equal(200);
    expect(await conversation(first)).to.deep.equal({ operatorId: b.id, groupId: s.groupId });
    // a no longer sees it (not assigned, not in the group): removed from a's lists live.
    await waitFor(() => eventsAbout(a, first).find((r) => r.envelope.event === 'chat.conversationRemoved'));

    // b goes away: with nobody eligible both calls wait in the group; a, still online, joins and takes them.
    await goOffline(s, b);
    await eventually(async () => (await conversation(first)).operatorId === null && (await conversation(second)).operatorId === null);
    a.received.length = 0;
    const joined = await api.request('PUT', `/api/group/${s.groupId}`, { token: s.admin.token, body: { members: [a.id, b.id] } });
    expect(joined.status).to.equal(200);
    expect([(await conversation(first)).operatorId, (await conversation(second)).operatorId]).to.deep.equal([a.id, a.id]);
    await waitFor(() => eventsAbout(a, second).find((r) => r.envelope.event === 'chat.callStatus'));
  });
  it('with a grace period an agent who reconnects in time keeps their calls; one who stays away loses them once it is over', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    await goOnline(s, a);
    await goOnline(s, b);
    const id = await newCall(s);
    expect((await conversation(id)).operatorId).to.equal(a.id);
    // Long enough that reconnecting (or looking) within it holds on a busy machine too: the test's own
    // steps take milliseconds, the grace period seconds. It was 700 ms, which a slow reconnect could miss.
    const GRACE_MS = 3000;
    api.config.presenceGraceMs = GRACE_MS;
    try {
      await goOffline(s, a);
      const wentOffline = Date.now();
      await sleep(300);
      await goOnline(s, a); // a reload, a dropped connection
      // The hand-back timer (grace + 50 ms from going offline) has fired by now, and found a back.
      await sleep(Math.max(0, wentOffline + GRACE_MS + 600 - Date.now()));
      expect((await conversation(id)).operatorId).to.equal(a.id, 'back within the grace period: nothing moved');

      await goOffline(s, a);
      await sleep(300);
      expect((await conversation(id)).operatorId).to.equal(a.id, 'still within the grace period');
      await eventually(async () => (await conversation(id)).operatorId === b.id);
      await waitFor(() => eventsAbout(b, id).find((r) => r.envelope.event === 'chat.callStatus' && (r.envelope.data as { conversation: { operatorId: number } }).conversation.operatorId === b.id));
    } finally {
      api.config.presenceGraceMs = 0;
    }
  });

  it('the periodic sweep hands back the calls of agents away longer than the grace period (a lost timer, a restarted api)', async () => {
    const s = await setup(3);
    const [a, b, c] = s.agents;
    for (const x of s.agents) await goOnline(s, x);
    const ofA = await newCall(s);
    const ofB = await newCall(s);
    expect([(await conversation(ofA)).operatorId, (await conversation(ofB)).operatorId]).to.deep.equal([a.id, b.id]);
    // a's presence says offline for 2 minutes already, b's for 5 seconds, with no timer pending for either.
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: a.id }).update({ isOnline: false, lastSeenAt: api.deps.knex.raw("now() - interval '2 minutes'") });
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: b.id }).update({ isOnline: false, lastSeenAt: api.deps.knex.raw("now() - interval '5 seconds'") });
    const moved = await handBackAbsentAgents(api.deps, 60_000);
    expect(moved).to.include(ofA).and.not.include(ofB);
    expect((await conversation(ofA)).operatorId).to.equal(c.id, 'the only eligible agent left');
    expect((await conversation(ofB)).operatorId).to.equal(b.id, 'still within the grace period');
    await waitFor(() => eventsAbout(c, ofA).find((r) => r.envelope.event === 'chat.callStatus'));
    expect(await handBackAbsentAgents(api.deps, 60_000)).to.not.include(ofA);
  });
});
