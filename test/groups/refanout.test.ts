import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, inbox, sleep, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { INTERNAL_USERNAME } from '../../api/realtime/access';
import { makeChannel, makeConversation, makeGroup, type TestChannel } from '../inbox/factories';

/**
 * docs/visibility.md "Live re-fan-out": when who an agent is changes (group membership, level) the
 * conversations they gained or lost reach their topic, so open inbox lists stay right without a refetch.
 * Real api, PostgreSQL and MQTT clients; the expected sets are what GET /api/inbox shows before and after.
 */
describe('live re-fan-out when group membership or an agent level changes', function () {
  this.timeout(30_000);
  let api: TestApi;
  let clients: Clients;
  let ws: TestWorkspace;
  let admin: TestOperator;
  let channel: TestChannel;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    channel = await makeChannel(api.deps.knex, ws);
  });
  afterEach(() => clients.endAll());
  after(() => api.close());

  /** What reaches the operator's topic from now on, through a real MQTT session (an internal one survives their sessions ending). */
  async function watch(op: TestOperator, options: { asInternal?: boolean } = {}): Promise<Received[]> {
    const client = options.asInternal ? await clients.connect(INTERNAL_USERNAME, api.config.mqttInternalPassword) : await clients.connect(String(op.id), op.token);
    const received = inbox(client);
    expect(await subscribeCodes(client, [topics.operator(ws.id, op.id)])).to.deep.equal([1]);
    return received;
  }
  const shown = (r: Received[]) =>
    r.filter((m) => m.envelope.event === 'chat.callStatus').map((m) => (m.envelope.data as { conversation: { id: number } }).conversation.id).sort((a, b) => a - b);
  const removed = (r: Received[]) =>
    r.filter((m) => m.envelope.event === 'chat.conversationRemoved').map((m) => (m.envelope.data as { conversationId: number }).conversationId).sort((a, b) => a - b);
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  /** Every id of the operator's "Inbox" list, all pages. */
  async function inboxIds(op: TestOperator): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | null = null;
    do {
      const q: URLSearchParams = new URLSearchParams({ segmentId: 'all', limit: '50', ...(cursor ? { cursor } : {}) });
      const res = await api.request('GET', `/api/inbox?${q}`, { token: op.token });
      expect(res.status).to.equal(200);
      ids.push(...res.body.data.map((c: { id: number }) => c.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    return sorted(ids);
  }
  const setMembers = async (groupId: number, members: number[]) => {
    const res = await api.request('PUT', `/api/group/${groupId}`, { token: admin.token, body: { members } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  for (const level of [3, 2, 6] as const) {
    it(`level ${level}: joining a group sends exactly the conversations the list gains, leaving removes exactly those it loses`, async () => {
      const x = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, level);
      const y = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      const g = await makeGroup(api.deps.knex, ws, [y.id]);
      const other = await makeGroup(api.deps.knex, ws, [y.id]);
      const convs = [
        await makeConversation(api.deps, channel, { groupId: g }), // unassigned in g
        await makeConversation(api.deps, channel, { groupId: g, operatorId: y.id }), // someone else's in g
        await makeConversation(api.deps, channel, { groupId: g, operatorId: x.id }), // x's own in g
        await makeConversation(api.deps, channel, {}), // unassigned, no group
        await makeConversation(api.deps, channel, { groupId: other }), // another group
        await makeConversation(api.deps, channel, { operatorId: y.id }), // someone else's, no group
      ];
      const all = convs.map((c) => c.conversationId);
      const outside = await inboxIds(x);
      const received = await watch(x);
      const yReceived = await watch(y);

      await setMembers(g, [y.id, x.id]);
      const inside = await inboxIds(x);
      const gained = inside.filter((id) => !outside.includes(id));
      expect(gained.length, 'the membership changes something at this level').to.be.greaterThan(0);
      await waitFor(() => shown(received).length >= gained.length || undefined);
      await sleep(150);
      expect(shown(received)).to.deep.equal(gained);
      expect(removed(received)).to.deep.equal([]);
      expect(shown(received).every((id) => all.includes(id))).to.equal(true);
      expect(yReceived, 'nothing changed for y').to.deep.equal([]);

      received.length = 0;
      await setMembers(g, [y.id]);
      const after = await inboxIds(x);
      expect(after).to.deep.equal(outside);
      const lost = inside.filter((id) => !after.includes(id));
      await waitFor(() => removed(received).length >= lost.length || undefined);
      await sleep(150);
      expect(removed(received)).to.deep.equal(lost);
      expect(shown(received)).to.deep.equal([]);
    });
  }

  it('an admin joining a group is sent nothing: they see everything already', async () => {
    const boss = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9);
    const g = await makeGroup(api.deps.knex, ws, []);
    await makeConversation(api.deps, channel, { groupId: g });
    const received = await watch(boss);
    await setMembers(g, [boss.id]);
    await sleep(300);
    // Only that the group's team chat room is now theirs (docs/team-chat.md); no conversation.
    expect(received.filter((r) => !r.envelope.event.startsWith('team.'))).to.deep.equal([]);
  });

  it('deleting a group re-publishes its conversations: those who now see them get them, those who do not are told', async () => {
    const member = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const outsider = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const y = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const g = await makeGroup(api.deps.knex, ws, [member.id, y.id]);
    const waiting = await makeConversation(api.deps, channel, { groupId: g });
    const ofY = await makeConversation(api.deps, channel, { groupId: g, operatorId: y.id });
    const toMember = await watch(member);
    const toOutsider = await watch(outsider);
    const res = await api.request('DELETE', `/api/group/${g}`, { token: admin.token });
    expect(res.status).to.equal(200);
    // Without a group, the unassigned one is everyone's (level 3); y's own is y's alone.
    await waitFor(() => removed(toMember).length === 1 || undefined);
    await waitFor(() => shown(toOutsider).length === 1 || undefined);
    expect(removed(toMember)).to.deep.equal([ofY.conversationId]);
    expect(shown(toMember)).to.deep.equal([waiting.conversationId]);
    expect(shown(toOutsider)).to.deep.equal([waiting.conversationId]);
    expect(await inboxIds(member)).to.deep.equal([waiting.conversationId]);
    expect(await inboxIds(outsider)).to.deep.equal([waiting.conversationId]);
  });

  it('a level change sends what the new level shows and removes what it hides (observed on the agent topic)', async () => {
    const x = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const y = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const g = await makeGroup(api.deps.knex, ws, [y.id]);
    const ofY = await makeConversation(api.deps, channel, { operatorId: y.id });
    const inG = await makeConversation(api.deps, channel, { groupId: g });
    const free = await makeConversation(api.deps, channel, {});
    expect(await inboxIds(x)).to.deep.equal([free.conversationId]);
    // The agent's own sessions end with the change (their token is renewed): the topic is watched with the
    // internal credential, as another api node's view would be.
    const received = await watch(x, { asInternal: true });
    const up = await api.request('PUT', `/api/operator/${x.id}`, { token: admin.token, body: { accessLevel: 6 } });
    expect(up.status, JSON.stringify(up.body)).to.equal(200);
    // Master: everything outside groups they are not in — y's conversation now; the group's stays hidden.
    await waitFor(() => shown(received).length === 1 || undefined);
    expect(shown(received)).to.deep.equal([ofY.conversationId]);
    expect(shown(received)).to.not.include(inG.conversationId);

    received.length = 0;
    const down = await api.request('PUT', `/api/operator/${x.id}`, { token: admin.token, body: { accessLevel: 2 } });
    expect(down.status).to.equal(200);
    await waitFor(() => removed(received).length === 1 || undefined);
    expect(removed(received)).to.deep.equal([ofY.conversationId]);
    expect(shown(received)).to.deep.equal([]);
  });
});
