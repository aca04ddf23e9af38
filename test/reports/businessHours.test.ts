import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel } from '../inbox/factories';
import { defaultDays } from '../../api/businessHours/schedule';
import { BusinessClock } from '../../api/reports/businessTime';
import { resolveScope } from '../../api/reports/filters';
import { exportTable } from '../../api/reports/exportTable';
import { exportFilesOf } from '../../api/reports/exportFiles';
import { ReportQuerySchema } from '../../api/reports/schema';
import { loadViewer } from '../../api/policy/conversations';
import { ClockedCall, sp } from './clock';

// March 2026: Friday the 6th, Saturday the 7th, Monday the 9th. The schedule: Monday to Friday 08:00–18:00.
const PERIOD = 'from=2026-03-06&to=2026-03-09';

/** docs/reports.md "Business-hours mode": only time inside the workspace's open hours counts. */
describe('reports in business-hours mode: only open hours count, with controlled clocks', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let scheduleId: number;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10, { name: 'Dona' });
    const channel = await makeChannel(knex, ws, 'widget');
    const [row] = await knex('business_hours').insert({ workspaceId: ws.id, name: 'Comercial', days: JSON.stringify(defaultDays()), sort: 0 }).returning('id');
    scheduleId = Number(row.id);
    // Over the weekend: written Friday 17:30, answered Monday 08:20, resolved Monday 09:00.
    const weekend = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-06T17:30:00'), { operatorId: owner.id });
    await weekend.customerWrites(sp('2026-03-06T17:30:00'));
    await weekend.agentReplies(sp('2026-03-09T08:20:00'));
    await weekend.finish(sp('2026-03-09T09:00:00'));
    // Entirely on Saturday, while closed.
    const saturday = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-07T10:00:00'), { operatorId: owner.id });
    await saturday.customerWrites(sp('2026-03-07T10:00:00'));
    await saturday.agentReplies(sp('2026-03-07T10:05:00'));
  });
  after(async () => {
    await api.close();
  });

  const report = async (extra = '') => {
    const res = await api.request('GET', `/api/report?${PERIOD}${extra}`, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };

  it('calendar mode counts every second: TME (2 d 14 h 50 min + 5 min) / 2', async () => {
    const data = await report();
    expect(data.businessHours).to.equal(false);
    expect(data.summary.firstTimeResponse).to.equal((226_200 + 300) / 2);
    expect(data.summary.resolutionTime).to.equal(2400);
  });

  it('business-hours mode counts Friday 17:30–18:00 and Monday 08:00–08:20 (3000 s), nothing of Saturday, and keeps counts and the day of each figure', async () => {
    const data = await report('&businessHours=true');
    expect(data.businessHours).to.equal(true);
    expect(data.summary.firstTimeResponse).to.equal(1500);
    expect(data.summary.timeResponse).to.equal(1500);
    expect(data.summary.resolutionTime).to.equal(2400);
    expect(data.summary.newConversations).to.equal(2);
    expect(data.summary.resolvedConversations).to.equal(1);
    const byDay = Object.fromEntries((data.rows as { period: string; firstTimeResponse: number | null }[]).map((r) => [r.period, r.firstTimeResponse]));
    expect(byDay).to.deep.equal({ '2026-03-06': null, '2026-03-07': 0, '2026-03-08': null, '2026-03-09': 3000 });
    const team = await api.request('GET', `/api/dashboard/agents?${PERIOD}&businessHours=true`, { token: owner.token });
    expect(team.body.data.find((r: { id: number }) => r.id === owner.id).firstTimeResponse).to.equal(1500);
  });

  it('the drill-down shows each call’s business-hours time', async () => {
    const res = await api.request('GET', `/api/report/calls?${PERIOD}&metric=tme&businessHours=true`, { token: owner.token });
    expect((res.body.data as { seconds: number }[]).map((r) => r.seconds).sort((a, b) => a - b)).to.deep.equal([0, 3000]);
  });

  it('the export names the mode', async () => {
    const actor = { workspaceId: ws.id, operatorId: owner.id, accessLevel: 10 as const, kind: 'operator' as const };
    const scope = await resolveScope(knex, actor, ReportQuerySchema.parse({ from: '2026-03-06', to: '2026-03-09', businessHours: 'true' }));
    const csv = (await exportFilesOf(await exportTable(knex, 'conversations', scope, await loadViewer(knex, actor)))).csv.toString('utf8');
    expect(csv).to.include('Modo: Somente horário comercial');
    expect(csv).to.match(/\r\nTotal;1500;/);
  });

  it('editing the schedule changes how old periods read in business-hours mode (not in calendar mode)', async () => {
    const days = defaultDays();
    days.mon.active = false;
    await knex('business_hours').where({ id: scheduleId }).update({ days: JSON.stringify(days) });
    expect((await report('&businessHours=true')).summary.firstTimeResponse).to.equal(900); // Friday's 30 min over two calls
    expect((await report()).summary.firstTimeResponse).to.equal((226_200 + 300) / 2);
    await knex('business_hours').where({ id: scheduleId }).update({ days: JSON.stringify(defaultDays()) });
  });

  it('a workspace without a schedule gets a 400 on businessHours', async () => {
    const other = await makeWorkspace(knex);
    const op = await makeOperator(knex, api.config.jwtSecret, other, 10);
    const res = await api.request('GET', `/api/report?${PERIOD}&businessHours=true`, { token: op.token });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].key).to.equal('businessHours');
  });

  it('BusinessClock: open milliseconds across days, a closed day, and a day with two ranges, in São Paulo', () => {
    const days = defaultDays();
    days.tue.hours = [
      { startHourIndex: 32, endHourIndex: 48 },
      { startHourIndex: 52, endHourIndex: 72 },
    ];
    const clock = new BusinessClock(days, 'America/Sao_Paulo');
    const ms = (a: string, b: string) => clock.openMs(sp(a).getTime(), sp(b).getTime());
    expect(ms('2026-03-10T11:30:00', '2026-03-10T13:30:00')).to.equal(60 * 60_000); // 11:30–12:00 and 13:00–13:30
    expect(ms('2026-03-07T00:00:00', '2026-03-08T23:59:00')).to.equal(0);
    expect(ms('2026-03-06T07:00:00', '2026-03-09T19:00:00')).to.equal(20 * 3600_000);
    expect(ms('2026-03-09T09:00:00', '2026-03-09T08:00:00')).to.equal(0);
  });
});
