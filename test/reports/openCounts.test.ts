import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, type TestChannel } from '../inbox/factories';
import { prng } from '../../scripts/lib/prng';

/** The dashboard's open counts (migration 20261128161000, docs/reports.md "Dashboard"). */
describe("reports: the dashboard's waiting and assigned counts kept by trigger", function () {
  this.timeout(120_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  let channels: TestChannel[];

  /** What the trigger keeps, per channel: the sums of the channel's shard rows. */
  const kept = async () =>
    Object.fromEntries(
      ((await knex('inbox_open_counts').where({ workspaceId: ws.id }).groupBy('channel_id').select('channel_id', knex.raw('sum(waiting)::int AS waiting'), knex.raw('sum(assigned)::int AS assigned'))) as { channelId: number; waiting: number; assigned: number }[])
        .filter((r) => r.waiting !== 0 || r.assigned !== 0)
        .map((r) => [r.channelId, { waiting: r.waiting, assigned: r.assigned }]),
    );
  /** The same counted from the conversations. */
  const counted = async () =>
    Object.fromEntries(
      ((await knex('customer_platforms').where({ workspaceId: ws.id, isFinished: false }).groupBy('channel_id').select('channel_id', knex.raw('count(*) FILTER (WHERE operator_id IS NULL)::int AS waiting'), knex.raw('count(*) FILTER (WHERE operator_id IS NOT NULL)::int AS assigned'))) as { channelId: number; waiting: number; assigned: number }[]).map((r) => [r.channelId, { waiting: r.waiting, assigned: r.assigned }]),
    );

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    channels = [await makeChannel(knex, ws, 'widget'), await makeChannel(knex, ws, 'telegram')];
  });
  after(async () => {
    await api.close();
  });

  it('equal a count of the open conversations after conversations open, are assigned, finish, reopen and are deleted, in and out of transactions', async () => {
    const rnd = prng(31);
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) ids.push((await makeConversation(api.deps, channels[i % 2], { operatorId: rnd() < 0.5 ? agent.id : null })).conversationId);
    expect(await kept()).to.deep.equal(await counted());
    const pick = () => ids[Math.floor(rnd() * ids.length)];
    for (let step = 0; step < 60; step++) {
      const id = pick();
      const r = rnd();
      if (r < 0.3) await knex('customer_platforms').where({ id }).update({ operatorId: rnd() < 0.5 ? null : agent.id });
      else if (r < 0.5) await knex('customer_platforms').where({ id }).update({ isFinished: rnd() < 0.6 });
      else if (r < 0.7) {
        // Several changes of one row in one transaction: each is counted once, in order.
        await knex.transaction(async (trx) => {
          await trx('customer_platforms').where({ id }).update({ operatorId: agent.id });
          await trx('customer_platforms').where({ id }).update({ isFinished: true });
          await trx('customer_platforms').where({ id }).update({ isFinished: false, operatorId: null });
        });
      } else if (r < 0.8) {
        // A rolled-back change counts nothing.
        await knex
          .transaction(async (trx) => {
            await trx('customer_platforms').where({ id }).update({ isFinished: true });
            throw new Error('desfeito');
          })
          .catch(() => undefined);
      } else if (r < 0.85 && ids.length > 10) {
        await knex('customer_platforms').where({ id }).delete();
        ids.splice(ids.indexOf(id), 1);
      } else {
        // A row updated without touching the counted columns fires nothing that matters.
        await knex('customer_platforms').where({ id }).update({ hasNewMessages: rnd() < 0.5 });
      }
      expect(await kept(), `step ${step}`).to.deep.equal(await counted());
    }
  });

  it("answers the dashboard's waiting and assigned from the kept counts for the owner and from a count for an agent, the same figures either way", async () => {
    const get = async (token: string) => (await (await fetch(`${api.url}/api/dashboard`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { inbox: { waiting: number; assigned: number } } };
    const all = await counted();
    const sum = (k: 'waiting' | 'assigned') => Object.values(all).reduce((n, c) => n + c[k], 0);
    const ownerView = (await get(owner.token)).data;
    expect(ownerView.inbox).to.include({ waiting: sum('waiting'), assigned: sum('assigned') });
    // The counts are what the owner reads: change them behind the trigger's back and the dashboard follows.
    const row = (await knex('inbox_open_counts').where({ workspaceId: ws.id }).first('channel_id', 'shard')) as { channelId: number; shard: number };
    const one = () => knex('inbox_open_counts').where({ workspaceId: ws.id, channelId: row.channelId, shard: row.shard });
    await one().increment('waiting', 1000);
    try {
      expect((await get(owner.token)).data.inbox.waiting).to.equal(sum('waiting') + 1000);
      const mine = await knex('customer_platforms').where({ workspaceId: ws.id, isFinished: false, operatorId: agent.id }).count({ n: '*' }).first();
      expect((await get(agent.token)).data.inbox.assigned).to.equal(Number(mine?.n));
    } finally {
      await one().decrement('waiting', 1000);
    }
  });

  it('let a workspace with open conversations be deleted, its counts with it', async () => {
    const gone = await makeWorkspace(knex);
    const channel = await makeChannel(knex, gone, 'widget');
    await makeConversation(api.deps, channel);
    expect(await knex('inbox_open_counts').where({ workspaceId: gone.id }).sum({ n: 'waiting' }).first().then((r) => Number(r?.n))).to.equal(1);
    await knex('workspaces').where({ id: gone.id }).delete();
    expect(await knex('inbox_open_counts').where({ workspaceId: gone.id })).to.have.length(0);
  });
});
