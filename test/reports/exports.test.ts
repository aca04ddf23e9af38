import { expect } from 'chai';
import type { Knex } from 'knex';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel } from '../inbox/factories';
import type { AccessLevelValue } from '../../api/policy/levels';
import { ClockedCall, sp } from './clock';
import { AttachmentSink, attachment, startExportWorker, xlsxRows } from './exportSupport';

const LEVELS: AccessLevelValue[] = [2, 3, 6, 9];
const PERIOD = 'from=2026-05-03&to=2026-05-09';

/**
 * docs/reports.md "Exports": POST {report path}/export/email answers at once with SPEC §8's text and a
 * Temporal workflow mails a readable .xlsx and a .csv, with the requester's visibility, to the requester.
 */
describe('report e-mail exports: answered at once, mailed as .xlsx and .csv through Temporal, with the requester’s visibility', function () {
  this.timeout(120_000);
  let api: TestApi;
  let knex: Knex;
  let sink: AttachmentSink;
  let worker: Worker;
  let running: Promise<void>;
  let connection: NativeConnection;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let bOwner: TestOperator;
  let channelId: number;
  const people = new Map<AccessLevelValue, TestOperator>();

  before(async () => {
    sink = new AttachmentSink();
    const smtpUrl = await sink.start();
    api = await startTestApi({ temporalTaskQueue: unique('report-export') });
    knex = api.deps.knex;
    ({ worker, running, connection } = await startExportWorker(api, smtpUrl));
    a = await makeWorkspace(knex);
    b = await makeWorkspace(knex);
    const owner = await makeOperator(knex, api.config.jwtSecret, a, 10, { name: 'Dona A' });
    channelId = (await makeChannel(knex, a, 'widget')).id;
    // A tag whose name a spreadsheet would run as a formula: it must arrive as text.
    const [formulaTag] = await knex('labels').insert({ workspaceId: a.id, name: '=HYPERLINK("http://x.invalid","y")', color: '#000000', textColor: '#ffffff' }).returning('id');
    let minute = 0;
    for (const level of LEVELS) {
      const op = await makeOperator(knex, api.config.jwtSecret, a, level, { name: `Nivel ${level}` });
      people.set(level, op);
      const at = sp(`2026-05-05T10:${String(minute).padStart(2, '0')}:00`);
      const call = await ClockedCall.open(knex, a.id, channelId, at, { operatorId: op.id });
      await call.customerWrites(at);
      await call.agentReplies(new Date(at.getTime() + 60_000));
      await knex('call_labels').insert({ workspaceId: a.id, callId: call.id, labelId: Number(formulaTag.id), operatorId: op.id, createdAt: at });
      minute += 5;
    }
    const ownerCall = await ClockedCall.open(knex, a.id, channelId, sp('2026-05-05T11:00:00'), { operatorId: owner.id });
    await ownerCall.customerWrites(sp('2026-05-05T11:00:00'));
    await ownerCall.agentReplies(sp('2026-05-05T11:10:00'));
    bOwner = await makeOperator(knex, api.config.jwtSecret, b, 10);
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
    await api?.close();
    await sink?.stop();
  });

  const post = (op: TestOperator, path: string) => api.request('POST', path, { token: op.token });
  const totalRow = (rows: unknown[][]) => rows.find((r) => r[0] === 'Total')!;

  it('the conversations report: 202 with SPEC §8 text at once, then a readable .xlsx and a .csv in the requester’s mailbox (level 9: the whole workspace)', async () => {
    const op = people.get(9)!;
    const res = await post(op, `/api/report/export/email?${PERIOD}`);
    expect(res.status).to.equal(202);
    expect(res.body.data.message).to.equal(`Relatório será enviado em breve para ${op.email}`);
    const mail = await sink.waitFor(op.email, (m) => (m.subject ?? '').startsWith('Relatório de Conversas'));
    const { rows, formulas } = await xlsxRows(attachment(mail, '.xlsx'));
    expect(formulas).to.equal(0);
    expect(rows[0][0]).to.equal('Relatório de Conversas');
    expect(rows.map((r) => r[0])).to.include('Modo: Tempo corrido (horário comercial desligado)');
    const header = rows.find((r) => r[0] === 'Período')!;
    expect(header).to.include('Novas');
    const total = totalRow(rows);
    expect(total[header.indexOf('Novas')]).to.equal(5);
    expect(total[header.indexOf('TME média (s)')]).to.equal(168); // (4 × 60 s + 600 s) / 5
    const csv = attachment(mail, '.csv').toString('utf8');
    expect(csv.startsWith('\uFEFFRelatório de Conversas\r\n')).to.equal(true);
    expect(csv).to.match(/\r\nTotal;168;/);
  });

  it('levels 2 and 3 get only their own calls; level 6 the whole workspace', async () => {
    for (const level of [2, 3, 6] as const) {
      const op = people.get(level)!;
      expect((await post(op, `/api/report/export/email?${PERIOD}`)).status).to.equal(202);
      const mail = await sink.waitFor(op.email, (m) => (m.subject ?? '').startsWith('Relatório de Conversas'));
      const { rows } = await xlsxRows(attachment(mail, '.xlsx'));
      const header = rows.find((r) => r[0] === 'Período')!;
      expect(totalRow(rows)[header.indexOf('Novas')], `level ${level}`).to.equal(level >= 6 ? 5 : 1);
      expect(rows.some((r) => r[0] === 'Somente os seus próprios atendimentos.'), `level ${level}`).to.equal(level < 6);
    }
  });

  it('the tags report through /report/tags/export-email: a formula-looking name is a text cell in the .xlsx and neutralised in the .csv', async () => {
    const op = people.get(2)!;
    const res = await post(op, `/api/report/tags/export-email?${PERIOD}`);
    expect(res.status).to.equal(202);
    const mail = await sink.waitFor(op.email, (m) => (m.subject ?? '').startsWith('Relatório de Etiquetas'));
    const { rows, formulas } = await xlsxRows(attachment(mail, '.xlsx'));
    expect(formulas).to.equal(0);
    // Level 2: only the use on their own call counts.
    expect(rows.find((r) => r[0] === '=HYPERLINK("http://x.invalid","y")')?.[1]).to.equal(1);
    expect(attachment(mail, '.csv').toString('utf8')).to.include(`"'=HYPERLINK(""http://x.invalid"",""y"")";1`);
  });

  it('the team table and the contacts report export too (level 6)', async () => {
    const op = people.get(6)!;
    expect((await post(op, `/api/dashboard/agents/export/email?${PERIOD}`)).status).to.equal(202);
    const team = await sink.waitFor(op.email, (m) => (m.subject ?? '').startsWith('Equipe'));
    const { rows } = await xlsxRows(attachment(team, '.xlsx'));
    expect(rows.map((r) => r[0])).to.include.members(['Dona A', 'Nivel 2', 'Nivel 9']);
    expect((await post(op, '/api/report/customer/export/email')).status).to.equal(202);
    const contacts = await sink.waitFor(op.email, (m) => (m.subject ?? '').startsWith('Relatório de Contatos'));
    expect((await xlsxRows(attachment(contacts, '.xlsx'))).rows.filter((r) => r[0] === 'Cliente relatório').length).to.be.greaterThan(0);
    // Both files come from one pass over the paged contacts: the .csv holds them as well.
    expect(attachment(contacts, '.csv').toString('utf8')).to.match(/\r\nCliente relatório;/);
  });

  it('another workspace: its filter ids are a 400 (no export starts) and its own export holds none of these rows', async () => {
    const before = sink.mails.length;
    const bad = await post(bOwner, `/api/report/export/email?${PERIOD}&channels=${channelId}`);
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].key).to.equal('channels');
    const below = await post(people.get(3)!, `/api/report/export/email?${PERIOD}&agents=${people.get(9)!.id}`);
    expect(below.status).to.equal(400);
    expect((await post(bOwner, `/api/report/export/email?${PERIOD}&frequency=hourly`)).status).to.equal(400);
    expect((await post(bOwner, `/api/report/export/email?${PERIOD}`)).status).to.equal(202);
    const mail = await sink.waitFor(bOwner.email);
    const { rows } = await xlsxRows(attachment(mail, '.xlsx'));
    const header = rows.find((r) => r[0] === 'Período')!;
    expect(totalRow(rows)[header.indexOf('Novas')]).to.equal(0);
    expect(sink.mails.length).to.equal(before + 1);
  });
});
