import type { Knex } from 'knex';
import type { ConversationViewer } from '../policy/conversations';
import { visibilityCondition } from '../policy/conversations';
import { addDays, dimensionWhere, type ReportScope } from './filters';
import { meanSeconds } from './histogram';

const WEEKDAYS = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb'];

/**
 * GET /dashboard, 'Resumo de hoje' (SPEC §3 Dashboard): today in the workspace's time zone. Calls of the
 * last seven days per weekday, new calls of today per channel, the team, the inbox as it is now (only what the
 * viewer may open), today's mean wait and service times, and the oldest waiting conversation per channel.
 * Below level 6 the figures are the viewer's own (scope.agents).
 */
export async function dashboard(db: Knex, scope: ReportScope, viewer: ConversationViewer) {
  const weekFrom = addDays(scope.today, -6);
  // The week per day from the smallest rollup that answers (report_daily_total: seven rows), and today's new
  // calls per channel type from today's dimension rows only: the week of every agent × channel × group row
  // was ~4,000 rows at 1M conversations (bench/README.md "Reports").
  const byDimension = Boolean(scope.channels || scope.groups);
  const weekTable = byDimension ? 'report_daily' : scope.agents ? 'report_daily_agent' : 'report_daily_total';
  const week = db(`${weekTable} as d`)
    .where('d.workspace_id', scope.workspaceId)
    .whereBetween('d.day', [weekFrom, scope.today])
    .groupBy('d.day')
    .select(
      db.raw("to_char(d.day, 'YYYY-MM-DD') AS day"),
      db.raw('sum(d.new_count)::int AS new_count'),
      db.raw('sum(d.resolved_count)::int AS resolved_count'),
      db.raw('sum(d.tme_count)::int AS tme_count'),
      db.raw('sum(d.tme_sum_ms)::bigint AS tme_sum_ms'),
      db.raw('sum(d.tma_count)::int AS tma_count'),
      db.raw('sum(d.tma_sum_ms)::bigint AS tma_sum_ms'),
    );
  dimensionWhere(week, { ...scope, tags: undefined }, 'd');
  const channelsToday = db('report_daily as d')
    .join('channels as c', 'c.id', 'd.channel_id')
    .where('d.workspace_id', scope.workspaceId)
    .where('d.day', scope.today)
    .where('d.new_count', '>', 0)
    .groupBy('c.type')
    .select('c.type', db.raw('sum(d.new_count)::int AS new_count'));
  dimensionWhere(channelsToday, { ...scope, tags: undefined }, 'd');

  const vis = visibilityCondition(viewer, 'cp');
  // A viewer who sees every conversation reads the counts the trigger keeps (migration 20261128161000);
  // anyone else counts the open conversations they may open.
  const inbox =
    vis.sql === 'TRUE'
      ? db('inbox_open_counts as oc')
          .where('oc.workspace_id', scope.workspaceId)
          .first(db.raw('coalesce(sum(oc.waiting), 0)::int AS waiting'), db.raw('coalesce(sum(oc.assigned), 0)::int AS assigned'))
      : db('customer_platforms as cp')
          .where('cp.workspace_id', scope.workspaceId)
          .where('cp.is_finished', false)
          .whereRaw(`(${vis.sql})`, vis.bindings)
          .first(db.raw('count(*) FILTER (WHERE cp.operator_id IS NULL)::int AS waiting'), db.raw('count(*) FILTER (WHERE cp.operator_id IS NOT NULL)::int AS assigned'));
  if (scope.channels) inbox.whereIn(vis.sql === 'TRUE' ? 'oc.channel_id' : 'cp.channel_id', scope.channels);

  const oldest = db
    .select('*')
    .from(
      db('calls as k')
        .join('customer_platforms as cp', 'cp.id', 'k.customer_platform_id')
        .join('channels as c', 'c.id', 'cp.channel_id')
        .leftJoin('customers as cu', 'cu.id', 'cp.customer_id')
        .where('k.workspace_id', scope.workspaceId)
        .where('k.is_finished', false)
        .whereNotNull('k.waiting_since')
        .whereRaw(`(${vis.sql})`, vis.bindings)
        .distinctOn('cp.channel_id')
        .orderBy([{ column: 'cp.channel_id' }, { column: 'k.waiting_since' }])
        .select('cp.channel_id', 'c.name as channel_name', 'c.type as channel', 'cp.id as conversation_id', 'cu.name as customer_name', 'k.waiting_since')
        .as('o'),
    )
    .orderBy('waiting_since');

  const dayStart = db.raw("(?::date)::timestamp AT TIME ZONE ?", [scope.today, scope.timeZone]);
  const agents = db('workspace_members as m')
    .where('m.workspace_id', scope.workspaceId)
    .where('m.is_active', true)
    .first(
      db.raw('count(*)::int AS total'),
      db.raw('count(*) FILTER (WHERE m.is_online)::int AS connected'),
      // Connected but 'ausente' (docs/assignment.md "Availability"): counted in `connected`, shown beside it.
      db.raw(`count(*) FILTER (WHERE m.is_online AND m.availability = 'ausente')::int AS away`),
      db.raw(
        `count(*) FILTER (WHERE EXISTS (SELECT 1 FROM operator_sessions s WHERE s.workspace_id = m.workspace_id AND s.operator_id = m.operator_id
           AND (s.disconnected_at IS NULL OR s.disconnected_at >= ?) ))::int AS connected_today`,
        [dayStart],
      ),
    );
  if (scope.ownOnly) agents.where('m.operator_id', viewer.operatorId);

  const [days, today, box, waitingOldest, team] = await Promise.all([week, channelsToday, inbox, oldest, agents]);
  type Day = { day: string; newCount: number; resolvedCount: number; tmeCount: number; tmeSumMs: string; tmaCount: number; tmaSumMs: string };
  const perDay = new Map((days as Day[]).map((d) => [d.day, d]));
  const todayRow = perDay.get(scope.today);
  const resolvedToday = todayRow?.resolvedCount ?? 0;
  const wait = { count: todayRow?.tmeCount ?? 0, sum: Number(todayRow?.tmeSumMs ?? 0) };
  const service = { count: todayRow?.tmaCount ?? 0, sum: Number(todayRow?.tmaSumMs ?? 0) };
  const weekConversations = [];
  for (let i = 0; i < 7; i++) {
    const day = addDays(weekFrom, i);
    const w = perDay.get(day);
    weekConversations.push({ weekday: WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()], day, new: w?.newCount ?? 0, resolved: w?.resolvedCount ?? 0 });
  }
  const teamRow = team as { total: number; connected: number; away: number; connectedToday: number };
  const boxRow = box as { waiting: number; assigned: number };
  return {
    customerDistribution: (today as { type: string; newCount: number }[]).map((r) => ({ channel: r.type, count: r.newCount })),
    weekConversations,
    agents: { connected: teamRow.connected, away: teamRow.away, connectedToday: teamRow.connectedToday, total: teamRow.total },
    inbox: { waiting: boxRow.waiting, assigned: boxRow.assigned, resolvedToday },
    averageTime: { waiting: meanSeconds(wait.sum, wait.count), resolution: meanSeconds(service.sum, service.count) },
    oldestWaiting: (waitingOldest as { channelId: number; channelName: string; channel: string; conversationId: number; customerName: string | null; waitingSince: Date }[]).map((o) => ({
      channelId: o.channelId,
      channelName: o.channelName,
      channel: o.channel,
      conversationId: Number(o.conversationId),
      customerName: o.customerName,
      waitingSince: o.waitingSince,
    })),
    today: scope.today,
    ownOnly: scope.ownOnly,
  };
}
