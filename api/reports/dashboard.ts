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
  const daily = db('report_daily as d')
    .join('channels as c', 'c.id', 'd.channel_id')
    .where('d.workspace_id', scope.workspaceId)
    .whereBetween('d.day', [weekFrom, scope.today])
    .groupByRaw('1, 2')
    .select(
      db.raw("to_char(d.day, 'YYYY-MM-DD') AS day"),
      'c.type',
      db.raw('sum(d.new_count)::int AS new_count'),
      db.raw('sum(d.resolved_count)::int AS resolved_count'),
      db.raw('sum(d.tme_count)::int AS tme_count'),
      db.raw('sum(d.tme_sum_ms)::bigint AS tme_sum_ms'),
      db.raw('sum(d.tma_count)::int AS tma_count'),
      db.raw('sum(d.tma_sum_ms)::bigint AS tma_sum_ms'),
    );
  dimensionWhere(daily, { ...scope, tags: undefined }, 'd');

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

  const [days, box, waitingOldest, team] = await Promise.all([daily, inbox, oldest, agents]);
  type Day = { day: string; type: string; newCount: number; resolvedCount: number; tmeCount: number; tmeSumMs: string; tmaCount: number; tmaSumMs: string };
  const perChannel = new Map<string, number>();
  const perDay = new Map<string, { new: number; resolved: number }>();
  let resolvedToday = 0;
  const wait = { count: 0, sum: 0 };
  const service = { count: 0, sum: 0 };
  for (const d of days as Day[]) {
    const w = perDay.get(d.day) ?? { new: 0, resolved: 0 };
    w.new += d.newCount;
    w.resolved += d.resolvedCount;
    perDay.set(d.day, w);
    if (d.day !== scope.today) continue;
    perChannel.set(d.type, (perChannel.get(d.type) ?? 0) + d.newCount);
    resolvedToday += d.resolvedCount;
    wait.count += d.tmeCount;
    wait.sum += Number(d.tmeSumMs);
    service.count += d.tmaCount;
    service.sum += Number(d.tmaSumMs);
  }
  const weekConversations = [];
  for (let i = 0; i < 7; i++) {
    const day = addDays(weekFrom, i);
    const w = perDay.get(day) ?? { new: 0, resolved: 0 };
    weekConversations.push({ weekday: WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()], day, new: w.new, resolved: w.resolved });
  }
  const teamRow = team as { total: number; connected: number; away: number; connectedToday: number };
  const boxRow = box as { waiting: number; assigned: number };
  return {
    customerDistribution: [...perChannel].filter(([, count]) => count > 0).map(([channel, count]) => ({ channel, count })),
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
