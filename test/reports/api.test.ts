import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup, makeLabel, type TestChannel } from '../inbox/factories';
import { ClockedCall, sp } from './clock';

describe('reports API: GET /report, /report/calls, /report/tags, /report/customer, /dashboard, /dashboard/agents', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let ana: TestOperator;
  let bruno: TestOperator;
  let restricted: TestOperator;
  let stranger: TestOperator;
  let widget: TestChannel;
  let telegram: TestChannel;
  let foreignChannel: TestChannel;
  let group: number;
  let vip: number;
  const calls: Record<string, ClockedCall> = {};

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    other = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    master = await makeOperator(knex, api.config.jwtSecret, ws, 6, { name: 'Mara Mestre' });
    ana = await makeOperator(knex, api.config.jwtSecret, ws, 3, { name: 'Ana Souza' });
    bruno = await makeOperator(knex, api.config.jwtSecret, ws, 3, { name: 'Bruno Lima' });
    restricted = await makeOperator(knex, api.config.jwtSecret, ws, 2, { name: 'Rita Restrita' });
    stranger = await makeOperator(knex, api.config.jwtSecret, other, 10, { name: 'Outra Empresa' });
    widget = await makeChannel(knex, ws, 'widget');
    telegram = await makeChannel(knex, ws, 'telegram');
    foreignChannel = await makeChannel(knex, other, 'widget');
    group = await makeGroup(knex, ws, [ana.id]);
    vip = await makeLabel(knex, ws, 'VIP');

    // Tuesday 2026-03-10: Ana answers a widget call after 60 s and resolves it 600 s later.
    calls.a = await ClockedCall.open(knex, ws.id, widget.id, sp('2026-03-10T10:00:00'), { operatorId: ana.id });
    await calls.a.customerWrites(sp('2026-03-10T10:00:00'));
    await calls.a.agentReplies(sp('2026-03-10T10:01:00'));
    await calls.a.finish(sp('2026-03-10T10:11:00'));
    // Same day: Bruno answers a telegram call in group after 300 s; still open.
    calls.b = await ClockedCall.open(knex, ws.id, telegram.id, sp('2026-03-10T11:00:00'), { operatorId: bruno.id, groupId: group });
    await calls.b.customerWrites(sp('2026-03-10T11:00:00'));
    await calls.b.agentReplies(sp('2026-03-10T11:05:00'));
    // Saturday 2026-03-14 23:30 local (Sunday in UTC): Ana, widget, tagged VIP, answered after 1200 s on Sunday.
    calls.c = await ClockedCall.open(knex, ws.id, widget.id, sp('2026-03-14T23:30:00'), { operatorId: ana.id });
    await calls.c.customerWrites(sp('2026-03-14T23:30:00'));
    await calls.c.agentReplies(sp('2026-03-14T23:50:00'));
    await calls.c.finish(sp('2026-03-15T00:10:00'));
    await knex('call_labels').insert({ workspaceId: ws.id, callId: calls.c.id, labelId: vip, createdAt: sp('2026-03-14T23:40:00') });
    // The other workspace has a call the same day: it must never show.
    const foreign = await ClockedCall.open(knex, other.id, foreignChannel.id, sp('2026-03-10T10:00:00'));
    await foreign.customerWrites(sp('2026-03-10T10:00:00'));
    await foreign.agentReplies(sp('2026-03-10T10:00:07'));
  });
  after(async () => {
    await api.close();
  });

  const get = (token: string, path: string) => api.request('GET', path, { token });
  const week = 'from=2026-03-08&to=2026-03-14';

  it('answers a row per day with SPEC §3 fields in seconds, the median and P90 beside each mean, and the summary', async () => {
    const res = await get(owner.token, `/api/report?${week}&frequency=daily`);
    expect(res.status).to.equal(200);
    const { rows, summary, period, businessHours } = res.body.data;
    expect(rows.map((r: { period: string }) => r.period)).to.deep.equal(['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14']);
    const tue = rows[2];
    expect(tue).to.include({ label: '10/03', labelLong: '10/03/2026', newConversations: 2, resolvedConversations: 1, firstTimeResponse: 180, resolutionTime: 600, timeResponse: 180 });
    expect(tue.firstTimeResponseMedian).to.be.within(57, 64);
    expect(tue.firstTimeResponseP90).to.be.within(270, 330);
    expect(tue.resolutionTimeMedian).to.be.within(550, 660);
    expect(rows[6]).to.include({ newConversations: 1, firstTimeResponse: 1200, resolvedConversations: 0 });
    expect(rows[0]).to.include({ newConversations: 0, firstTimeResponse: null, firstTimeResponseMedian: null });
    expect(summary).to.include({ newConversations: 3, resolvedConversations: 1, firstTimeResponse: 520 });
    expect(period).to.deep.equal({ from: '2026-03-08', to: '2026-03-14', frequency: 'daily', timeZone: 'America/Sao_Paulo' });
    expect(businessHours).to.equal(false);
  });

  it('groups by weeks starting on Sunday and by months', async () => {
    const weekly = (await get(owner.token, '/api/report?from=2026-03-01&to=2026-03-21&frequency=weekly')).body.data.rows;
    expect(weekly.map((r: { period: string; newConversations: number }) => [r.period, r.newConversations])).to.deep.equal([
      ['2026-03-01', 0],
      ['2026-03-08', 3],
      ['2026-03-15', 0],
    ]);
    expect(weekly[2].resolvedConversations).to.equal(1);
    expect(weekly[2]).to.include({ periodFrom: '2026-03-15', periodTo: '2026-03-21', labelLong: '15/03/2026 – 21/03/2026' });
    const clipped = (await get(owner.token, '/api/report?from=2026-03-10&to=2026-03-12&frequency=weekly')).body.data.rows;
    expect(clipped.map((r: { period: string; periodFrom: string; periodTo: string }) => [r.period, r.periodFrom, r.periodTo])).to.deep.equal([['2026-03-08', '2026-03-10', '2026-03-12']]);
    const monthly = (await get(owner.token, '/api/report?from=2026-02-01&to=2026-03-31&frequency=monthly')).body.data.rows;
    expect(monthly.map((r: { labelLong: string; newConversations: number }) => [r.labelLong, r.newConversations])).to.deep.equal([
      ['fevereiro de 2026', 0],
      ['março de 2026', 3],
    ]);
  });

  it('filters by channel, group, agent and tag', async () => {
    const sum = async (q: string) => (await get(owner.token, `/api/report?${week}&${q}`)).body.data.summary;
    expect(await sum(`channels=${telegram.id}`)).to.include({ newConversations: 1, firstTimeResponse: 300 });
    expect(await sum(`groups=${group}`)).to.include({ newConversations: 1, firstTimeResponse: 300 });
    expect(await sum(`agents=${ana.id}`)).to.include({ newConversations: 2, firstTimeResponse: 630 });
    expect(await sum(`tags=${vip}`)).to.include({ newConversations: 1, firstTimeResponse: 1200 });
    expect(await sum(`channels=${widget.id},${telegram.id}&agents=${bruno.id}`)).to.include({ newConversations: 1 });
  });

  it('refuses a period over 366 days, an unknown frequency and a foreign or unknown id with field errors, all at once', async () => {
    const res = await get(owner.token, `/api/report?from=2025-01-01&to=2026-03-01&frequency=hourly&channels=${foreignChannel.id}&tags=999999`);
    expect(res.status).to.equal(400);
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.deep.equal(['frequency']);
    const period = await get(owner.token, `/api/report?from=2025-01-01&to=2026-03-01&channels=${foreignChannel.id}&tags=999999&groups=abc`);
    expect(period.status).to.equal(400);
    expect(period.body.errors.map((e: { key: string }) => e.key)).to.include('groups.0');
    const ids = await get(owner.token, `/api/report?from=2025-01-01&to=2026-03-01&channels=${foreignChannel.id}&tags=999999`);
    expect(ids.status).to.equal(400);
    expect(ids.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['channels', 'tags', 'to']);
    expect(ids.body.errors.find((e: { key: string }) => e.key === 'to').descriptions).to.deep.equal(['O período pode ter no máximo 366 dias.']);
    expect((await get(owner.token, '/api/report?from=2025-03-15&to=2026-03-15')).status).to.equal(200);
  });

  it('refuses a day PostgreSQL has no date for (year 0) with 400 on that field, never 500', async () => {
    const res = await get(owner.token, '/api/report?from=0000-01-01&to=0000-01-07');
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['from', 'to']);
  });

  it('shows an agent below level 6 only their own figures, and refuses another agent in the filter', async () => {
    const mine = (await get(ana.token, `/api/report?${week}`)).body.data;
    expect(mine.ownOnly).to.equal(true);
    expect(mine.summary).to.include({ newConversations: 2, firstTimeResponse: 630 });
    const refused = await get(ana.token, `/api/report?${week}&agents=${bruno.id}`);
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].key).to.equal('agents');
    const team = (await get(ana.token, `/api/dashboard/agents?${week}`)).body.data;
    expect(team.map((r: { id: number }) => r.id)).to.deep.equal([ana.id]);
    const none = (await get(restricted.token, `/api/report?${week}`)).body.data.summary;
    expect(none).to.include({ newConversations: 0, firstTimeResponse: null });
    const masterView = (await get(master.token, `/api/report?${week}`)).body.data;
    expect(masterView.ownOnly).to.equal(false);
    expect(masterView.summary.newConversations).to.equal(3);
  });

  it("never shows another workspace's rows", async () => {
    const theirs = (await get(stranger.token, `/api/report?${week}`)).body.data.summary;
    expect(theirs).to.include({ newConversations: 1, firstTimeResponse: 7 });
    const mine = (await get(owner.token, `/api/report/calls?${week}&metric=new&limit=50`)).body;
    expect(mine, JSON.stringify(mine)).to.have.property('data');
    expect(mine.data.map((r: { callId: number }) => r.callId).sort()).to.deep.equal([calls.a.id, calls.b.id, calls.c.id].sort());
    const agents = (await get(stranger.token, `/api/dashboard/agents?${week}`)).body.data;
    expect(agents.map((r: { id: number }) => r.id)).to.deep.equal([stranger.id]);
  });

  it('lists the calls behind a number, each with its conversation, only those the viewer may open', async () => {
    const tme = (await get(owner.token, `/api/report/calls?${week}&metric=tme&agents=${ana.id}`)).body;
    expect(tme.data.map((r: { callId: number; seconds: number; conversationId: number }) => [r.callId, r.seconds, r.conversationId])).to.deep.equal([
      [calls.c.id, 1200, calls.c.conversationId],
      [calls.a.id, 60, calls.a.conversationId],
    ]);
    expect(tme.data[0]).to.include({ operatorName: 'Ana Souza', channel: 'widget' });
    // Ana sees her calls; Bruno's telegram call is in Ana's group, but her figures are her own.
    const anas = (await get(ana.token, `/api/report/calls?${week}&metric=new`)).body;
    expect(anas.data.map((r: { callId: number }) => r.callId).sort()).to.deep.equal([calls.a.id, calls.c.id].sort());
    expect(anas.hiddenCount).to.equal(0);
    const missing = await get(owner.token, `/api/report/calls?${week}`);
    expect(missing.status).to.equal(400);
    expect(missing.body.errors[0].key).to.equal('metric');
  });

  it('answers the team table with first names, times and totals', async () => {
    const rows = (await get(owner.token, `/api/dashboard/agents?${week}`)).body.data;
    const a = rows.find((r: { id: number }) => r.id === ana.id);
    expect(a).to.include({ name: 'Ana Souza', firstName: 'Ana', firstTimeResponse: 630, resolutionTime: 600, totalConversations: 2, resolvedConversations: 1 });
    const o = rows.find((r: { id: number }) => r.id === owner.id);
    expect(o).to.include({ totalConversations: 0, firstTimeResponse: null });
    const totals = async (query: string) =>
      Object.fromEntries(((await get(owner.token, `/api/dashboard/agents?${query}`)).body.data as { id: number; totalConversations: number }[]).filter((r) => [ana.id, bruno.id].includes(r.id)).map((r) => [r.id === ana.id ? 'ana' : 'bruno', r.totalConversations]));
    // Filters narrow the totals like every figure: by tag (only call c), by channel (only call b).
    expect(await totals(`${week}&tags=${vip}`)).to.deep.equal({ ana: 1, bruno: 0 });
    expect(await totals(`${week}&channels=${telegram.id}`)).to.deep.equal({ ana: 0, bruno: 1 });
    // A call counts once, on the day of the agent's first fact in it: call c opened under Ana on Saturday the
    // 14th, so a period from Sunday the 15th does not count it though she resolved it then.
    expect(await totals('from=2026-03-15&to=2026-03-21')).to.deep.equal({ ana: 0, bruno: 0 });
    expect(await totals('from=2026-03-14&to=2026-03-14')).to.deep.equal({ ana: 1, bruno: 0 });
  });

  it('counts tags used in the period and lists contacts with their service channels', async () => {
    const tags = (await get(owner.token, `/api/report/tags?${week}`)).body.data.rows;
    expect(tags.find((t: { id: number }) => t.id === vip)).to.include({ name: 'VIP', used: 1 });
    const before = (await get(owner.token, '/api/report/tags?from=2026-03-01&to=2026-03-07')).body.data.rows;
    expect(before.find((t: { id: number }) => t.id === vip)).to.include({ used: 0 });
    const customers = (await get(owner.token, '/api/report/customer?limit=50')).body;
    expect(customers.totalCount).to.equal(3);
    expect(customers.data.map((c: { channels: { label: string }[] }) => c.channels.map((x) => x.label)).flat().sort()).to.deep.equal(['Telegram', 'Widget', 'Widget']);
  });

  it("answers today's dashboard with SPEC §3 shape and the oldest waiting conversation per channel", async () => {
    const waiting = await ClockedCall.open(knex, ws.id, telegram.id, new Date(Date.now() - 60_000));
    await waiting.customerWrites(new Date(Date.now() - 60_000));
    const res = await get(owner.token, '/api/dashboard');
    expect(res.status).to.equal(200);
    const d = res.body.data;
    expect(d).to.have.keys('customerDistribution', 'weekConversations', 'agents', 'inbox', 'averageTime', 'oldestWaiting', 'today', 'ownOnly');
    expect(d.weekConversations).to.have.length(7);
    expect(d.customerDistribution).to.deep.include({ channel: 'telegram', count: 1 });
    expect(d.agents.total).to.equal(5);
    expect(d.inbox.waiting).to.be.at.least(1);
    expect(d.oldestWaiting.find((o: { channelId: number }) => o.channelId === telegram.id)).to.include({ conversationId: waiting.conversationId });
    const theirs = (await get(stranger.token, '/api/dashboard')).body.data;
    expect(theirs.oldestWaiting.map((o: { channelId: number }) => o.channelId)).to.not.include(telegram.id);
    expect(theirs.agents.total).to.equal(1);
  });
});
