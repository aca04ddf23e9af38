import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabase } from '../helpers/db';
import { makeWorkspace, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup } from '../inbox/factories';
import { ClockedCall, makeBot, sp } from './clock';
import { bucketBounds, emptyHistogram, HISTOGRAM_BUCKETS, mergeInto, quantile } from '../../api/reports/histogram';
import { prng } from '../../scripts/lib/prng';
import { agentsReport, figures } from '../../api/reports/figures';


const AGGREGATE_COLUMNS = ['new_count', 'resolved_count', 'tme_count', 'tme_sum_ms', 'tme_hist', 'tmr_count', 'tmr_sum_ms', 'tmr_hist', 'tma_count', 'tma_sum_ms', 'tma_hist', 'calls_count'];

/** report_daily recomputed from report_facts alone, in the same shape (calls_count: docs/reports.md "Total per agent"). */
const RECOMPUTE = `
  SELECT to_char(day, 'YYYY-MM-DD') AS day, coalesce(operator_id, 0) AS operator_id, channel_id, coalesce(group_id, 0) AS group_id,
    count(*) FILTER (WHERE kind = 1)::int AS new_count,
    count(*) FILTER (WHERE kind = 2)::int AS resolved_count,
    count(*) FILTER (WHERE kind = 3)::int AS tme_count, coalesce(sum(ms) FILTER (WHERE kind = 3), 0)::bigint AS tme_sum_ms,
    (SELECT array_agg((SELECT count(*) FROM report_facts g WHERE g.workspace_id = f.workspace_id AND g.day = f.day AND coalesce(g.operator_id, 0) = coalesce(f.operator_id, 0)
       AND g.channel_id = f.channel_id AND coalesce(g.group_id, 0) = coalesce(f.group_id, 0) AND g.kind = 3 AND report_bucket(g.ms) = i)::int ORDER BY i) FROM generate_series(1, 120) i) AS tme_hist,
    count(*) FILTER (WHERE kind = 4)::int AS tmr_count, coalesce(sum(ms) FILTER (WHERE kind = 4), 0)::bigint AS tmr_sum_ms,
    (SELECT array_agg((SELECT count(*) FROM report_facts g WHERE g.workspace_id = f.workspace_id AND g.day = f.day AND coalesce(g.operator_id, 0) = coalesce(f.operator_id, 0)
       AND g.channel_id = f.channel_id AND coalesce(g.group_id, 0) = coalesce(f.group_id, 0) AND g.kind = 4 AND report_bucket(g.ms) = i)::int ORDER BY i) FROM generate_series(1, 120) i) AS tmr_hist,
    count(*) FILTER (WHERE kind = 5)::int AS tma_count, coalesce(sum(ms) FILTER (WHERE kind = 5), 0)::bigint AS tma_sum_ms,
    (SELECT array_agg((SELECT count(*) FROM report_facts g WHERE g.workspace_id = f.workspace_id AND g.day = f.day AND coalesce(g.operator_id, 0) = coalesce(f.operator_id, 0)
       AND g.channel_id = f.channel_id AND coalesce(g.group_id, 0) = coalesce(f.group_id, 0) AND g.kind = 5 AND report_bucket(g.ms) = i)::int ORDER BY i) FROM generate_series(1, 120) i) AS tma_hist,
    -- Each (call, agent) pair once, under the key of the agent's first fact in the call.
    (SELECT count(*) FROM report_facts g WHERE g.workspace_id = f.workspace_id AND g.day = f.day AND g.operator_id = f.operator_id
       AND g.channel_id = f.channel_id AND coalesce(g.group_id, 0) = coalesce(f.group_id, 0)
       AND g.id = (SELECT min(h.id) FROM report_facts h WHERE h.call_id = g.call_id AND h.operator_id = g.operator_id))::int AS calls_count
  FROM report_facts f WHERE workspace_id = ?
  GROUP BY f.workspace_id, day, coalesce(operator_id, 0), channel_id, coalesce(group_id, 0), f.operator_id, f.group_id`;

describe('reports: daily aggregates', function () {
  this.timeout(120_000);
  let knex: Knex;
  let ws: TestWorkspace;
  const tmrExact: number[] = [];

  before(async () => {
    ({ knex } = await testDatabase());
    ws = await makeWorkspace(knex);
    const channels = [await makeChannel(knex, ws, 'widget'), await makeChannel(knex, ws, 'telegram')];
    const groups = [null, await makeGroup(knex, ws)];
    const ops: (number | null)[] = [null];
    for (const name of ['Ana', 'Bruno']) {
      const [op] = await knex('operators').insert({ name, email: `${name}-${ws.id}@exemplo.com.br`, passwordHash: 'x', verificationLevel: 2 }).returning('id');
      await knex('workspace_members').insert({ workspaceId: ws.id, operatorId: op.id, accessLevel: 3, isActive: true });
      ops.push(op.id);
    }
    const bot = await makeBot(knex, ws.id);
    const rnd = prng(27);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    // 120 calls over 6 São Paulo days, many crossing midnight, with bots, bursts, transfers and reopens.
    let conversation: number | undefined;
    for (let i = 0; i < 120; i++) {
      let t = sp('2026-04-01T00:00:00').getTime() + Math.floor(rnd() * 6 * 86_400_000);
      const at = () => new Date(t);
      const channel = pick(channels);
      const who = { operatorId: pick(ops), groupId: pick(groups) };
      const call = conversation !== undefined && rnd() < 0.2 ? await ClockedCall.openOn(knex, ws.id, conversation, at(), who) : await ClockedCall.open(knex, ws.id, channel.id, at(), who);
      conversation = undefined;
      let waitingSince: number | null = null;
      let personAt: number | null = t;
      if (rnd() < 0.3) {
        const session = await call.botStarts(bot);
        personAt = null;
        await call.customerWrites(at());
        waitingSince = t;
        t += Math.floor(rnd() * 600_000);
        await call.botEnds(session, at());
        personAt = t;
      }
      for (let turn = 0; turn < 1 + Math.floor(rnd() * 4); turn++) {
        for (let burst = 0; burst < 1 + Math.floor(rnd() * 3); burst++) {
          t += Math.floor(rnd() * 120_000);
          await call.customerWrites(at());
          waitingSince ??= t;
        }
        if (rnd() < 0.3) await call.assign(pick(ops), pick(groups));
        t += Math.floor(2 ** (rnd() * 22));
        await call.agentReplies(at());
        if (waitingSince !== null && personAt !== null) tmrExact.push((t - Math.max(waitingSince, personAt)) / 1000);
        waitingSince = null;
      }
      if (rnd() < 0.8) {
        t += Math.floor(rnd() * 3_600_000);
        await call.finish(at());
        if (rnd() < 0.5) conversation = call.conversationId;
      }
    }
  });

  it('equal a recomputation from the raw facts, row for row (counts, sums and histograms)', async () => {
    const stored = await knex('report_daily')
      .where({ workspaceId: ws.id })
      .select(knex.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'operator_id', 'channel_id', 'group_id', ...AGGREGATE_COLUMNS);
    const { rows: recomputed } = await knex.raw(RECOMPUTE, [ws.id]);
    const key = (r: Record<string, unknown>) => `${r.day}|${r.operatorId ?? r.operator_id}|${r.channelId ?? r.channel_id}|${r.groupId ?? r.group_id}`;
    const norm = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), Array.isArray(v) ? v.map(Number) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]));
    const byKey = (rows: Record<string, unknown>[]) => new Map(rows.map((r) => [key(norm(r)), norm(r)]));
    const a = byKey(stored);
    const b = byKey(recomputed);
    expect(stored.length).to.be.greaterThan(10);
    expect([...a.keys()].sort()).to.deep.equal([...b.keys()].sort());
    for (const [k, row] of a) expect(row, k).to.deep.equal(b.get(k));
  });

  it('keep the per-day and per-day-and-agent rollups equal to the sums of the daily rows (counts, sums and merged histograms)', async () => {
    const rows = (await knex('report_daily').where({ workspaceId: ws.id }).select(knex.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'operator_id', ...AGGREGATE_COLUMNS)) as Record<string, unknown>[];
    const sumBy = (keyOf: (r: Record<string, unknown>) => string) => {
      const out = new Map<string, Record<string, number | number[]>>();
      for (const r of rows) {
        const k = keyOf(r);
        const acc = out.get(k) ?? {};
        for (const c of AGGREGATE_COLUMNS) {
          const camel = c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase());
          const v = r[camel];
          if (Array.isArray(v)) acc[camel] = mergeInto((acc[camel] as number[] | undefined) ?? emptyHistogram(), v as number[]);
          else acc[camel] = ((acc[camel] as number | undefined) ?? 0) + Number(v);
        }
        out.set(k, acc);
      }
      return out;
    };
    const read = async (table: string, keyOf: (r: Record<string, unknown>) => string) => {
      const got = (await knex(table).where({ workspaceId: ws.id }).select(knex.raw("to_char(day, 'YYYY-MM-DD') AS day"), ...(table === 'report_daily_agent' ? ['operator_id'] : []), ...AGGREGATE_COLUMNS)) as Record<string, unknown>[];
      return new Map(got.map((r) => [keyOf(r), Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'day' && k !== 'operatorId').map(([k, v]) => [k, Array.isArray(v) ? v.map(Number) : Number(v)]))]));
    };
    const perDay = (r: Record<string, unknown>) => String(r.day);
    const perAgent = (r: Record<string, unknown>) => `${String(r.day)}|${String(r.operatorId)}`;
    expect(await read('report_daily_total', perDay)).to.deep.equal(sumBy(perDay));
    expect(await read('report_daily_agent', perAgent)).to.deep.equal(sumBy(perAgent));
  });

  it("files every fact under the workspace's local day of its instant", async () => {
    const { rows } = await knex.raw("SELECT count(*)::int AS n FROM report_facts WHERE workspace_id = ? AND day <> (at AT TIME ZONE 'America/Sao_Paulo')::date", [ws.id]);
    expect(rows[0].n).to.equal(0);
  });

  it('answers the TMR median and P90 within one histogram bucket of the brute-force percentiles', async () => {
    const days = await knex('report_daily').where({ workspaceId: ws.id }).select('tmr_hist', 'tmr_count');
    const merged: number[] = (days as { tmrHist: number[] }[]).reduce((h, d) => mergeInto(h, d.tmrHist), emptyHistogram());
    const sorted = [...tmrExact].sort((x, y) => x - y);
    expect(merged.reduce((s, c) => s + c, 0)).to.equal(sorted.length);
    for (const q of [0.5, 0.9]) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1];
      const answered = quantile(merged, q);
      expect(answered).to.not.equal(null);
      // The bucket the exact value falls in is the bucket the answer stands for.
      const b = exact < 1 ? 1 : Math.min(HISTOGRAM_BUCKETS, 2 + Math.floor(4 * Math.log2(exact)));
      const { low, high } = bucketBounds(b);
      expect(answered!, `q=${q} exact=${exact}`).to.be.within(Math.floor(low * 10) / 10, Math.ceil(high * 10) / 10);
      // ±9 % of the exact value (4 buckets per doubling), beyond the first second.
      if (exact >= 1) expect(Math.abs(answered! - exact) / exact).to.be.below(0.1);
    }
  });

  it("gives the team table each agent's figures as merging that agent's daily rows would, with and without a channel filter", async () => {
    const scope = { workspaceId: ws.id, timeZone: 'America/Sao_Paulo', from: '2026-03-31', to: '2026-04-08', today: '2026-04-08', frequency: 'daily' as const, ownOnly: false, businessHours: false };
    const channel = Number((await knex('report_daily').where({ workspaceId: ws.id }).orderBy('channel_id').first('channel_id')).channelId);
    for (const filter of [{}, { channels: [channel] }] as { channels?: number[] }[]) {
      const team = await agentsReport(knex, { ...scope, ...filter });
      const agents = team.filter((a) => a.newConversations + a.resolvedConversations > 0);
      expect(agents.length, JSON.stringify(filter)).to.be.at.least(1);
      for (const agent of team) {
        const q = knex('report_daily').where({ workspaceId: ws.id, operatorId: agent.id });
        if (filter.channels) q.whereIn('channel_id', filter.channels);
        const rows = (await q) as Record<string, number | string | number[]>[];
        const time = (k: string) => ({
          count: rows.reduce((n, r) => n + Number(r[`${k}Count`]), 0),
          sumMs: rows.reduce((n, r) => n + Number(r[`${k}SumMs`]), 0),
          hist: rows.reduce((h: number[], r) => mergeInto(h, r[`${k}Hist`] as number[]), emptyHistogram()),
        });
        const expected = figures({ newCount: rows.reduce((n, r) => n + Number(r.newCount), 0), resolvedCount: rows.reduce((n, r) => n + Number(r.resolvedCount), 0), tme: time('tme'), tmr: time('tmr'), tma: time('tma') });
        const { id: _id, name: _name, firstName: _first, avatar: _avatar, accessLevel: _level, totalConversations: _total, ...answered } = agent;
        expect(answered, `${agent.name} ${JSON.stringify(filter)}`).to.deep.equal(expected);
      }
    }
  });

  it('merges histograms by adding counters and reads percentiles by nearest rank', () => {
    const h = emptyHistogram();
    h[0] = 1; // under 1 s
    h[9] = 3; // bucket 10: [4, 4.76) s
    mergeInto(h, Object.assign(emptyHistogram(), { 29: 1 })); // bucket 30: [128, 152) s
    expect(quantile(h, 0.2)).to.equal(0.5);
    expect(quantile(h, 0.5)).to.equal(Math.round(2 ** (8.5 / 4) * 10) / 10);
    expect(quantile(h, 0.9)).to.equal(Math.round(2 ** (28.5 / 4) * 10) / 10);
    expect(quantile(emptyHistogram(), 0.5)).to.equal(null);
  });
});
