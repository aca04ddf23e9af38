import type { Knex } from 'knex';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import { periodEnd, periodLabels, periodStart, periodStarts, type ReportScope } from '../reports/filters';

/**
 * The CSAT figures of the reports (docs/csat.md "Reports", docs/reports.md "Satisfação"). Read from the calls
 * that were rated, through the partial indexes `calls_csat_answered_idx` / `calls_csat_requested_idx`: a
 * period reads its rated calls only (a few per hundred calls), never a message. A rating belongs to the local
 * day it was given (the workspace's time zone), its agent and group are the call's, its channel the
 * conversation's.
 */

const localDay = (column: string) => `(${column} AT TIME ZONE ?)::date`;

/** The calls of the scope whose `column` (an instant) falls on the period's local days, with the filters. */
function callsIn(db: Knex, scope: ReportScope, column: 'csat_answered_at' | 'csat_requested_at'): Knex.QueryBuilder {
  const qb = db('calls as k')
    .join('customer_platforms as cp', 'cp.id', 'k.customer_platform_id')
    .where('k.workspace_id', scope.workspaceId)
    .whereNotNull(`k.${column}`)
    // The index range first (a day either side covers any time zone), then the exact local days.
    .where(`k.${column}`, '>=', db.raw('(?::date - 1)::timestamptz', [scope.from]))
    .where(`k.${column}`, '<', db.raw('(?::date + 2)::timestamptz', [scope.to]))
    .whereRaw(`${localDay(`k.${column}`)} BETWEEN ?::date AND ?::date`, [scope.timeZone, scope.from, scope.to]);
  if (column === 'csat_answered_at') qb.whereNotNull('k.csat_rating');
  if (scope.channels) qb.whereIn('cp.channel_id', scope.channels);
  if (scope.groups) qb.whereIn('k.group_id', scope.groups);
  if (scope.agents) qb.whereIn('k.operator_id', scope.agents);
  if (scope.tags) {
    qb.whereExists(function () {
      void this.select(1).from('call_labels as cl').whereRaw('cl.call_id = k.id').whereIn('cl.label_id', scope.tags!);
    });
  }
  return qb;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const avg = (sum: number, count: number) => (count ? round2(sum / count) : null);

interface Tally {
  count: number;
  sum: number;
  dist: [number, number, number, number, number];
}
const emptyTally = (): Tally => ({ count: 0, sum: 0, dist: [0, 0, 0, 0, 0] });
function add(t: Tally, rating: number, n: number) {
  t.count += n;
  t.sum += rating * n;
  t.dist[rating - 1]! += n;
}
/** The figures of a tally: average (1–5), how many, each rating's count and the share of 4s and 5s. */
function figures(t: Tally) {
  return {
    average: avg(t.sum, t.count),
    count: t.count,
    distribution: t.dist.map((count, i) => ({ rating: i + 1, count })),
    satisfied: t.count ? Math.round(((t.dist[3]! + t.dist[4]!) / t.count) * 1000) / 10 : null,
  };
}

/**
 * GET /report/csat: the period's ratings — `summary` (average, count, distribution, % satisfied, questions
 * sent, answered of those, answer rate, skipped), `rows` per period of the frequency, and `agents` (per
 * call's agent, 'no agent' as id null), with the same filters and the same own-only rule as the other reports.
 */
export async function csatReport(db: Knex, scope: ReportScope) {
  const [byDayAgent, requested] = await Promise.all([
    db
      .from(
        callsIn(db, scope, 'csat_answered_at')
          .select(db.raw(`to_char(${localDay('k.csat_answered_at')}, 'YYYY-MM-DD') AS day`, [scope.timeZone]), 'k.operator_id', 'k.csat_rating')
          .as('x'),
      )
      .groupBy('x.day', 'x.operator_id', 'x.csat_rating')
      .select('x.day', 'x.operator_id', 'x.csat_rating', db.raw('count(*)::int AS n')) as Promise<{ day: string; operatorId: number | null; csatRating: number; n: number }[]>,
    callsIn(db, scope, 'csat_requested_at')
      .select(
        db.raw("count(*) FILTER (WHERE k.csat_state IN ('sent', 'answered'))::int AS sent"),
        db.raw("count(*) FILTER (WHERE k.csat_state = 'answered')::int AS answered"),
        db.raw("count(*) FILTER (WHERE k.csat_state = 'skipped')::int AS skipped"),
      )
      .first() as Promise<{ sent: number; answered: number; skipped: number } | undefined>,
  ]);

  const total = emptyTally();
  const perPeriod = new Map<string, Tally>();
  const perAgent = new Map<number | null, Tally>();
  for (const r of byDayAgent) {
    add(total, r.csatRating, r.n);
    const p = periodStart(r.day, scope.frequency);
    if (!perPeriod.has(p)) perPeriod.set(p, emptyTally());
    add(perPeriod.get(p)!, r.csatRating, r.n);
    if (!perAgent.has(r.operatorId)) perAgent.set(r.operatorId, emptyTally());
    add(perAgent.get(r.operatorId)!, r.csatRating, r.n);
  }
  const ids = [...perAgent.keys()].filter((id): id is number => id !== null);
  const names = new Map<number, string>(
    ids.length ? ((await db('operators').whereIn('id', ids).select('id', 'name')) as { id: number; name: string }[]).map((o) => [o.id, o.name]) : [],
  );
  const rows = periodStarts(scope.from, scope.to, scope.frequency).map((start) => ({
    period: start,
    periodFrom: start < scope.from ? scope.from : start,
    periodTo: periodEnd(start, scope.frequency, scope.to),
    ...periodLabels(start, scope.frequency, scope.from, scope.to),
    ...figures(perPeriod.get(start) ?? emptyTally()),
  }));
  const agents = [...perAgent.entries()]
    .map(([id, t]) => ({ id, name: id === null ? null : (names.get(id) ?? null), ...figures(t) }))
    .sort((a, b) => b.count - a.count || (b.average ?? 0) - (a.average ?? 0) || (a.name ?? '').localeCompare(b.name ?? ''));
  const sent = requested?.sent ?? 0;
  const answeredOfSent = requested?.answered ?? 0;
  return {
    summary: { ...figures(total), sent, answeredOfSent, answerRate: sent ? Math.round((answeredOfSent / sent) * 1000) / 10 : null, skipped: requested?.skipped ?? 0 },
    rows,
    agents,
    period: { from: scope.from, to: scope.to, frequency: scope.frequency, timeZone: scope.timeZone },
    ownOnly: scope.ownOnly,
  };
}

export const CSAT_DRILL_MAX = 200;

/**
 * GET /report/csat/calls: the rated calls behind a figure (a rating, an agent, a period row), newest answer
 * first, each linking to its conversation. Only calls whose conversation the viewer may open are listed;
 * `hiddenCount` says how many are not (as the other drill-downs do).
 */
export async function csatCalls(db: Knex, scope: ReportScope, viewer: ConversationViewer, rating: number | undefined, limit: number, offset: number) {
  const base = () => {
    const qb = callsIn(db, scope, 'csat_answered_at');
    if (rating !== undefined) qb.where('k.csat_rating', rating);
    return qb;
  };
  const vis = visibilityCondition(viewer, 'cp');
  const visible = () => base().whereRaw(`(${vis.sql})`, vis.bindings);
  const [rows, seen, all] = await Promise.all([
    visible()
      .join('channels as c', 'c.id', 'cp.channel_id')
      .leftJoin('customers as cu', 'cu.id', 'cp.customer_id')
      .leftJoin('operators as o', 'o.id', 'k.operator_id')
      .orderBy([{ column: 'k.csat_answered_at', order: 'desc' }, { column: 'k.id', order: 'desc' }])
      .limit(limit)
      .offset(offset)
      .select('k.id as call_id', 'k.protocol', 'k.csat_rating', 'k.csat_comment', 'k.csat_answered_at', 'k.finished_at', 'cp.id as conversation_id', 'cu.name as customer_name', 'c.type as channel', 'c.name as channel_name', 'o.id as operator_id', 'o.name as operator_name'),
    visible().count({ n: '*' }).first(),
    base().count({ n: '*' }).first(),
  ]);
  type Row = { callId: number; protocol: number | null; csatRating: number; csatComment: string | null; csatAnsweredAt: Date; finishedAt: Date | null; conversationId: number; customerName: string | null; channel: string; channelName: string; operatorId: number | null; operatorName: string | null };
  const matchCount = Number((seen as { n?: number } | undefined)?.n ?? 0);
  return {
    data: (rows as Row[]).map((r) => ({
      callId: r.callId,
      protocol: r.protocol,
      conversationId: r.conversationId,
      customerName: r.customerName,
      channel: r.channel,
      channelName: r.channelName,
      operatorId: r.operatorId,
      operatorName: r.operatorName,
      rating: r.csatRating,
      comment: r.csatComment,
      answeredAt: r.csatAnsweredAt,
      finishedAt: r.finishedAt,
    })),
    matchCount,
    totalCount: matchCount,
    hiddenCount: Number((all as { n?: number } | undefined)?.n ?? 0) - matchCount,
  };
}
