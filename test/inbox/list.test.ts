import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { makeOperator } from '../helpers/factories';
import { freshInbox, makeChannel, makeConversation, makeGroup, makeLabel } from './factories';
import { listConversations } from '../../api/inbox/listConversations';
import { countConversations } from '../../api/inbox/countConversations';
import { loadViewer } from '../../api/policy/conversations';
import { InboxListQuerySchema } from '../../api/inbox/schema';

type Row = { id: number; name: string; lastMessageAt: string };

describe('GET /inbox: segments, search, keyset pages and counts', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
  });
  after(() => api.close());

  const fresh = (level: 10 | 3 = 10) => freshInbox(knex, api.config.jwtSecret, level);

  async function pages(token: string, params: Record<string, string>, limit: number): Promise<{ ids: number[]; pages: number; matchCounts: number[] }> {
    const ids: number[] = [];
    const matchCounts: number[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const q: URLSearchParams = new URLSearchParams({ ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
      const res: ApiResponse = await api.request('GET', `/api/inbox?${q}`, { token });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids.push(...res.body.data.map((c: Row) => c.id));
      matchCounts.push(res.body.matchCount);
      cursor = res.body.nextCursor;
      n++;
    } while (cursor && n < 100);
    return { ids, pages: n, matchCounts };
  }

  it('keyset pages are stable and complete across 120 conversations with equal timestamps', async () => {
    const { ws, op, channel } = await fresh();
    const created: number[] = [];
    for (let i = 0; i < 120; i++) created.push((await makeConversation(api.deps, channel)).conversationId);
    await knex('customer_platforms').where({ workspaceId: ws.id }).update({ lastMessageAt: new Date('2026-11-22T10:00:00.123456Z') });

    const first = await pages(op.token, { segmentId: 'all' }, 20);
    expect(first.ids).to.deep.equal([...created].sort((a, b) => b - a));
    expect(first.pages).to.equal(6);
    expect(new Set(first.matchCounts)).to.deep.equal(new Set([120]));

    // A new message while paging moves one conversation to the top: later pages neither repeat nor skip the rest.
    const q1 = await api.request('GET', '/api/inbox?segmentId=all&limit=50', { token: op.token });
    const moved = created[10];
    await knex('customer_platforms').where({ id: moved }).update({ lastMessageAt: new Date('2026-11-22T11:00:00Z') });
    const q2 = await api.request('GET', `/api/inbox?segmentId=all&limit=50&cursor=${q1.body.nextCursor}`, { token: op.token });
    const q3 = await api.request('GET', `/api/inbox?segmentId=all&limit=50&cursor=${q2.body.nextCursor}`, { token: op.token });
    expect(q3.body.nextCursor).to.equal(null);
    const seen = [...q1.body.data, ...q2.body.data, ...q3.body.data].map((c: Row) => c.id);
    expect(new Set(seen).size).to.equal(seen.length);
    expect(created.filter((id) => id !== moved).every((id) => seen.includes(id))).to.equal(true);
  });

  it('keeps microsecond timestamps apart across a page boundary', async () => {
    const { ws, op, channel } = await fresh();
    const a = await makeConversation(api.deps, channel);
    const b = await makeConversation(api.deps, channel);
    // b (higher id) is older by 0.4 ms: a JS Date cursor would skip it.
    await knex('customer_platforms').where({ id: a.conversationId }).update({ lastMessageAt: knex.raw("'2026-11-22T10:00:00.123456Z'::timestamptz") });
    await knex('customer_platforms').where({ id: b.conversationId }).update({ lastMessageAt: knex.raw("'2026-11-22T10:00:00.123056Z'::timestamptz") });
    const got = await pages(op.token, { segmentId: 'all' }, 1);
    expect(got.ids).to.deep.equal([a.conversationId, b.conversationId]);
    expect(ws.id).to.be.a('number');
  });

  it('falls back to offset paging without a cursor', async () => {
    const { op, channel } = await fresh();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await makeConversation(api.deps, channel)).conversationId);
    const res = await api.request('GET', '/api/inbox?segmentId=all&limit=2&offset=2', { token: op.token });
    expect(res.body.data.map((c: Row) => c.id)).to.deep.equal([ids[2], ids[1]]);
    expect(res.body).to.include({ matchCount: 5, totalCount: 5 });
    const past = await api.request('GET', '/api/inbox?segmentId=all&limit=2&offset=10', { token: op.token });
    expect(past.body).to.deep.include({ data: [], matchCount: 5, totalCount: 5, nextCursor: null });
  });

  it('searches name, phone, e-mail, identifier and last message text, with LIKE wildcards taken literally', async () => {
    const { op, channel, ws } = await fresh();
    const ana = await makeConversation(api.deps, channel, { name: 'Ana Paula', text: 'quero um bolo' });
    const bia = await makeConversation(api.deps, channel, { name: 'Bia 100%', visitor: 'visitante-xyz', text: 'pão de queijo' });
    const cli = await makeConversation(api.deps, channel, { name: 'Carlos', text: 'oi' });
    await knex('customers').where({ id: knex('customer_platforms').where({ id: cli.conversationId }).select('customer_id') }).update({ phone: '5511988887777', email: 'carlos@exemplo.com.br' });
    const search = async (query: string) => {
      const res = await api.request('GET', `/api/inbox?segmentId=all&query=${encodeURIComponent(query)}`, { token: op.token });
      expect(res.status).to.equal(200);
      return res.body;
    };
    expect((await search('ana p')).data.map((c: Row) => c.id)).to.deep.equal([ana.conversationId]);
    expect((await search('BOLO')).data.map((c: Row) => c.id)).to.deep.equal([ana.conversationId]);
    expect((await search('xyz')).data.map((c: Row) => c.id)).to.deep.equal([bia.conversationId]);
    expect((await search('88887')).data.map((c: Row) => c.id)).to.deep.equal([cli.conversationId]);
    expect((await search('carlos@')).data.map((c: Row) => c.id)).to.deep.equal([cli.conversationId]);
    expect((await search('100%')).data.map((c: Row) => c.id)).to.deep.equal([bia.conversationId]);
    const percent = await search('%');
    expect(percent.data.map((c: Row) => c.id)).to.deep.equal([bia.conversationId]);
    expect(percent).to.include({ matchCount: 1, totalCount: 3 });
    expect((await search('_')).data).to.deep.equal([]);
    expect(ws.id).to.be.a('number');
  });

  it('lists "archived" as resolved conversations and "starred" as the caller\'s favourites, open or not', async () => {
    const { op, channel, ws } = await fresh();
    const colleague = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    const open = await makeConversation(api.deps, channel);
    const resolved = await makeConversation(api.deps, channel);
    const other = await makeConversation(api.deps, channel);
    await api.request('POST', `/api/inbox/all/${resolved.conversationId}`, { token: op.token, body: { status: 'resolve' } });
    for (const id of [open.conversationId, resolved.conversationId]) {
      expect((await api.request('POST', `/api/inbox/favorites/${id}`, { token: op.token })).body.data).to.deep.equal({ id, starred: true });
    }
    await api.request('POST', `/api/inbox/favorites/${other.conversationId}`, { token: colleague.token });
    const ids = async (segmentId: string, token = op.token) => (await api.request('GET', `/api/inbox?segmentId=${segmentId}`, { token })).body.data.map((c: Row) => c.id);
    expect(await ids('all')).to.deep.equal([other.conversationId, open.conversationId]);
    expect(await ids('archived')).to.deep.equal([resolved.conversationId]);
    expect(await ids('starred')).to.deep.equal([resolved.conversationId, open.conversationId]);
    expect(await ids('starred', colleague.token)).to.deep.equal([other.conversationId]);
    const list = await api.request('GET', '/api/inbox?segmentId=all', { token: op.token });
    expect(list.body.data.map((c: { starred: boolean }) => c.starred)).to.deep.equal([false, true]);
    const counter = await api.request('POST', '/api/inbox/counter', { token: op.token });
    expect(counter.body.data).to.include({ all: 2, starred: 1, archived: 0 });
  });

  it('applies a custom segment\'s filters: my, assigned, open, starred, channels, groups, agents, tags and contact properties', async () => {
    const { op, channel, ws } = await fresh();
    const agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    const email = await makeChannel(knex, ws, 'email');
    const group = await makeGroup(knex, ws, [agent.id]);
    const vip = await makeLabel(knex, ws, 'Vip');
    const mine = await makeConversation(api.deps, channel, { operatorId: op.id });
    const agents = await makeConversation(api.deps, channel, { operatorId: agent.id, groupId: group });
    const unassigned = await makeConversation(api.deps, email);
    const resolved = await makeConversation(api.deps, channel);
    await api.request('POST', `/api/inbox/all/${resolved.conversationId}`, { token: op.token, body: { status: 'resolve' } });
    await api.request('PUT', '/api/inbox/tag', { token: op.token, body: { id: agents.conversationId, tags: [vip] } });
    await api.request('POST', `/api/inbox/favorites/${unassigned.conversationId}`, { token: op.token });
    const customerId = (await knex('customer_platforms').where({ id: mine.conversationId }).first('customer_id')).customerId;
    await knex('customer_properties').insert({ workspaceId: ws.id, customerId, label: 'Plano', code: 'plano', value: 'Ouro' });

    const segment = async (filters: Record<string, unknown>, isPublic = false) => {
      const [row] = await knex('segments').insert({ workspaceId: ws.id, operatorId: op.id, name: 'filtro', isPublic, filters: JSON.stringify(filters) }).returning('id');
      await knex('segment_subscriptions').insert({ workspaceId: ws.id, segmentId: row.id, operatorId: op.id });
      return row.id as number;
    };
    const ids = async (segmentId: number) => {
      const res = await api.request('GET', `/api/inbox?segmentId=${segmentId}`, { token: op.token });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.map((c: Row) => c.id).sort();
    };
    const cases: [Record<string, unknown>, number[]][] = [
      [{}, [mine, agents, unassigned].map((c) => c.conversationId)],
      [{ my: true }, [mine.conversationId]],
      [{ assigned: true }, [mine.conversationId, agents.conversationId]],
      [{ assigned: false }, [unassigned.conversationId]],
      [{ open: false }, [resolved.conversationId]],
      [{ starred: true }, [unassigned.conversationId]],
      [{ channels: [email.id] }, [unassigned.conversationId]],
      [{ groups: [group] }, [agents.conversationId]],
      [{ agents: [agent.id, op.id] }, [mine.conversationId, agents.conversationId]],
      [{ tags: [vip] }, [agents.conversationId]],
      [{ customerProps: { property: 'plano', value: 'ouro' } }, [mine.conversationId]],
      [{ customerProps: { property: 'Plano', value: 'Prata' } }, []],
    ];
    const segmentIds: number[] = [];
    for (const [filters, expected] of cases) {
      const id = await segment(filters);
      segmentIds.push(id);
      expect(await ids(id), JSON.stringify(filters)).to.deep.equal([...expected].sort());
    }
    const counter = await api.request('POST', '/api/inbox/counter', { token: op.token });
    cases.forEach(([filters, expected], i) => {
      // Unread = open and not read: the resolved one never counts.
      const unread = expected.filter((id) => id !== resolved.conversationId).length;
      expect(counter.body.data.segments[String(segmentIds[i])], JSON.stringify(filters)).to.equal(unread);
    });

    // Someone else's private segment and another workspace's are 404; a public one is usable.
    const [priv] = await knex('segments').insert({ workspaceId: ws.id, operatorId: agent.id, name: 'privado', isPublic: false, filters: '{}' }).returning('id');
    const [pub] = await knex('segments').insert({ workspaceId: ws.id, operatorId: agent.id, name: 'público', isPublic: true, filters: '{"my":true}' }).returning('id');
    expect((await api.request('GET', `/api/inbox?segmentId=${priv.id}`, { token: op.token })).status).to.equal(404);
    expect(await ids(pub.id)).to.deep.equal([mine.conversationId]);
    const stranger = await fresh();
    expect((await api.request('GET', `/api/inbox?segmentId=${pub.id}`, { token: stranger.op.token })).status).to.equal(404);
  });

  it('rejects bad list parameters with field errors', async () => {
    const { op } = await fresh();
    const bad = async (qs: string, key: string) => {
      const res = await api.request('GET', `/api/inbox?${qs}`, { token: op.token });
      expect(res.status, qs).to.equal(400);
      expect(res.body.errors.map((e: { key: string }) => e.key), qs).to.include(key);
    };
    await bad('segmentId=qualquer', 'segmentId');
    await bad('limit=abc', 'limit');
    await bad('limit=0', 'limit');
    await bad('offset=-1', 'offset');
    await bad('cursor=nao-e-um-cursor', 'cursor');
    await bad(`cursor=${Buffer.from('["2026-01-01", 1]').toString('base64url')}`, 'cursor');
    const capped = await api.request('GET', '/api/inbox?limit=5000', { token: op.token });
    expect(capped.status).to.equal(200);
    expect((await api.request('GET', '/api/inbox')).status).to.equal(401);
  });

  it('reads a page in one statement plus one query for tags, whatever the page size', async () => {
    const { ws, op, channel } = await fresh(3);
    const group = await makeGroup(knex, ws, [op.id]);
    const tag = await makeLabel(knex, ws);
    for (let i = 0; i < 30; i++) {
      const c = await makeConversation(api.deps, channel, { groupId: i % 2 ? group : null, operatorId: i % 3 ? null : op.id });
      await knex('call_labels').insert({ workspaceId: ws.id, callId: c.callId, labelId: tag });
    }
    const viewer = await loadViewer(knex, { workspaceId: ws.id, operatorId: op.id, accessLevel: 3 });
    for (const limit of ['5', '25']) {
      const queries: string[] = [];
      const onQuery = (q: { sql: string }) => queries.push(q.sql);
      knex.on('query', onQuery);
      try {
        const page = await listConversations(api.deps, viewer, InboxListQuerySchema.parse({ segmentId: 'all', limit }));
        expect(page.data).to.have.length(Number(limit));
        expect(page.data.every((c) => c.tags.length === 1)).to.equal(true);
      } finally {
        knex.off('query', onQuery);
      }
      expect(queries, queries.join('\n')).to.have.length(2);
    }
  });

  it('walks the keyset indexes: inbox_idx for admins, assignee/group indexes for the arms of an operator', async () => {
    const { ws, op, channel } = await fresh(3);
    const others = await Promise.all([1, 2, 3, 4].map(() => makeOperator(knex, api.config.jwtSecret, ws, 3)));
    const groups = [await makeGroup(knex, ws, [op.id]), await makeGroup(knex, ws), await makeGroup(knex, ws)];
    const assignees = [op.id, ...others.map((o) => o.id)];
    // Enough rows for the planner's real choices: 20,000 conversations, 10% open.
    await knex.raw(
      `WITH c AS (INSERT INTO customers (workspace_id, name) SELECT ?, 'Cliente ' || g FROM generate_series(1, 20000) g RETURNING id)
       INSERT INTO customer_platforms (workspace_id, channel_id, customer_id, external_id, operator_id, group_id, is_finished, last_message_at)
       SELECT ?, ?, c.id, 'bulk-' || c.id,
              CASE WHEN c.id % 3 = 0 THEN NULL ELSE (?::int[])[1 + c.id % 5] END,
              CASE WHEN c.id % 4 = 0 THEN NULL ELSE (?::int[])[1 + c.id % 3] END,
              c.id % 10 <> 0, now() - (c.id || ' seconds')::interval
       FROM c`,
      [ws.id, ws.id, channel.id, assignees, groups],
    );
    await knex.raw('ANALYZE customer_platforms');
    await knex.raw('ANALYZE customers');
    const plan = async (level: 10 | 3) => {
      const viewer = await loadViewer(knex, { workspaceId: ws.id, operatorId: op.id, accessLevel: level });
      const queries: { sql: string; bindings: readonly unknown[] }[] = [];
      const onQuery = (q: { sql: string; bindings: readonly unknown[] }) => queries.push(q);
      knex.on('query', onQuery);
      try {
        await listConversations(api.deps, viewer, InboxListQuerySchema.parse({ segmentId: 'all', limit: '20' }));
      } finally {
        knex.off('query', onQuery);
      }
      const { rows } = await knex.raw(`EXPLAIN ${queries[0].sql.replace(/\$\d+/g, '?')}`, queries[0].bindings as Knex.Value[]);
      return (rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
    };
    const admin = await plan(10);
    expect(admin, admin).to.match(/customer_platforms_inbox_idx/);
    expect(admin, admin).to.not.match(/Seq Scan on customer_platforms/);
    const operator = await plan(3);
    if (process.env.SHOW_PLANS) console.log(admin, '\n-----\n', operator);
    expect(operator, operator).to.match(/customer_platforms_assignee_idx/);
    expect(operator, operator).to.match(/customer_platforms_group_idx/);
    expect(operator, operator).to.not.match(/Seq Scan on customer_platforms/);
    // matchCount is a sum of the count buckets the viewer sees, not a count of conversations.
    for (const p of [admin, operator]) expect(p, p).to.match(/on inbox_counts\b/);

    // Counters sum the maintained count buckets; only "Favoritos" reads conversations, by the caller's favourites.
    await knex('customer_platforms').where({ workspaceId: ws.id, isFinished: false }).whereRaw('id % 7 = 0').update({ hasNewMessages: true });
    await knex.raw('ANALYZE customer_platforms');
    for (const level of [10, 3] as const) {
      const viewer = await loadViewer(knex, { workspaceId: ws.id, operatorId: op.id, accessLevel: level });
      const queries: { sql: string; bindings: readonly unknown[] }[] = [];
      const onQuery = (q: { sql: string; bindings: readonly unknown[] }) => queries.push(q);
      knex.on('query', onQuery);
      try {
        await countConversations(api.deps, viewer);
      } finally {
        knex.off('query', onQuery);
      }
      expect(queries, 'segments, then every count in one statement').to.have.length(2);
      const { rows } = await knex.raw(`EXPLAIN ${queries[1].sql.replace(/\$\d+/g, '?')}`, queries[1].bindings as Knex.Value[]);
      const counterPlan = (rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
      if (process.env.SHOW_PLANS) console.log(counterPlan);
      expect(counterPlan, counterPlan).to.match(/on inbox_counts\b/);
      expect(counterPlan, counterPlan).to.match(/on inbox_count_deltas\b/);
      expect(counterPlan, counterPlan).to.not.match(/customer_platforms_(unread|waiting|inbox|assignee|group)_idx|Seq Scan on customer_platforms/);
    }
  });
});
