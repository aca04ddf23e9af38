import type { Knex } from 'knex';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import { dimensionWhere, type ReportScope } from './filters';
import { BusinessClock } from './businessTime';
import type { DrillMetric } from './schema';

const KIND: Record<DrillMetric, number> = { new: 1, resolved: 2, tme: 3, tmr: 4, tma: 5 };
export const DRILL_PAGE_MAX = 200;

/**
 * GET /report/calls: the calls behind a number (docs/reports.md): the facts of `metric` in the scope's period
 * and filters, one row per call (its longest time for TMR), newest first, each linking to its conversation.
 * Only calls whose conversation the viewer may open are listed; `hiddenCount` says how many are not.
 */
export async function drillDown(db: Knex, scope: ReportScope, viewer: ConversationViewer, metric: DrillMetric, limit: number, offset: number) {
  const factsQuery = () => {
    const qb = db('report_facts as f')
    .where('f.workspace_id', scope.workspaceId)
    .where('f.kind', KIND[metric])
    .where('f.at', '>=', db.raw('(?::date - 1)::timestamptz', [scope.from]))
    .where('f.at', '<', db.raw('(?::date + 2)::timestamptz', [scope.to]))
    .whereBetween('f.day', [scope.from, scope.to])
    .groupBy('f.call_id')
    .select('f.call_id', db.raw('max(f.at) AS at'), db.raw('max(f.ms) AS ms'), db.raw('(array_agg(f.operator_id ORDER BY f.at DESC))[1] AS fact_operator_id'));
    return dimensionWhere(qb, scope, 'f', true);
  };

  const vis = visibilityCondition(viewer, 'cp');
  const base = db
    .from(factsQuery().as('x'))
    .join('calls as k', 'k.id', 'x.call_id')
    .join('customer_platforms as cp', 'cp.id', 'k.customer_platform_id')
    .where('k.workspace_id', scope.workspaceId);
  const visible = base.clone().whereRaw(`(${vis.sql})`, vis.bindings);
  const [rows, counts] = await Promise.all([
    visible
      .clone()
      .join('channels as c', 'c.id', 'cp.channel_id')
      .leftJoin('customers as cu', 'cu.id', 'cp.customer_id')
      .leftJoin('operators as o', 'o.id', 'x.fact_operator_id')
      .orderBy([{ column: 'x.at', order: 'desc' }, { column: 'x.call_id', order: 'desc' }])
      .limit(limit)
      .offset(offset)
      .select('x.call_id', 'x.at', 'x.ms', 'k.protocol', 'k.created_at', 'k.finished_at', 'cp.id as conversation_id', 'cu.name as customer_name', 'c.type as channel', 'c.name as channel_name', 'o.id as operator_id', 'o.name as operator_name'),
    Promise.all([visible.clone().count({ n: '*' }).first(), db.from(factsQuery().as('a')).count({ n: '*' }).first()]).then(([v, a]) => ({ visible: Number(v?.n ?? 0), total: Number(a?.n ?? 0) })),
  ]);
  const { visible: matchCount, total } = counts as { visible: number; total: number };
  // Business-hours mode: each time is the open part of its interval (docs/reports.md).
  const clock = scope.schedule ? new BusinessClock(scope.schedule, scope.timeZone) : undefined;
  const msOf = (at: Date, ms: string | null) => (ms === null ? null : clock ? clock.openMs(new Date(at).getTime() - Number(ms), new Date(at).getTime()) : Number(ms));
  type Row = { callId: string; at: Date; ms: string | null; protocol: string | null; createdAt: Date; finishedAt: Date | null; conversationId: string; customerName: string | null; channel: string; channelName: string; operatorId: number | null; operatorName: string | null };
  return {
    data: (rows as Row[]).map((r) => ({
      callId: Number(r.callId),
      protocol: r.protocol === null ? null : Number(r.protocol),
      conversationId: Number(r.conversationId),
      customerName: r.customerName,
      channel: r.channel,
      channelName: r.channelName,
      operatorId: r.operatorId,
      operatorName: r.operatorName,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      at: r.at,
      seconds: r.ms === null ? null : Math.round(msOf(r.at, r.ms)! / 100) / 10,
    })),
    matchCount,
    totalCount: matchCount,
    hiddenCount: total - matchCount,
  };
}
