import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { setOperatorOnline } from '../../api/assignment/setOperatorOnline';
import { inboundMessage, makeChannel, makeGroup, type TestChannel } from '../inbox/factories';
import { topics } from '../../api/realtime/publisher';
import type { Publisher } from '../../api/realtime/publisher';

describe('auto-assignment engine: rules on new calls, round-robin and backlog', function () {
  // 100 inbound transactions per test on a shared 2-core machine.
  this.timeout(90_000);
  let api: TestApi;

  before(async () => {
    // Hand-backs at once (the grace period is covered in redistribution.test.ts).
    api = await startTestApi({ presenceGraceMs: 0 });
  });
  after(() => api.close());

  interface Setup {
    ws: TestWorkspace;
    channel: TestChannel;
    agents: TestOperator[];
    groupId: number;
    ruleId: number;
  }

  /** A workspace with `n` agents (level 3) in one group, a channel and an active group rule for it. */
  async function setup(n: number, options: { online?: boolean; rules?: Record<string, unknown> } = {}): Promise<Setup> {
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    const agents: TestOperator[] = [];
    for (let i = 0; i < n; i++) agents.push(await makeOperator(knex, api.config.jwtSecret, ws, 3));
    if (options.online ?? true) await knex('workspace_members').where({ workspaceId: ws.id }).update({ isOnline: true });
    const groupId = await makeGroup(knex, ws, agents.map((a) => a.id));
    const channel = await makeChannel(knex, ws);
    const [rule] = await knex('assignment_rules')
      .insert({ workspaceId: ws.id, name: 'Suporte', isActive: true, rules: JSON.stringify({ group: groupId, workspacePlatformId: channel.id, ...options.rules }) })
      .returning('id');
    return { ws, channel, agents, groupId, ruleId: rule.id };
  }

  const conversation = (id: number) => api.deps.knex('customer_platforms').where({ id }).first('operator_id', 'group_id');
  const newCall = async (channel: TestChannel) => {
    const r = await receiveInbound(api.deps, inboundMessage(channel));
    const cp = await conversation(r.conversationId);
    const call = await api.deps.knex('calls').where({ id: r.callId }).first('operator_id', 'group_id');
    expect(call).to.deep.equal(cp, 'the open call carries the same assignment');
    return { ...r, ...(cp as { operatorId: number | null; groupId: number | null }) };
  };

  it('spreads 100 new calls over 3 eligible agents as a strict rotation (counts differ by at most 1)', async () => {
    const s = await setup(3);
    const picks: number[] = [];
    for (let i = 0; i < 100; i++) {
      const c = await newCall(s.channel);
      expect(c.groupId).to.equal(s.groupId);
      picks.push(c.operatorId as number);
    }
    const ids = s.agents.map((a) => a.id);
    const counts = ids.map((id) => picks.filter((p) => p === id).length);
    expect(Math.max(...counts) - Math.min(...counts)).to.be.at.most(1);
    expect(counts.reduce((a, b) => a + b)).to.equal(100);
    for (let i = 3; i < picks.length; i++) expect(picks[i]).to.equal(picks[i - 3], `pick ${i} repeats the rotation`);
    expect(new Set(picks.slice(0, 3)).size).to.equal(3);
  });

  it('100 calls among 5 members of whom 3 are eligible (one offline, one inactive), under an open schedule: nobody gets two before every eligible one got one', async () => {
    const s = await setup(5);
    const [offline, inactive] = [s.agents[1], s.agents[3]];
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: offline.id }).update({ isOnline: false });
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: inactive.id }).update({ isActive: false });
    const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    const open = Object.fromEntries(days.map((d) => [d, { active: true, hours: [{ startHourIndex: 0, endHourIndex: 96 }] }]));
    const [bh] = await api.deps.knex('business_hours').insert({ workspaceId: s.ws.id, name: 'Sempre', days: JSON.stringify(open) }).returning('id');
    await api.deps.knex('assignment_rules').where({ id: s.ruleId }).update({ rules: JSON.stringify({ group: s.groupId, workspacePlatformId: s.channel.id, businessHours: bh.id }) });
    const eligible = s.agents.filter((a) => a !== offline && a !== inactive).map((a) => a.id);

    const counts = new Map(eligible.map((id) => [id, 0]));
    for (let i = 0; i < 100; i++) {
      const c = await newCall(s.channel);
      expect(eligible, `call ${i} went to an eligible agent`).to.include(c.operatorId);
      counts.set(c.operatorId as number, (counts.get(c.operatorId as number) ?? 0) + 1);
      // After every call the counts differ by at most one: a second before everyone's first is impossible.
      expect(Math.max(...counts.values()) - Math.min(...counts.values()), `after call ${i}`).to.be.at.most(1);
    }
    expect([...counts.values()].sort()).to.deep.equal([33, 33, 34]);

    // The offline agent comes online: from the next call on, every window of 4 has the 4 of them.
    await setOperatorOnline(api.deps, { workspaceId: s.ws.id, operatorId: offline.id }, true);
    const next = [];
    for (let i = 0; i < 8; i++) next.push((await newCall(s.channel)).operatorId);
    for (let i = 0; i + 4 <= next.length; i++) expect(new Set(next.slice(i, i + 4)).size, `window ${i}`).to.equal(4);
    expect(next).to.include(offline.id).and.not.include(inactive.id);

    // Outside business hours nobody is eligible: calls wait in the group.
    const closed = Object.fromEntries(days.map((d) => [d, { active: false, hours: [] }]));
    await api.deps.knex('business_hours').where({ id: bh.id }).update({ days: JSON.stringify(closed) });
    expect(await newCall(s.channel)).to.include({ operatorId: null, groupId: s.groupId });
  });

  it('a rule naming a deleted group or an agent who was deactivated or removed does not write them (the call still comes in)', async () => {
    const s = await setup(1);
    await api.deps.knex('groups').where({ id: s.groupId }).delete();
    expect(await newCall(s.channel)).to.include({ operatorId: null, groupId: null });
    const agent = s.agents[0];
    await api.deps.knex('assignment_rules').where({ id: s.ruleId }).update({ rules: JSON.stringify({ operator: agent.id, workspacePlatformId: s.channel.id }) });
    expect((await newCall(s.channel)).operatorId).to.equal(agent.id);
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: agent.id }).update({ isActive: false });
    expect(await newCall(s.channel)).to.include({ operatorId: null, groupId: null });
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: agent.id }).delete();
    expect(await newCall(s.channel)).to.include({ operatorId: null, groupId: null });
  });

  it('stays fair when 10 new calls arrive in parallel', async () => {
    const s = await setup(3);
    const results = await Promise.all(Array.from({ length: 10 }, () => receiveInbound(api.deps, inboundMessage(s.channel))));
    const picks = await Promise.all(results.map(async (r) => (await conversation(r.conversationId)).operatorId as number));
    const counts = s.agents.map((a) => picks.filter((p) => p === a.id).length);
    expect(counts.sort()).to.deep.equal([3, 3, 4]);
  });

  it('never picks an offline agent or an inactive member', async () => {
    const s = await setup(3);
    const [online, offline, inactive] = s.agents;
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: offline.id }).update({ isOnline: false });
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: inactive.id }).update({ isActive: false });
    for (let i = 0; i < 4; i++) expect((await newCall(s.channel)).operatorId).to.equal(online.id);
  });

  it('leaves the call unassigned in the group outside the rule business hours', async () => {
    const closed = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { active: false, hours: [] }]));
    const s0 = await setup(0);
    const [bh] = await api.deps.knex('business_hours').insert({ workspaceId: s0.ws.id, name: 'Fechado', days: JSON.stringify(closed) }).returning('id');
    await api.deps.knex('assignment_rules').where({ id: s0.ruleId }).delete();
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, s0.ws, 3);
    await api.deps.knex('workspace_members').where({ workspaceId: s0.ws.id }).update({ isOnline: true });
    await api.deps.knex('group_members').insert({ workspaceId: s0.ws.id, groupId: s0.groupId, operatorId: agent.id });
    await api.deps.knex('assignment_rules').insert({ workspaceId: s0.ws.id, name: 'Noite', rules: JSON.stringify({ group: s0.groupId, workspacePlatformId: s0.channel.id, businessHours: bh.id }) });
    const c = await newCall(s0.channel);
    expect(c).to.include({ operatorId: null, groupId: s0.groupId });

    // The same schedule open around the clock lets the agent in.
    const open = Object.fromEntries(Object.keys(closed).map((d) => [d, { active: true, hours: [{ startHourIndex: 0, endHourIndex: 96 }] }]));
    await api.deps.knex('business_hours').where({ id: bh.id }).update({ days: JSON.stringify(open) });
    expect((await newCall(s0.channel)).operatorId).to.equal(agent.id);
  });

  it('does nothing for a rule of another channel or an inactive rule', async () => {
    const s = await setup(2);
    const other = await makeChannel(api.deps.knex, s.ws);
    expect(await newCall(other)).to.include({ operatorId: null, groupId: null });
    await api.deps.knex('assignment_rules').where({ id: s.ruleId }).update({ isActive: false });
    expect(await newCall(s.channel)).to.include({ operatorId: null, groupId: null });
  });

  it('assigns the named agent (and group) of a rule directly, and only on a new call', async () => {
    const s = await setup(2, { rules: { operator: undefined } });
    await api.deps.knex('assignment_rules').where({ id: s.ruleId }).update({ rules: JSON.stringify({ operator: s.agents[1].id, workspacePlatformId: s.channel.id }) });
    const first = await newCall(s.channel);
    expect(first).to.include({ operatorId: s.agents[1].id, groupId: null });
    await api.deps.knex('customer_platforms').where({ id: first.conversationId }).update({ operatorId: s.agents[0].id });
    const again = await receiveInbound(api.deps, inboundMessage(s.channel, { identity: { externalId: (await api.deps.knex('customer_platforms').where({ id: first.conversationId }).first('external_id')).externalId } }));
    expect(again.callId).to.equal(first.callId);
    expect((await conversation(first.conversationId)).operatorId).to.equal(s.agents[0].id, 'a message in an open call keeps its assignee');
  });

  it('hands the backlog to an agent who comes online, oldest first and fairly, announcing each with chat.callStatus', async () => {
    const s = await setup(2, { online: false });
    const waiting = [];
    for (let i = 0; i < 5; i++) waiting.push(await newCall(s.channel));
    for (const w of waiting) expect(w).to.include({ operatorId: null, groupId: s.groupId });

    const sent: { topic: string; event: string; data: { conversation: { id: number; operatorId: number } } }[] = [];
    const publisher: Publisher = { ...api.deps.publisher, publish: async (topic, event, data) => sent.push({ topic, event, data: data as never }) > 0 };
    const [a, b] = s.agents;
    const first = await setOperatorOnline({ ...api.deps, publisher }, { workspaceId: s.ws.id, operatorId: a.id }, true);
    expect(first.assigned).to.deep.equal(waiting.map((w) => w.conversationId));
    for (const w of waiting) expect((await conversation(w.conversationId)).operatorId).to.equal(a.id);
    const toA = sent.filter((m) => m.topic === topics.operator(s.ws.id, a.id) && m.event === 'chat.callStatus');
    expect(toA.map((m) => m.data.conversation.id)).to.deep.equal(waiting.map((w) => w.conversationId));
    expect(toA[0].data.conversation.operatorId).to.equal(a.id);
    // b, a member of the group, still sees the group's conversations: told of the change, not of a removal.
    expect(sent.filter((m) => m.topic === topics.operator(s.ws.id, b.id)).map((m) => m.event)).to.deep.equal(Array(5).fill('chat.callStatus'));

    // Offline again: a hands its five unanswered calls back (nobody else is online: they wait in the group),
    // new calls wait too; b comes online and takes all nine, oldest first.
    const off = await setOperatorOnline(api.deps, { workspaceId: s.ws.id, operatorId: a.id }, false);
    expect(off.redistributed).to.deep.equal(waiting.map((w) => w.conversationId));
    for (const w of waiting) expect(await conversation(w.conversationId)).to.deep.equal({ operatorId: null, groupId: s.groupId });
    const more = [];
    for (let i = 0; i < 4; i++) more.push((await newCall(s.channel)).conversationId);
    const byB = await setOperatorOnline(api.deps, { workspaceId: s.ws.id, operatorId: b.id }, true);
    expect(byB.assigned).to.deep.equal([...waiting.map((w) => w.conversationId), ...more], 'only b is online: b takes all nine');
    const member = await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: a.id }).first('is_online');
    expect(member.isOnline).to.equal(false);
    const sessions = await api.deps.knex('operator_sessions').where({ workspaceId: s.ws.id, operatorId: a.id });
    expect(sessions).to.have.length(1);
    expect(sessions[0].disconnectedAt).to.be.instanceOf(Date);
  });

  it('shares a backlog between the agents already online and the newcomer in rotation', async () => {
    const s = await setup(3, { online: false });
    const [a, b, c] = s.agents;
    await api.deps.knex('workspace_members').where({ workspaceId: s.ws.id, operatorId: a.id }).update({ isOnline: true });
    // a is online but outside the rule: park calls by pausing the rule, then put them back in the group.
    await api.deps.knex('assignment_rules').where({ id: s.ruleId }).update({ isActive: false });
    const waiting = [];
    for (let i = 0; i < 6; i++) {
      const r = await receiveInbound(api.deps, inboundMessage(s.channel));
      await api.deps.knex('customer_platforms').where({ id: r.conversationId }).update({ groupId: s.groupId });
      waiting.push(r.conversationId);
    }
    await api.deps.knex('assignment_rules').where({ id: s.ruleId }).update({ isActive: true });
    const res = await setOperatorOnline(api.deps, { workspaceId: s.ws.id, operatorId: b.id }, true);
    expect(res.assigned).to.deep.equal(waiting);
    const owners = await Promise.all(waiting.map(async (id) => (await conversation(id)).operatorId));
    expect(owners).to.deep.equal([a.id, b.id, a.id, b.id, a.id, b.id]);
    expect(owners).to.not.include(c.id);
  });
});
