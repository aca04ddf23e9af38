import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, makeGroup, type TestChannel } from '../inbox/factories';
import { CSAT_MESSAGES } from '../../api/csat/schema';

/** Local days of the workspace (America/Sao_Paulo, UTC−3). */
const D1 = '2026-03-02';
const D2 = '2026-03-03';
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00-03:00`);

describe('CSAT in the reports: average, distribution, per agent, per period, drill-down to the calls, who sees what', function () {
  this.timeout(60_000);
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let ana: TestOperator;
  let bruno: TestOperator;
  let widget: TestChannel;
  let telegram: TestChannel;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api?.close());

  /** A resolved call of a new conversation, its survey in `state` (answered with `rating` at `answeredAt`). */
  async function ratedCall(o: { channel?: TestChannel; agent?: TestOperator | null; rating?: number; answeredAt?: Date; requestedAt?: Date; state?: 'sent' | 'answered' | 'skipped'; comment?: string; groupId?: number; name?: string }) {
    const agent = o.agent === undefined ? ana : o.agent;
    const conv = await makeConversation(api.deps, o.channel ?? widget, { operatorId: agent?.id ?? null, groupId: o.groupId ?? null, name: o.name });
    const state = o.state ?? 'answered';
    const answeredAt = o.answeredAt ?? at(D1, '10:00');
    await api.deps.knex('calls')
      .where({ id: conv.callId })
      .update({
        isFinished: true,
        finishedAt: new Date(answeredAt.getTime() - 60_000),
        csatState: state,
        csatRequestedAt: o.requestedAt ?? new Date(answeredAt.getTime() - 30_000),
        ...(state === 'answered' ? { csatRating: o.rating ?? 5, csatComment: o.comment ?? null, csatAnsweredAt: answeredAt } : {}),
      });
    await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).update({ isFinished: true });
    return conv;
  }
  const report = (token: string, query: Record<string, string> = {}) => api.request('GET', `/api/report/csat?${new URLSearchParams({ from: D1, to: D2, ...query })}`, { token });
  const calls = (token: string, query: Record<string, string> = {}) => api.request('GET', `/api/report/csat/calls?${new URLSearchParams({ from: D1, to: D2, ...query })}`, { token });

  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    ana = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    bruno = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    widget = await makeChannel(api.deps.knex, ws, 'widget');
    telegram = await makeChannel(api.deps.knex, ws, 'telegram');
  });

  it('answers the average, the distribution, the share satisfied, per agent and per local day; the answer rate of the surveys sent and those skipped', async () => {
    await ratedCall({ agent: ana, rating: 5, answeredAt: at(D1, '09:00') });
    await ratedCall({ agent: ana, rating: 4, answeredAt: at(D1, '23:30') });
    await ratedCall({ agent: bruno, rating: 1, answeredAt: at(D2, '00:30'), channel: telegram });
    await ratedCall({ agent: bruno, rating: 3, answeredAt: at(D2, '15:00') });
    await ratedCall({ agent: null, rating: 5, answeredAt: at(D2, '16:00') });
    await ratedCall({ agent: ana, state: 'sent', requestedAt: at(D2, '10:00') });
    await ratedCall({ agent: ana, state: 'skipped', requestedAt: at(D2, '11:00'), channel: telegram });
    // Outside the period (the day before) and another workspace: not counted.
    await ratedCall({ agent: ana, rating: 1, answeredAt: at('2026-03-01', '23:59'), requestedAt: at('2026-03-01', '23:00') });
    const other = await makeWorkspace(api.deps.knex);
    const otherChannel = await makeChannel(api.deps.knex, other, 'widget');
    const otherConv = await makeConversation(api.deps, otherChannel);
    await api.deps.knex('calls').where({ id: otherConv.callId }).update({ isFinished: true, finishedAt: at(D1, '09:00'), csatState: 'answered', csatRequestedAt: at(D1, '09:00'), csatRating: 1, csatAnsweredAt: at(D1, '10:00') });

    const res = await report(owner.token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { summary, rows, agents, ownOnly } = res.body.data;
    expect(ownOnly).to.equal(false);
    expect(summary).to.deep.include({ average: 3.6, count: 5, satisfied: 60, sent: 6, answeredOfSent: 5, answerRate: 83.3, skipped: 1 });
    expect(summary.distribution).to.deep.equal([
      { rating: 1, count: 1 },
      { rating: 2, count: 0 },
      { rating: 3, count: 1 },
      { rating: 4, count: 1 },
      { rating: 5, count: 2 },
    ]);
    expect(rows.map((r: { period: string; count: number; average: number | null }) => [r.period, r.count, r.average])).to.deep.equal([
      [D1, 2, 4.5],
      [D2, 3, 3],
    ]);
    const byAgent = Object.fromEntries(agents.map((a: { id: number | null; count: number; average: number }) => [String(a.id), [a.count, a.average]]));
    expect(byAgent).to.deep.equal({ [ana.id]: [2, 4.5], [bruno.id]: [2, 2], null: [1, 5] });
    expect(agents.find((a: { id: number }) => a.id === ana.id).name).to.equal(ana.name);

    const byChannel = await report(owner.token, { channels: String(telegram.id) });
    expect(byChannel.body.data.summary).to.deep.include({ count: 1, average: 1, sent: 1, skipped: 1 });
    const weekly = await report(owner.token, { frequency: 'weekly' });
    expect(weekly.body.data.rows).to.have.length(1);
    expect(weekly.body.data.rows[0]).to.include({ count: 5, average: 3.6 });
  });

  it('drills down to the rated calls, newest answer first, by rating, agent or days, each with its conversation', async () => {
    const a = await ratedCall({ agent: ana, rating: 5, answeredAt: at(D1, '09:00'), comment: 'Muito bom', name: 'Carla' });
    const b = await ratedCall({ agent: bruno, rating: 5, answeredAt: at(D2, '09:00'), name: 'Davi' });
    await ratedCall({ agent: bruno, rating: 2, answeredAt: at(D2, '10:00') });
    const fives = await calls(owner.token, { rating: '5' });
    expect(fives.status, JSON.stringify(fives.body)).to.equal(200);
    expect(fives.body.data.map((r: { callId: number }) => r.callId)).to.deep.equal([b.callId, a.callId]);
    expect(fives.body.data[1]).to.deep.include({ conversationId: a.conversationId, customerName: 'Carla', rating: 5, comment: 'Muito bom', operatorId: ana.id, operatorName: ana.name, channel: 'widget' });
    expect(fives.body).to.include({ matchCount: 2, hiddenCount: 0 });
    const bruno5 = await calls(owner.token, { rating: '5', agents: String(bruno.id) });
    expect(bruno5.body.data.map((r: { callId: number }) => r.callId)).to.deep.equal([b.callId]);
    const day1 = await calls(owner.token, { to: D1 });
    expect(day1.body.data.map((r: { callId: number }) => r.callId)).to.deep.equal([a.callId]);
    const bad = await calls(owner.token, { rating: '6', frequency: 'yearly' });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['frequency', 'rating']);
    expect(bad.body.errors.find((e: { key: string }) => e.key === 'rating').descriptions).to.deep.equal([CSAT_MESSAGES.rating]);
  });

  it('below level 6 an agent sees only their own ratings; a calls list hides conversations the viewer may not open and says how many', async () => {
    await ratedCall({ agent: ana, rating: 4 });
    await ratedCall({ agent: bruno, rating: 1 });
    const own = await report(ana.token);
    expect(own.body.data).to.deep.include({ ownOnly: true });
    expect(own.body.data.summary).to.deep.include({ count: 1, average: 4 });
    expect(own.body.data.agents.map((a: { id: number }) => a.id)).to.deep.equal([ana.id]);
    const others = await report(ana.token, { agents: String(bruno.id) });
    expect(others.status).to.equal(400);
    expect(others.body.errors[0]).to.include({ key: 'agents' });

    const master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    const group = await makeGroup(api.deps.knex, ws, [ana.id]);
    await ratedCall({ agent: ana, rating: 3, groupId: group });
    const seen = await calls(master.token);
    expect(seen.body).to.include({ matchCount: 2, hiddenCount: 1 });
    expect((await calls(owner.token)).body).to.include({ matchCount: 3, hiddenCount: 0 });
  });

  it('another workspace’s channel as a filter is a 400, like an unknown one', async () => {
    const other = await makeWorkspace(api.deps.knex);
    const foreign = await makeChannel(api.deps.knex, other, 'widget');
    const res = await report(owner.token, { channels: String(foreign.id) });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.include({ key: 'channels' });
  });
});
