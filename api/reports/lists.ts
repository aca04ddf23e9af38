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
  const base = visibleCustomers(db, viewer);
  if (byCreation) base.where('c.created_at', '>=', start).where('c.created_at', '<', end);
  if (scope.channels) base.whereExists(db('customer_platforms as cp').whereRaw('cp.customer_id = c.id').whereIn('cp.channel_id', scope.channels).select(1));
  return contactPage<{ name: string | null; email: string | null; phone: string | null; createdAt: Date }>(db, viewer, base, ['c.name', 'c.email', 'c.phone', 'c.created_at'], limit, offset);
}

/**
 * A page of `base` (contacts the viewer may reach, alias c, filtered), newest first, with the `columns` asked
 * and the channel types of the contact's conversations the viewer may see, with SPEC §2's labels; and how many
 * `base` matches and how many contacts the viewer may reach. Shared by the contacts report and GET /customer.
 */
export async function contactPage<Row extends object>(db: Knex, viewer: ConversationViewer, base: Knex.QueryBuilder, columns: string[], limit: number, offset: number) {
  const visible = visibilityCondition(viewer, 'vcp');
  const [rows, matched, total] = await Promise.all([
    base
      .clone()
      .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'desc' }])
      .limit(limit)
      .offset(offset)
      .select(
        'c.id',
        ...columns,
        db.raw(`(SELECT array_agg(DISTINCT ch.type) FROM customer_platforms vcp JOIN channels ch ON ch.id = vcp.channel_id WHERE vcp.customer_id = c.id AND (${visible.sql})) AS channels`, visible.bindings),
      ),
    base.clone().count({ n: '*' }).first(),
    visibleCustomers(db, viewer).count({ n: '*' }).first(),
  ]);
  const data = (rows as (Row & { id: string | number; channels: string[] | null })[]).map((r) => ({
    ...r,
    id: Number(r.id),
    channels: (r.channels ?? []).sort().map((type) => ({ type, label: CHANNEL_LABELS[type] ?? type })),
  }));
  return { data, matchCount: Number(matched?.n ?? 0), totalCount: Number(total?.n ?? 0) };
}
