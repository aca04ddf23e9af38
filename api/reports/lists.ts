import type { Knex } from 'knex';
import { visibleCustomers } from '../customers/queries';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import type { ReportScope } from './filters';
import { CHANNEL_LABELS } from './schema';

const localRange = (db: Knex, scope: ReportScope) => [
  db.raw('(?::date)::timestamp AT TIME ZONE ?', [scope.from, scope.timeZone]),
  db.raw("(?::date + 1)::timestamp AT TIME ZONE ?", [scope.to, scope.timeZone]),
];

/**
 * GET /report/tags: each tag of the workspace and how many times it was applied to a call in the period
 * (local days). Below level 6, only on the caller's own calls.
 */
export async function tagsReport(db: Knex, scope: ReportScope, operatorId: number) {
  const [start, end] = localRange(db, scope);
  const rows = await db('labels as l')
    .where('l.workspace_id', scope.workspaceId)
    .leftJoin(
      db('call_labels as cl')
        .join('calls as k', 'k.id', 'cl.call_id')
        .where('cl.workspace_id', scope.workspaceId)
        .where('cl.created_at', '>=', start)
        .where('cl.created_at', '<', end)
        .modify((qb) => {
          if (scope.ownOnly) qb.where('k.operator_id', operatorId);
          if (scope.channels) qb.whereIn('k.customer_platform_id', db('customer_platforms').select('id').where('workspace_id', scope.workspaceId).whereIn('channel_id', scope.channels));
          if (scope.groups) qb.whereIn('k.group_id', scope.groups);
          if (scope.agents && !scope.ownOnly) qb.whereIn('k.operator_id', scope.agents);
        })
        .groupBy('cl.label_id')
        .select('cl.label_id', db.raw('count(*)::int AS used'))
        .as('u'),
      'u.label_id',
      'l.id',
    )
    .orderByRaw('coalesce(u.used, 0) DESC, l.name')
    .select('l.id', 'l.name', 'l.color', 'l.text_color', db.raw('coalesce(u.used, 0)::int AS used'));
  return { rows, period: { from: scope.from, to: scope.to, timeZone: scope.timeZone }, ownOnly: scope.ownOnly };
}

/**
 * GET /report/customer: contacts with name, e-mail, cell phone and their service channels (SPEC labels),
 * newest first; 'Contato criado entre' narrows by creation (local days) when from/to are given.
 */
export async function customersReport(db: Knex, scope: ReportScope, viewer: ConversationViewer, limit: number, offset: number, byCreation: boolean) {
  const [start, end] = localRange(db, scope);
  // Only contacts the viewer may reach, through a conversation they may open (docs/api/inbox.md), as on /customers.
  const visible = visibilityCondition(viewer, 'vcp');
  const base = visibleCustomers(db, viewer);
  if (byCreation) base.where('c.created_at', '>=', start).where('c.created_at', '<', end);
  if (scope.channels) base.whereExists(db('customer_platforms as cp').whereRaw('cp.customer_id = c.id').whereIn('cp.channel_id', scope.channels).select(1));
  const [rows, matched, total] = await Promise.all([
    base
      .clone()
      .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'desc' }])
      .limit(limit)
      .offset(offset)
      .select(
        'c.id',
        'c.name',
        'c.email',
        'c.phone',
        'c.created_at',
        db.raw(`(SELECT array_agg(DISTINCT ch.type) FROM customer_platforms vcp JOIN channels ch ON ch.id = vcp.channel_id WHERE vcp.customer_id = c.id AND (${visible.sql})) AS channels`, visible.bindings),
      ),
    base.clone().count({ n: '*' }).first(),
    visibleCustomers(db, viewer).count({ n: '*' }).first(),
  ]);
  type Row = { id: string; name: string | null; email: string | null; phone: string | null; createdAt: Date; channels: string[] | null };
  return {
    data: (rows as Row[]).map((r) => ({
      id: Number(r.id),
      name: r.name,
      email: r.email,
      phone: r.phone,
      createdAt: r.createdAt,
      channels: (r.channels ?? []).map((type) => ({ type, label: CHANNEL_LABELS[type] ?? type })),
    })),
    matchCount: Number(matched?.n ?? 0),
    totalCount: Number(total?.n ?? 0),
  };
}
