import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabase } from '../helpers/db';
import { makeWorkspace, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup, type TestChannel } from '../inbox/factories';
import { ClockedCall, makeBot, sp } from './clock';

interface FactRow {
  kind: number;
  at: Date;
  day: string;
  ms: string | null;
  operatorId: number | null;
  groupId: number | null;
  channelId: number;
}

const KIND = { opened: 1, resolved: 2, tme: 3, tmr: 4, tma: 5 } as const;

describe('reports: facts recorded by the call triggers (controlled clock, docs/reports.md)', function () {
  this.timeout(30_000);
  let knex: Knex;
  let ws: TestWorkspace;
  let channel: TestChannel;
  let bot: number;

  before(async () => {
    ({ knex } = await testDatabase());
    ws = await makeWorkspace(knex);
    channel = await makeChannel(knex, ws, 'widget');
    bot = await makeBot(knex, ws.id);
  });

  async function facts(call: ClockedCall): Promise<FactRow[]> {
    const rows = await knex('report_facts')
      .where({ callId: call.id })
      .orderBy('id')
      .select('kind', 'at', knex.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'ms', 'operator_id', 'group_id', 'channel_id');
    return rows as FactRow[];
  }
  const ms = (rows: FactRow[], kind: number) => rows.filter((r) => r.kind === kind).map((r) => Number(r.ms));

  it('measures TME from the opening of a call without a bot to the first agent reply, and TMA from that reply to the finish', async () => {
    const call = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-10T10:00:00'));
    await call.customerWrites(sp('2026-03-10T10:00:00'));
    await call.agentReplies(sp('2026-03-10T10:04:30'));
    await call.finish(sp('2026-03-10T10:20:30'));
    const rows = await facts(call);
    expect(rows.map((r) => r.kind)).to.deep.equal([KIND.opened, KIND.tme, KIND.tmr, KIND.resolved, KIND.tma]);
    expect(ms(rows, KIND.tme)).to.deep.equal([270_000]);
    expect(ms(rows, KIND.tmr)).to.deep.equal([270_000]);
    expect(ms(rows, KIND.tma)).to.deep.equal([960_000]);
    expect(rows.every((r) => r.day === '2026-03-10' && r.channelId === channel.id)).to.equal(true);
  });

  it('never counts the time a bot held the call: TME and the waiting customer start at the hand-off', async () => {
    const call = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-11T09:00:00'));
    const session = await call.botStarts(bot);
    await call.customerWrites(sp('2026-03-11T09:00:00'));
    await call.customerWrites(sp('2026-03-11T09:03:00'));
    await call.botEnds(session, sp('2026-03-11T09:10:00'));
    await call.agentReplies(sp('2026-03-11T09:12:00'));
    const rows = await facts(call);
    expect(ms(rows, KIND.tme)).to.deep.equal([120_000]);
    expect(ms(rows, KIND.tmr)).to.deep.equal([120_000]);
  });

  it('gives no TME to a call an agent answered while its bot still ran, nor to a call an agent opened', async () => {
    const held = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-11T11:00:00'));
    await held.botStarts(bot);
    await held.customerWrites(sp('2026-03-11T11:00:00'));
    await held.agentReplies(sp('2026-03-11T11:01:00'));
    expect(ms(await facts(held), KIND.tme)).to.deep.equal([]);
    expect(ms(await facts(held), KIND.tmr)).to.deep.equal([]);

    const outbound = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-11T12:00:00'));
    await outbound.agentReplies(sp('2026-03-11T12:00:00'));
    await outbound.customerWrites(sp('2026-03-11T12:30:00'));
    await outbound.agentReplies(sp('2026-03-11T12:31:00'));
    const rows = await facts(outbound);
    expect(ms(rows, KIND.tme)).to.deep.equal([]);
    expect(ms(rows, KIND.tmr)).to.deep.equal([60_000]);
  });

  it('counts a burst of customer messages once, from its first message', async () => {
    const call = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-12T08:00:00'));
    await call.customerWrites(sp('2026-03-12T08:00:00'));
    await call.agentReplies(sp('2026-03-12T08:01:00'));
    await call.customerWrites(sp('2026-03-12T08:10:00'));
    await call.customerWrites(sp('2026-03-12T08:10:20'));
    await call.customerWrites(sp('2026-03-12T08:11:40'));
    await call.agentReplies(sp('2026-03-12T08:13:00'));
    // A second agent message with nobody waiting is not an answer.
    await call.agentReplies(sp('2026-03-12T08:14:00'));
    expect(ms(await facts(call), KIND.tmr)).to.deep.equal([60_000, 180_000]);
  });

  it('measures a reopened conversation as a new call, leaving the first call as it was', async () => {
    const first = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-13T10:00:00'));
    await first.customerWrites(sp('2026-03-13T10:00:00'));
    await first.agentReplies(sp('2026-03-13T10:01:00'));
    await first.finish(sp('2026-03-13T10:05:00'));
    const before = await facts(first);
    const second = await ClockedCall.openOn(knex, ws.id, first.conversationId, sp('2026-03-13T15:00:00'));
    await second.customerWrites(sp('2026-03-13T15:00:00'));
    await second.agentReplies(sp('2026-03-13T15:30:00'));
    await second.finish(sp('2026-03-13T16:30:00'));
    expect(await facts(first)).to.deep.equal(before);
    const rows = await facts(second);
    expect(rows.filter((r) => r.kind === KIND.opened)).to.have.length(1);
    expect(ms(rows, KIND.tme)).to.deep.equal([1_800_000]);
    expect(ms(rows, KIND.tma)).to.deep.equal([3_600_000]);
  });

  it('gives no TMA to a call finished without an agent message (a bot resolved it)', async () => {
    const call = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-14T10:00:00'));
    const session = await call.botStarts(bot);
    await call.customerWrites(sp('2026-03-14T10:00:00'));
    await call.finish(sp('2026-03-14T10:02:00'));
    await call.botEnds(session, sp('2026-03-14T10:02:00'), 'finished');
    const rows = await facts(call);
    expect(rows.map((r) => r.kind)).to.deep.equal([KIND.opened, KIND.resolved]);
  });

  it('buckets facts by the São Paulo day: 23:59 local is still that day although it is the next day in UTC', async () => {
    const call = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-15T23:50:00'));
    await call.customerWrites(sp('2026-03-15T23:50:00'));
    await call.agentReplies(sp('2026-03-15T23:59:59'));
    await call.finish(sp('2026-03-16T00:00:00'));
    const rows = await facts(call);
    expect(rows.map((r) => [r.kind, r.day])).to.deep.equal([
      [KIND.opened, '2026-03-15'],
      [KIND.tme, '2026-03-15'],
      [KIND.tmr, '2026-03-15'],
      [KIND.resolved, '2026-03-16'],
      [KIND.tma, '2026-03-16'],
    ]);
  });

  it("follows the workspace's own time zone when it is not São Paulo", async () => {
    const tokyo = await makeWorkspace(knex);
    await knex('workspaces').where({ id: tokyo.id }).update({ timeZone: 'Asia/Tokyo' });
    const ch = await makeChannel(knex, tokyo, 'widget');
    // 2026-03-15T20:00 in São Paulo is 2026-03-16T08:00 in Tokyo.
    const call = await ClockedCall.open(knex, tokyo.id, ch.id, sp('2026-03-15T20:00:00'));
    expect((await facts(call)).map((r) => r.day)).to.deep.equal(['2026-03-16']);
  });

  it("files each fact under the call's agent and group at that moment", async () => {
    const group = await makeGroup(knex, ws);
    const [op] = await knex('operators').insert({ name: 'Ana Relatório', email: `ana-${Date.now()}@exemplo.com.br`, passwordHash: 'x', verificationLevel: 2 }).returning('id');
    await knex('workspace_members').insert({ workspaceId: ws.id, operatorId: op.id, accessLevel: 3, isActive: true });
    const call = await ClockedCall.open(knex, ws.id, channel.id, sp('2026-03-17T10:00:00'), { groupId: group });
    await call.customerWrites(sp('2026-03-17T10:00:00'));
    await call.assign(op.id, group);
    await call.agentReplies(sp('2026-03-17T10:02:00'));
    await call.finish(sp('2026-03-17T10:10:00'));
    const rows = await facts(call);
    expect(rows.map((r) => [r.kind, r.operatorId, r.groupId])).to.deep.equal([
      [KIND.opened, null, group],
      [KIND.tme, op.id, group],
      [KIND.tmr, op.id, group],
      [KIND.resolved, op.id, group],
      [KIND.tma, op.id, group],
    ]);
  });
});
