import type { Knex } from 'knex';
import { emptyHistogram, meanSeconds, mergeInto, quantile } from './histogram';
import { BusinessClock, bucketOf } from './businessTime';
import { dimensionWhere, periodEnd, periodLabels, periodStart, periodStarts, type ReportScope } from './filters';

/** Counts, sums and histograms of one slice (a period, an agent, the whole report). */
interface Tally {
  newCount: number;
  resolvedCount: number;
  tme: TimeTally;
  tmr: TimeTally;
  tma: TimeTally;
}
interface TimeTally {
  count: number;
  sumMs: number;
  hist: number[];
}

const emptyTally = (): Tally => ({
  newCount: 0,
  resolvedCount: 0,
  tme: { count: 0, sumMs: 0, hist: emptyHistogram() },
  tmr: { count: 0, sumMs: 0, hist: emptyHistogram() },
  tma: { count: 0, sumMs: 0, hist: emptyHistogram() },
});

function addTally(into: Tally, other: Tally): Tally {
  into.newCount += other.newCount;
  into.resolvedCount += other.resolvedCount;
  for (const k of ['tme', 'tmr', 'tma'] as const) {
    into[k].count += other[k].count;
    into[k].sumMs += other[k].sumMs;
    mergeInto(into[k].hist, other[k].hist);
  }
  return into;
}

/** The three SPEC fields of a time with the median and P90 beside the mean, in seconds (null: nothing measured). */
function times(t: TimeTally, name: string): Record<string, number | null> {
  return { [name]: meanSeconds(t.sumMs, t.count), [`${name}Median`]: quantile(t.hist, 0.5), [`${name}P90`]: quantile(t.hist, 0.9) };
}

/** SPEC §3 Report row figures of a tally (times in seconds). */
export function figures(t: Tally) {
  return {
    ...times(t.tme, 'firstTimeResponse'),
    ...times(t.tmr, 'timeResponse'),
    ...times(t.tma, 'resolutionTime'),
    newConversations: t.newCount,
    resolvedConversations: t.resolvedCount,
  };
}

interface DailyRow {
  day: string;
  operatorId: number;
  newCount: number;
  resolvedCount: number;
  tmeCount: number;
  tmeSumMs: string;
  tmeHist: number[];
  tmrCount: number;
  tmrSumMs: string;
  tmrHist: number[];
  tmaCount: number;
  tmaSumMs: string;
  tmaHist: number[];
}

/**
 * Tallies of the scope keyed by `keyOf(day, operatorId)`. Without a tag filter it reads the daily rows (a
 * few per day); with tags it reads the facts of the calls carrying them (docs/reports.md "Tags").
 */
async function tallies(db: Knex, scope: ReportScope, keyOf: (day: string, operatorId: number) => string, perAgent = false): Promise<Map<string, Tally>> {
  const out = new Map<string, Tally>();
  const at = (key: string) => {
    let t = out.get(key);
    if (!t) out.set(key, (t = emptyTally()));
    return t;
  };
  if (scope.schedule) {
    await businessTallies(db, scope, scope.schedule, at, keyOf);
    return out;
  }
  if (!scope.tags) {
    // The smallest table that answers: one row a day, one a day and agent, or every agent × channel × group.
    const byDimension = Boolean(scope.channels || scope.groups);
    const table = byDimension ? 'report_daily' : perAgent || scope.agents ? 'report_daily_agent' : 'report_daily_total';
    if (perAgent) {
      await agentTallies(db, scope, table, (operatorId) => at(keyOf('', operatorId)));
      return out;
    }
    const qb = db(`${table} as d`)
      .where('d.workspace_id', scope.workspaceId)
      .whereBetween('d.day', [scope.from, scope.to])
      .select(db.raw("to_char(d.day, 'YYYY-MM-DD') AS day"), table === 'report_daily_total' ? db.raw('0 AS operator_id') : 'd.operator_id', 'd.new_count', 'd.resolved_count', 'd.tme_count', 'd.tme_sum_ms', 'd.tme_hist', 'd.tmr_count', 'd.tmr_sum_ms', 'd.tmr_hist', 'd.tma_count', 'd.tma_sum_ms', 'd.tma_hist');
    dimensionWhere(qb, scope, 'd');
    for (const r of (await qb) as DailyRow[]) {
      const t = at(keyOf(r.day, r.operatorId));
      addTally(t, {
        newCount: r.newCount,
        resolvedCount: r.resolvedCount,
        tme: { count: r.tmeCount, sumMs: Number(r.tmeSumMs), hist: r.tmeHist },
        tmr: { count: r.tmrCount, sumMs: Number(r.tmrSumMs), hist: r.tmrHist },
        tma: { count: r.tmaCount, sumMs: Number(r.tmaSumMs), hist: r.tmaHist },
      });
    }
    return out;
  }
  const qb = db('report_facts as f')
    .where('f.workspace_id', scope.workspaceId)
    // The instant range walks report_facts_workspace_at_idx; the local day decides.
    .where('f.at', '>=', db.raw('(?::date - 1)::timestamptz', [scope.from]))
    .where('f.at', '<', db.raw('(?::date + 2)::timestamptz', [scope.to]))
    .whereBetween('f.day', [scope.from, scope.to])
    .groupByRaw('1, 2, 3, 4')
    .select(db.raw("to_char(f.day, 'YYYY-MM-DD') AS day"), db.raw('coalesce(f.operator_id, 0) AS operator_id'), 'f.kind', db.raw('report_bucket(f.ms) AS bucket'), db.raw('count(*)::int AS n'), db.raw('coalesce(sum(f.ms), 0)::bigint AS sum_ms'));
  dimensionWhere(qb, scope, 'f', true);
  for (const r of (await qb) as { day: string; operatorId: number; kind: number; bucket: number | null; n: number; sumMs: string }[]) {
    const t = at(keyOf(r.day, r.operatorId));
    if (r.kind === 1) t.newCount += r.n;
    else if (r.kind === 2) t.resolvedCount += r.n;
    else {
      const time = r.kind === 3 ? t.tme : r.kind === 4 ? t.tmr : t.tma;
      time.count += r.n;
      time.sumMs += Number(r.sumMs);
      if (r.bucket) time.hist[r.bucket - 1] += r.n;
    }
  }
  return out;
}

/**
 * The team table's tallies, one per agent, merged by PostgreSQL: the period's daily rows (30 agents × 30 days
 * is ~900 rows of three 120-counter histograms) are summed per agent there, and only the non-zero buckets of
 * each agent's merged histograms come back (a few thousand small rows instead of ~300,000 array elements
 * parsed here: bench/README.md "Reports"). Counters add exactly, so this equals merging the rows here.
 */
async function agentTallies(db: Knex, scope: ReportScope, table: string, tallyOf: (operatorId: number) => Tally): Promise<void> {
  const rows = () => {
    const qb = db(`${table} as d`).where('d.workspace_id', scope.workspaceId).whereBetween('d.day', [scope.from, scope.to]);
    return dimensionWhere(qb, scope, 'd');
  };
  const scalars = rows()
    .groupBy('d.operator_id')
    .select(
      'd.operator_id',
      db.raw('sum(d.new_count)::int AS new_count'),
      db.raw('sum(d.resolved_count)::int AS resolved_count'),
      ...(['tme', 'tmr', 'tma'] as const).flatMap((k) => [db.raw(`sum(d.${k}_count)::int AS ${k}_count`), db.raw(`sum(d.${k}_sum_ms)::bigint AS ${k}_sum_ms`)]),
    );
  const buckets = rows()
    .joinRaw('CROSS JOIN LATERAL (VALUES (3, d.tme_hist), (4, d.tmr_hist), (5, d.tma_hist)) AS v(kind, hist)')
    .joinRaw('CROSS JOIN LATERAL unnest(v.hist) WITH ORDINALITY AS u(n, bucket)')
    .where('u.n', '<>', 0)
    .groupByRaw('1, 2, 3')
    .select('d.operator_id', 'v.kind', 'u.bucket', db.raw('sum(u.n)::int AS n'));
  type Scalars = { operatorId: number } & Record<'newCount' | 'resolvedCount' | 'tmeCount' | 'tmrCount' | 'tmaCount', number> & Record<'tmeSumMs' | 'tmrSumMs' | 'tmaSumMs', string>;
  const [sums, hist] = (await Promise.all([scalars, buckets])) as [Scalars[], { operatorId: number; kind: number; bucket: string; n: number }[]];
  for (const r of sums) {
    const t = tallyOf(r.operatorId);
    t.newCount += r.newCount;
    t.resolvedCount += r.resolvedCount;
    for (const k of ['tme', 'tmr', 'tma'] as const) {
      t[k].count += r[`${k}Count`];
      t[k].sumMs += Number(r[`${k}SumMs`]);
    }
  }
  for (const r of hist) {
    const t = tallyOf(r.operatorId);
    (r.kind === 3 ? t.tme : r.kind === 4 ? t.tmr : t.tma).hist[Number(r.bucket) - 1] += r.n;
  }
}

/**
 * Business-hours mode (docs/reports.md): counts as in calendar mode, but every time is re-measured from its
 * fact (the interval [at − ms, at]) as the open milliseconds inside it under the schedule as it is now, and
 * bucketed here. Reads the facts of the period, not the daily rows: slower, and measured in the docs.
 */
async function businessTallies(db: Knex, scope: ReportScope, schedule: NonNullable<ReportScope['schedule']>, at: (key: string) => Tally, keyOf: (day: string, operatorId: number) => string): Promise<void> {
  const clock = new BusinessClock(schedule, scope.timeZone);
  const facts = () => {
    const qb = db('report_facts as f')
      .where('f.workspace_id', scope.workspaceId)
      .where('f.at', '>=', db.raw('(?::date - 1)::timestamptz', [scope.from]))
      .where('f.at', '<', db.raw('(?::date + 2)::timestamptz', [scope.to]))
      .whereBetween('f.day', [scope.from, scope.to]);
    return dimensionWhere(qb, scope, 'f', true);
  };
  const [counts, times] = await Promise.all([
    facts()
      .whereIn('f.kind', [1, 2])
      .groupByRaw('1, 2, 3')
      .select(db.raw("to_char(f.day, 'YYYY-MM-DD') AS day"), db.raw('coalesce(f.operator_id, 0) AS operator_id'), 'f.kind', db.raw('count(*)::int AS n')),
    facts()
      .whereIn('f.kind', [3, 4, 5])
      .whereNotNull('f.ms')
      .select(db.raw("to_char(f.day, 'YYYY-MM-DD') AS day"), db.raw('coalesce(f.operator_id, 0) AS operator_id'), 'f.kind', db.raw('(extract(epoch FROM f.at) * 1000)::float8 AS at_ms'), db.raw('f.ms::float8 AS ms')),
  ]);
  for (const r of counts as { day: string; operatorId: number; kind: number; n: number }[]) {
    const t = at(keyOf(r.day, r.operatorId));
    if (r.kind === 1) t.newCount += r.n;
    else t.resolvedCount += r.n;
  }
  for (const r of times as { day: string; operatorId: number; kind: number; atMs: number; ms: number }[]) {
    const t = at(keyOf(r.day, r.operatorId));
    const time = r.kind === 3 ? t.tme : r.kind === 4 ? t.tmr : t.tma;
    const open = clock.openMs(r.atMs - r.ms, r.atMs);
    time.count += 1;
    time.sumMs += open;
    time.hist[bucketOf(open) - 1] += 1;
  }
}

/** GET /report: a row per period (every period of the range, empty ones too) and the whole period's summary. */
export async function conversationsReport(db: Knex, scope: ReportScope) {
  const byPeriod = await tallies(db, scope, (day) => periodStart(day, scope.frequency));
  const summary = emptyTally();
  const rows = periodStarts(scope.from, scope.to, scope.frequency).map((start) => {
    const t = byPeriod.get(start) ?? emptyTally();
    addTally(summary, t);
    // periodFrom/periodTo: the days of this row inside the report's range (what its drill-down asks for).
    const periodFrom = start < scope.from ? scope.from : start;
    return { period: start, periodFrom, periodTo: periodEnd(start, scope.frequency, scope.to), ...periodLabels(start, scope.frequency, scope.from, scope.to), ...figures(t) };
  });
  return {
    rows,
    summary: figures(summary),
    period: { from: scope.from, to: scope.to, frequency: scope.frequency, timeZone: scope.timeZone },
    businessHours: scope.businessHours,
    ownOnly: scope.ownOnly,
  };
}

/**
 * The team table's 'Total' per agent (docs/reports.md "Total per agent"): the calls each agent took part in,
 * counted on the day of the agent's first fact in the call. A sum of the daily rows' calls_count; with a tag
 * filter, a count of the (call, agent) pairs of report_agent_calls whose call carries a tag. Mode-independent.
 */
async function agentCallTotals(db: Knex, scope: ReportScope): Promise<Map<number, number>> {
  let qb: Knex.QueryBuilder;
  if (scope.tags) {
    qb = db('report_agent_calls as d').select('d.operator_id', db.raw('count(*)::int AS total'));
    dimensionWhere(qb, scope, 'd', true);
  } else {
    const table = scope.channels || scope.groups ? 'report_daily' : 'report_daily_agent';
    qb = db(`${table} as d`).select('d.operator_id', db.raw('sum(d.calls_count)::int AS total'));
    dimensionWhere(qb, scope, 'd');
  }
  qb.where('d.workspace_id', scope.workspaceId).whereBetween('d.day', [scope.from, scope.to]).where('d.operator_id', '<>', 0).groupBy('d.operator_id');
  return new Map(((await qb) as { operatorId: number; total: number }[]).map((r) => [r.operatorId, r.total]));
}

/** GET /dashboard/agents: per agent of the workspace (the viewer alone below level 6), over the period. */
export async function agentsReport(db: Knex, scope: ReportScope) {
  const byAgent = await tallies(db, scope, (_day, operatorId) => String(operatorId), true);
  const members = db('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where('m.workspace_id', scope.workspaceId)
    .where('m.is_active', true)
    .orderBy('o.name')
    .select('o.id', 'o.name', 'o.avatar', 'm.access_level');
  if (scope.agents) members.whereIn('m.operator_id', scope.agents);
  const [people, totalOf] = await Promise.all([members, agentCallTotals(db, scope)]);
  return (people as { id: number; name: string; avatar: string | null; accessLevel: number }[]).map((p) => {
    const t = byAgent.get(String(p.id)) ?? emptyTally();
    const f = figures(t);
    return {
      id: p.id,
      name: p.name,
      firstName: p.name.trim().split(/\s+/)[0] ?? p.name,
      avatar: p.avatar,
      accessLevel: p.accessLevel,
      ...f,
      totalConversations: totalOf.get(p.id) ?? 0,
    };
  });
}
