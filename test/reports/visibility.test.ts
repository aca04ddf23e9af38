import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup, makeLabel } from '../inbox/factories';
import type { AccessLevelValue } from '../../api/policy/levels';
import { ClockedCall, sp } from './clock';

const LEVELS: AccessLevelValue[] = [2, 3, 6, 9];
const PERIOD = 'from=2026-05-03&to=2026-05-09';

/**
 * docs/reports.md "Who sees what": levels 2/3/6/9 × own and other workspace on every report endpoint and the
 * drill-down. Each level of workspace A answers one call of its own; the owner answers one more in a group
 * nobody of the levels below belongs to.
 */
describe('reports visibility: every report endpoint × levels 2/3/6/9 × own and other workspace', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;
  let a: TestWorkspace;
  let b: TestWorkspace;
  const people = new Map<AccessLevelValue, TestOperator>();
  const own = new Map<AccessLevelValue, ClockedCall>();
  let ownerCall: ClockedCall;
  let bOwner: TestOperator;
  let bIds: { channel: number; group: number; label: number; agent: number };

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    a = await makeWorkspace(knex);
    b = await makeWorkspace(knex);
    const owner = await makeOperator(knex, api.config.jwtSecret, a, 10, { name: 'Dona A' });
    const channel = await makeChannel(knex, a, 'widget');
    const secret = await makeGroup(knex, a, [owner.id]);
    let minute = 0;
    for (const level of LEVELS) {
      const op = await makeOperator(knex, api.config.jwtSecret, a, level, { name: `Nivel ${level}` });
      people.set(level, op);
      const call = await ClockedCall.open(knex, a.id, channel.id, sp(`2026-05-05T10:${String(minute).padStart(2, '0')}:00`), { operatorId: op.id });
      await call.customerWrites(sp(`2026-05-05T10:${String(minute).padStart(2, '0')}:00`));
      await call.agentReplies(sp(`2026-05-05T10:${String(minute + 1).padStart(2, '0')}:00`));
      own.set(level, call);
      minute += 5;
    }
    ownerCall = await ClockedCall.open(knex, a.id, channel.id, sp('2026-05-05T11:00:00'), { operatorId: owner.id, groupId: secret });
    await ownerCall.customerWrites(sp('2026-05-05T11:00:00'));
    await ownerCall.agentReplies(sp('2026-05-05T11:10:00'));

    bOwner = await makeOperator(knex, api.config.jwtSecret, b, 10);
    bIds = { channel: (await makeChannel(knex, b, 'widget')).id, group: await makeGroup(knex, b), label: await makeLabel(knex, b), agent: bOwner.id };
  });
  after(async () => {
    await api.close();
  });

  const get = (op: TestOperator, path: string) => api.request('GET', path, { token: op.token });

  it('levels 6 and 9 see the whole workspace; 2 and 3 only their own calls, on /report, /dashboard/agents and /report/tags', async () => {
    for (const level of LEVELS) {
      const op = people.get(level)!;
      const report = await get(op, `/api/report?${PERIOD}`);
      expect(report.status, `level ${level}`).to.equal(200);
      expect(report.body.data.summary.newConversations, `level ${level}`).to.equal(level >= 6 ? 5 : 1);
      expect(report.body.data.ownOnly).to.equal(level < 6);
      const agents = await get(op, `/api/dashboard/agents?${PERIOD}`);
      expect(agents.status).to.equal(200);
      const ids = (agents.body.data as { id: number }[]).map((r) => r.id);
      if (level < 6) expect(ids, `level ${level}`).to.deep.equal([op.id]);
      else expect(ids).to.have.length(5);
      expect((await get(op, `/api/report/tags?${PERIOD}`)).status).to.equal(200);
      expect((await get(op, '/api/dashboard')).body.data.ownOnly).to.equal(level < 6);
      expect((await get(op, '/api/report/customer')).status).to.equal(200);
    }
  });

  it('the drill-down lists only calls the viewer may open: below 6 their own, at 6 not a group they are outside of, at 9 all', async () => {
    for (const level of LEVELS) {
      const op = people.get(level)!;
      const res = await get(op, `/api/report/calls?${PERIOD}&metric=tme`);
      expect(res.status).to.equal(200);
      const listed = (res.body.data as { callId: number }[]).map((r) => r.callId).sort();
      if (level < 6) expect(listed, `level ${level}`).to.deep.equal([own.get(level)!.id]);
      else if (level === 6) {
        expect(listed).to.not.include(ownerCall.id);
        expect(res.body.hiddenCount).to.equal(1);
      } else expect(listed).to.have.length(5);
    }
  });

  it("refuses at every level, with a 400 naming the field, any id of the other workspace in a filter, and shows none of its rows", async () => {
    for (const level of LEVELS) {
      const op = people.get(level)!;
      for (const path of ['/api/report', '/api/report/calls', '/api/report/tags', '/api/report/customer', '/api/dashboard', '/api/dashboard/agents']) {
        for (const [key, value] of [
          ['channels', bIds.channel],
          ['groups', bIds.group],
          ['tags', bIds.label],
          ['agents', bIds.agent],
        ] as const) {
          const res = await get(op, `${path}?${PERIOD}&metric=new&${key}=${value}`);
          expect(res.status, `${level} ${path} ${key}`).to.equal(400);
          expect(res.body.errors.map((e: { key: string }) => e.key), `${level} ${path} ${key}`).to.include(key);
        }
      }
    }
    const theirs = await get(bOwner, `/api/report?${PERIOD}`);
    expect(theirs.body.data.summary.newConversations).to.equal(0);
    const drill = await get(bOwner, `/api/report/calls?${PERIOD}&metric=new`);
    expect(drill.body.data).to.deep.equal([]);
    expect(drill.body.hiddenCount).to.equal(0);
  });
});
