import { expect } from 'chai';
import type { Knex } from 'knex';
import { ScheduleNotFoundError } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel } from '../inbox/factories';
import { workflowIds } from '../../workflows/ids';
import { addDays, localToday, periodStart } from '../../api/reports/filters';
import { scheduledExports } from '../../api/reports/schedules';
import { movePendingMember } from '../../api/operators/pendingMembers';
import { ClockedCall, sp } from './clock';
import { AttachmentSink, attachment, startExportWorker, xlsxRows } from './exportSupport';

const br = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** docs/reports.md "Scheduled exports": a Temporal Schedule per row, level 6+, workspace-scoped. */
describe('scheduled report exports: a Temporal Schedule mails the last full week or month to the chosen members', function () {
  this.timeout(120_000);
  let api: TestApi;
  let knex: Knex;
  let sink: AttachmentSink;
  let worker: Worker;
  let running: Promise<void>;
  let connection: NativeConnection;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let bOwner: TestOperator;
  let lastWeek: { from: string; to: string };

  before(async () => {
    sink = new AttachmentSink();
    const smtpUrl = await sink.start();
    api = await startTestApi({ temporalTaskQueue: unique('report-schedule') });
    knex = api.deps.knex;
    ({ worker, running, connection } = await startExportWorker(api, smtpUrl));
    a = await makeWorkspace(knex);
    b = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, a, 9, { name: 'Dona A' });
    master = await makeOperator(knex, api.config.jwtSecret, a, 6, { name: 'Mestre A' });
    agent = await makeOperator(knex, api.config.jwtSecret, a, 3, { name: 'Agente A' });
    bOwner = await makeOperator(knex, api.config.jwtSecret, b, 10);
    const from = periodStart(addDays(localToday('America/Sao_Paulo'), -7), 'weekly');
    lastWeek = { from, to: addDays(from, 6) };
    // Two calls in last week: one the agent's, one the owner's.
    const channel = await makeChannel(knex, a, 'widget');
    for (const [op, hour] of [
      [agent, '10'],
      [owner, '11'],
    ] as const) {
      const call = await ClockedCall.open(knex, a.id, channel.id, sp(`${lastWeek.from}T${hour}:00:00`), { operatorId: op.id });
      await call.customerWrites(sp(`${lastWeek.from}T${hour}:00:00`));
      await call.agentReplies(sp(`${lastWeek.from}T${hour}:02:00`));
    }
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
    await api?.close();
    await sink?.stop();
  });

  const schedule = { kind: 'conversations', frequency: 'weekly' };

  it('level 6 creates one: the row and the Temporal Schedule (Mondays 07:00 in the workspace’s time zone) exist and it is listed', async () => {
    const res = await api.request('POST', '/api/report/schedules', { token: master.token, body: { ...schedule, recipients: [owner.id, agent.id] } });
    expect(res.status).to.equal(201);
    const id = res.body.data.id as number;
    expect(res.body.data.recipients.map((r: { name: string }) => r.name)).to.deep.equal(['Dona A', 'Agente A']);
    const client = await api.deps.temporal.client();
    const described = await client.schedule.getHandle(workflowIds.reportSchedule(id)).describe();
    expect(described.spec.timezone).to.equal('America/Sao_Paulo');
    expect(described.spec.calendars?.[0].dayOfWeek).to.deep.equal([{ start: 'MONDAY', end: 'MONDAY', step: 1 }]);
    expect(described.spec.calendars?.[0].hour).to.deep.equal([{ start: 7, end: 7, step: 1 }]);
    const list = await api.request('GET', '/api/report/schedules', { token: owner.token });
    expect(list.body.data.map((r: { id: number }) => r.id)).to.include(id);
    expect((await api.request('GET', '/api/report/schedules', { token: bOwner.token })).body.data).to.deep.equal([]);
  });

  it('triggering it mails last week’s report to each member, with each member’s visibility', async () => {
    const [row] = await knex('report_schedules').where({ workspaceId: a.id }).select('id');
    const client = await api.deps.temporal.client();
    await client.schedule.getHandle(workflowIds.reportSchedule(row.id)).trigger();
    const period = `Período: ${br(lastWeek.from)} a ${br(lastWeek.to)}`;
    for (const [op, expected] of [
      [owner, 2],
      [agent, 1],
    ] as const) {
      const mail = await sink.waitFor(op.email, (m) => (m.subject ?? '').startsWith('Relatório de Conversas'), 60_000);
      const { rows } = await xlsxRows(attachment(mail, '.xlsx'));
      expect(rows.map((r) => r[0])).to.include(period);
      const header = rows.find((r) => r[0] === 'Período')!;
      expect(rows.find((r) => r[0] === 'Total')![header.indexOf('Novas')], op.name).to.equal(expected);
    }
    expect(sink.mails.some((m) => JSON.stringify(m.to).includes(master.email))).to.equal(false);
  });

  it('a monthly schedule sends the last calendar month', async () => {
    const [row] = await knex('report_schedules').insert({ workspaceId: a.id, kind: 'tags', frequency: 'monthly', recipients: [owner.id], query: '{}' }).returning('id');
    const [one] = await scheduledExports(knex, Number(row.id), new Date('2026-03-01T10:00:00Z'));
    expect(one.query).to.include({ from: '2026-02-01', to: '2026-02-28' });
    await knex('report_schedules').where({ id: row.id }).delete();
  });

  it('recipients are resolved at each run: a pending invitation or a deactivated member gets nothing; an account accepting the invitation takes its place', async () => {
    const pending = await makeOperator(knex, api.config.jwtSecret, a, 3, { name: 'Convidada', verificationLevel: 0 });
    const off = await makeOperator(knex, api.config.jwtSecret, a, 3, { isActive: false });
    const created = await api.request('POST', '/api/report/schedules', { token: owner.token, body: { kind: 'tags', frequency: 'monthly', recipients: [pending.id, off.id, owner.id] } });
    expect(created.status).to.equal(201);
    const id = created.body.data.id as number;
    const planned = async () => (await scheduledExports(knex, id)).map((e) => e.operatorId);
    expect(await planned()).to.deep.equal([owner.id]);
    // The invitation is accepted by an account registered elsewhere: the pending row goes, the account is planned.
    const account = await makeOperator(knex, api.config.jwtSecret, b, 3);
    await knex.transaction((trx) => movePendingMember(trx, a.id, pending.id, account.id));
    expect((await knex('report_schedules').where({ id }).first('recipients')).recipients).to.deep.equal([account.id, off.id, owner.id]);
    expect((await planned()).sort()).to.deep.equal([account.id, owner.id].sort());
    expect((await api.request('DELETE', `/api/report/schedules/${id}`, { token: owner.token })).status).to.equal(200);
  });

  it('below level 6 it is a 403; members or filters of another workspace are a 400; another workspace deletes nothing (404)', async () => {
    expect((await api.request('POST', '/api/report/schedules', { token: agent.token, body: { ...schedule, recipients: [agent.id] } })).status).to.equal(403);
    expect((await api.request('GET', '/api/report/schedules', { token: agent.token })).status).to.equal(403);
    const foreign = await api.request('POST', '/api/report/schedules', { token: owner.token, body: { ...schedule, recipients: [bOwner.id] } });
    expect(foreign.status).to.equal(400);
    expect(foreign.body.errors[0].key).to.equal('recipients');
    const bChannel = await makeChannel(knex, b, 'widget');
    const badFilter = await api.request('POST', '/api/report/schedules', { token: owner.token, body: { ...schedule, recipients: [owner.id], filters: { channels: [bChannel.id] } } });
    expect(badFilter.status).to.equal(400);
    const bad = await api.request('POST', '/api/report/schedules', { token: owner.token, body: { kind: 'conversations', frequency: 'daily', recipients: [owner.id] } });
    expect(bad.status).to.equal(400);
    const [row] = await knex('report_schedules').where({ workspaceId: a.id }).select('id');
    expect((await api.request('DELETE', `/api/report/schedules/${row.id}`, { token: bOwner.token })).status).to.equal(404);
    expect((await api.request('DELETE', `/api/report/schedules/${row.id}`, { token: agent.token })).status).to.equal(403);
  });

  it('cancelling removes the Temporal Schedule and the row', async () => {
    const [row] = await knex('report_schedules').where({ workspaceId: a.id }).select('id');
    expect((await api.request('DELETE', `/api/report/schedules/${row.id}`, { token: owner.token })).status).to.equal(200);
    expect(await knex('report_schedules').where({ id: row.id }).first()).to.equal(undefined);
    const client = await api.deps.temporal.client();
    let missing: unknown;
    try {
      await client.schedule.getHandle(workflowIds.reportSchedule(row.id)).describe();
    } catch (err) {
      missing = err;
    }
    expect(missing).to.be.instanceOf(ScheduleNotFoundError);
  });
});
