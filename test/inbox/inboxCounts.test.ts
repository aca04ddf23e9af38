import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { prng } from '../../scripts/lib/prng';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { compactInboxCounts } from '../../api/inbox/compactInboxCounts';
import { inboundMessage, makeChannel, makeConversation, makeGroup, type TestChannel } from './factories';

/**
 * The maintained inbox counts (migration 20261129213000, docs/performance.md "Inbox list and counters"):
 * kept by a trigger that inserts deltas, folded by the compactor, summed by the counter call and the list's
 * matchCount. Every check compares them with a COUNT(*) of the conversations, never with themselves.
 */

type Bucket = { channelId: number; operatorId: number | null; groupId: number | null; open: number; unread: number };
type Conv = { id: number; operatorId: number | null; groupId: number | null; channelId: number; isFinished: boolean; hasNewMessages: boolean };
interface Who extends TestOperator {
  groups: number[];
}

const ORDER = 'ORDER BY 1, 2 NULLS FIRST, 3 NULLS FIRST';

/** Per bucket, what the trigger and the compactor keep (compacted rows plus deltas). */
async function kept(db: Knex | Knex.Transaction, workspaceId: number): Promise<Bucket[]> {
  const { rows } = await db.raw(
    `SELECT channel_id AS "channelId", operator_id AS "operatorId", group_id AS "groupId", sum(open)::int AS open, sum(unread)::int AS unread FROM (
       SELECT channel_id, operator_id, group_id, open, unread FROM inbox_counts WHERE workspace_id = ?
       UNION ALL SELECT channel_id, operator_id, group_id, open, unread FROM inbox_count_deltas WHERE workspace_id = ?) b
     GROUP BY 1, 2, 3 HAVING sum(open) <> 0 OR sum(unread) <> 0 ${ORDER}`,
    [workspaceId, workspaceId],
  );
  return rows as Bucket[];
}

/** Per bucket, the same counted from the conversations. */
async function counted(db: Knex | Knex.Transaction, workspaceId: number): Promise<Bucket[]> {
  const { rows } = await db.raw(
    `SELECT channel_id AS "channelId", operator_id AS "operatorId", group_id AS "groupId", count(*)::int AS open, count(*) FILTER (WHERE has_new_messages)::int AS unread
     FROM customer_platforms WHERE workspace_id = ? AND NOT is_finished GROUP BY 1, 2, 3 ${ORDER}`,
    [workspaceId],
  );
  return rows as Bucket[];
}

/** SPEC §6 as docs/visibility.md tables it, written out here independently of api/policy (several groups). */
function sees(v: Who, c: Pick<Conv, 'operatorId' | 'groupId'>): boolean {
  const own = c.operatorId === v.id;
  const myGroup = c.groupId !== null && v.groups.includes(c.groupId);
  switch (v.accessLevel) {
    case 10:
    case 9:
      return true;
    case 6:
      return own || c.groupId === null || myGroup;
    case 3:
      return own || myGroup || (c.operatorId === null && c.groupId === null);
    case 2:
      return own || (c.operatorId === null && (c.groupId === null || myGroup));
    default:
      throw new Error(`level ${v.accessLevel}`);
  }
}

describe('inbox counts kept by trigger deltas and compaction', function () {
  this.timeout(300_000);
  let api: TestApi;
  let knex: Knex;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
  });
  after(() => api.close());

  async function conversations(workspaceId: number): Promise<Conv[]> {
    return (await knex('customer_platforms').where({ workspaceId }).select('id', 'operator_id', 'group_id', 'channel_id', 'is_finished', 'has_new_messages')) as Conv[];
  }

  it('equal a COUNT(*) of the conversations in every snapshot while status changes, assignments, transfers, reads and inbound messages race with the compactor', async () => {
    const ws = await makeWorkspace(knex);
    const other = await makeWorkspace(knex);
    const secret = api.config.jwtSecret;
    const owner = await makeOperator(knex, secret, ws, 10);
    const master = await makeOperator(knex, secret, ws, 6);
    const agent = await makeOperator(knex, secret, ws, 3);
    const restricted = await makeOperator(knex, secret, ws, 2);
    const loner = await makeOperator(knex, secret, ws, 3);
    const g1 = await makeGroup(knex, ws, [agent.id, restricted.id]);
    const g2 = await makeGroup(knex, ws, [master.id]);
    const viewers: Who[] = [
      { ...owner, groups: [] },
      { ...master, groups: [g2] },
      { ...agent, groups: [g1] },
      { ...restricted, groups: [g1] },
      { ...loner, groups: [] },
    ];
    const channels = [await makeChannel(knex, ws, 'widget'), await makeChannel(knex, ws, 'telegram')];
    const otherChannel = await makeChannel(knex, other, 'widget');
    const operators = [null, owner.id, master.id, agent.id, restricted.id, loner.id];
    const groups = [null, g1, g2];
    const rnd = prng(3131);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

    const visitors = new Map<number, { visitor: string; channel: TestChannel }>();
    for (let i = 0; i < 24; i++) {
      const channel = channels[i % 2];
      const c = await makeConversation(api.deps, channel, { operatorId: pick(operators), groupId: pick(groups), read: rnd() < 0.4 });
      visitors.set(c.conversationId, { visitor: c.visitor, channel });
    }
    for (let i = 0; i < 4; i++) await makeConversation(api.deps, otherChannel);
    // A few hot rows that every worker touches, so changes of one row queue behind each other.
    const hot = [...visitors.keys()].slice(0, 6);

    const errors: string[] = [];
    const snapshots: string[] = [];
    let running = true;
    const step = async () => {
      const id = rnd() < 0.6 ? pick(hot) : pick([...visitors.keys()]);
      const r = rnd();
      const post = (path: string, body: unknown) => api.request('POST', path, { token: owner.token, body });
      if (r < 0.12) await post(`/api/inbox/all/${id}`, { status: rnd() < 0.5 ? 'resolve' : 'open' });
      else if (r < 0.22) await post(`/api/inbox/conversations/${id}/read`, {});
      else if (r < 0.32) await post('/api/calls/transfer-operator', { customerPlatformId: id, operatorId: pick(operators) });
      else if (r < 0.4) await post('/api/calls/transfer-group', { customerPlatformId: id, groupId: pick(groups) });
      else if (r < 0.52) {
        const v = visitors.get(id)!;
        await receiveInbound(api.deps, inboundMessage(v.channel, { identity: { externalId: v.visitor, name: 'Cliente' } }));
      } else if (r < 0.58) {
        const channel = rnd() < 0.8 ? pick(channels) : otherChannel;
        const message = inboundMessage(channel);
        const res = await receiveInbound(api.deps, message);
        if (channel !== otherChannel) visitors.set(res.conversationId, { visitor: message.identity.externalId, channel });
      } else if (r < 0.72) {
        // Several changes of one row in one transaction, some rolled back: each committed change counts once.
        await knex
          .transaction(async (trx) => {
            await trx('customer_platforms').where({ id }).update({ operatorId: pick(operators), hasNewMessages: true });
            await trx('customer_platforms').where({ id }).update({ isFinished: rnd() < 0.5, groupId: pick(groups) });
            if (rnd() < 0.3) throw new Error('desfeito');
          })
          .catch((err: Error) => {
            if (err.message !== 'desfeito') throw err;
          });
      } else if (r < 0.8) {
        // One statement moving many rows between buckets (what a group deletion's SET NULL does), the rows
        // locked in id order first so two of these cannot deadlock on each other.
        const groupId = pick(groups);
        await knex.transaction(async (trx) => {
          await trx('customer_platforms').whereIn('id', hot).orderBy('id').forUpdate().select('id');
          await trx('customer_platforms').whereIn('id', hot).where({ workspaceId: ws.id }).update({ groupId });
        });
      } else if (r < 0.9) {
        await knex('customer_platforms').where({ id }).update({ hasNewMessages: rnd() < 0.5, lastMessageAt: new Date() });
      } else {
        await knex('customer_platforms').where({ id }).update({ operatorId: pick(operators), isFinished: rnd() < 0.3 });
      }
    };
    const workers = [0, 1, 2, 3, 4].map(async () => {
      for (let n = 0; n < 40; n++) {
        try {
          await step();
        } catch (err) {
          errors.push(String(err));
        }
      }
    });
    const compactor = (async () => {
      while (running) await compactInboxCounts(knex, 7);
    })();
    // Reads in one snapshot: what is kept must equal what is counted while the writers run.
    const checker = (async () => {
      while (running) {
        await knex.transaction(
          async (trx) => {
            for (const id of [ws.id, other.id]) {
              const [k, c] = [await kept(trx, id), await counted(trx, id)];
              if (JSON.stringify(k) !== JSON.stringify(c)) snapshots.push(`${JSON.stringify(k)} ≠ ${JSON.stringify(c)}`);
            }
          },
          { isolationLevel: 'repeatable read' },
        );
      }
    })();
    await Promise.all(workers);
    running = false;
    await Promise.all([compactor, checker]);

    expect(errors, errors.join('\n')).to.deep.equal([]);
    expect(snapshots, snapshots.slice(0, 3).join('\n')).to.deep.equal([]);
    expect(await kept(knex, ws.id)).to.deep.equal(await counted(knex, ws.id));
    expect(await kept(knex, other.id)).to.deep.equal(await counted(knex, other.id));
    while ((await compactInboxCounts(knex)) > 0) {
      /* drain */
    }
    expect(await knex('inbox_count_deltas').whereIn('workspace_id', [ws.id, other.id])).to.have.length(0);
    expect(await kept(knex, ws.id)).to.deep.equal(await counted(knex, ws.id));
    expect(await knex('inbox_counts').where({ workspaceId: ws.id, open: 0, unread: 0 }), 'empty buckets are deleted').to.have.length(0);

    // Each level's counters and list counts are the visible conversations of its own workspace only.
    const favourite = (await conversations(ws.id)).filter((c) => sees(viewers[2], c))[0];
    await api.request('POST', `/api/inbox/favorites/${favourite.id}`, { token: agent.token });
    const segments = [{ channels: [channels[1].id] }, { assigned: false }, { groups: [g1] }, { agents: [agent.id, loner.id] }, { starred: true }];
    const segmentIds: number[] = [];
    for (const filters of segments) {
      const [row] = await knex('segments').insert({ workspaceId: ws.id, operatorId: owner.id, name: 'filtro', isPublic: true, filters: JSON.stringify(filters) }).returning('id');
      for (const v of viewers) await knex('segment_subscriptions').insert({ workspaceId: ws.id, segmentId: row.id, operatorId: v.id });
      segmentIds.push(row.id as number);
    }
    const rows = await conversations(ws.id);
    const open = rows.filter((c) => !c.isFinished);
    for (const v of viewers) {
      const visible = open.filter((c) => sees(v, c));
      const unread = visible.filter((c) => c.hasNewMessages);
      const counter = await api.request('POST', '/api/inbox/counter', { token: v.token, body: {} });
      const starred = v.id === agent.id ? unread.filter((c) => c.id === favourite.id).length : 0;
      expect(counter.body.data, `nível ${v.accessLevel}`).to.deep.equal({
        all: unread.length,
        me: open.filter((c) => c.operatorId === v.id && c.hasNewMessages).length,
        starred,
        archived: 0,
        pending: visible.filter((c) => c.operatorId === null).length,
        segments: {
          [segmentIds[0]]: unread.filter((c) => c.channelId === channels[1].id).length,
          [segmentIds[1]]: unread.filter((c) => c.operatorId === null).length,
          [segmentIds[2]]: unread.filter((c) => c.groupId === g1).length,
          [segmentIds[3]]: unread.filter((c) => c.operatorId === agent.id || c.operatorId === loner.id).length,
          [segmentIds[4]]: starred,
        },
      });
      const list = await api.request('GET', '/api/inbox?segmentId=all&limit=1', { token: v.token });
      expect(list.body, `nível ${v.accessLevel}`).to.include({ matchCount: visible.length, totalCount: visible.length });
      const mine = await api.request('GET', '/api/inbox?segmentId=me&limit=1', { token: v.token });
      expect(mine.body.matchCount, `nível ${v.accessLevel} Meus`).to.equal(open.filter((c) => c.operatorId === v.id).length);
      const byChannel = await api.request('GET', `/api/inbox?segmentId=${segmentIds[0]}&limit=1`, { token: v.token });
      expect(byChannel.body.matchCount, `nível ${v.accessLevel} canal`).to.equal(visible.filter((c) => c.channelId === channels[1].id).length);
    }
  });

  it('never make two writers of one bucket wait for each other: a change commits while another of the same bucket is still open', async () => {
    const ws: TestWorkspace = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const a = await makeConversation(api.deps, channel);
    const b = await makeConversation(api.deps, channel);
    const first = await knex.transaction();
    try {
      await first('customer_platforms').where({ id: a.conversationId }).update({ hasNewMessages: false });
      // Same bucket (channel, unassigned, no group), another conversation: a shared counter row would block here.
      await knex.transaction(async (trx) => {
        await trx.raw("SET LOCAL lock_timeout = '2s'");
        await trx('customer_platforms').where({ id: b.conversationId }).update({ hasNewMessages: false });
      });
      expect(await kept(knex, ws.id)).to.deep.equal([{ channelId: channel.id, operatorId: null, groupId: null, open: 2, unread: 1 }]);
      await first.commit();
    } finally {
      if (!first.isCompleted()) await first.rollback();
    }
    expect(await kept(knex, ws.id)).to.deep.equal(await counted(knex, ws.id));
  });

  it('fold each delta once when compactors run at the same time', async () => {
    const ws = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await makeConversation(api.deps, channel)).conversationId);
    for (let i = 0; i < 30; i++) await knex('customer_platforms').where({ id: ids[i % 10] }).update({ hasNewMessages: i % 2 === 0, isFinished: i % 3 === 0 });
    const before = await counted(knex, ws.id);
    await Promise.all([1, 2, 3, 4].map(() => compactInboxCounts(knex, 3)));
    while ((await compactInboxCounts(knex)) > 0) {
      /* drain */
    }
    expect(await knex('inbox_count_deltas').where({ workspaceId: ws.id })).to.have.length(0);
    expect(await kept(knex, ws.id)).to.deep.equal(before);
  });

  it('let a workspace with open conversations and uncompacted deltas be deleted, its counts with it', async () => {
    const gone = await makeWorkspace(knex);
    const channel = await makeChannel(knex, gone);
    await makeConversation(api.deps, channel);
    await makeConversation(api.deps, channel);
    await compactInboxCounts(knex);
    await makeConversation(api.deps, channel);
    expect(await kept(knex, gone.id)).to.deep.equal(await counted(knex, gone.id));
    await knex('workspaces').where({ id: gone.id }).delete();
    expect(await knex('inbox_counts').where({ workspaceId: gone.id })).to.have.length(0);
    expect(await knex('inbox_count_deltas').where({ workspaceId: gone.id })).to.have.length(0);
  });
});
