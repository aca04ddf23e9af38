import type { Knex } from 'knex';
import type { ReportScope } from './filters';

/** SPEC §2 contacts report labels of a channel type. */
export const CHANNEL_LABELS: Record<string, string> = {
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  facebook: 'Messenger',
  telegram: 'Telegram',
  email: 'Email',
  custom: 'Customizado',
  widget: 'Widget',
};

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
export async function customersReport(db: Knex, scope: ReportScope, limit: number, offset: number, byCreation: boolean) {
  const [start, end] = localRange(db, scope);
  const base = db('customers as cu').where('cu.workspace_id', scope.workspaceId);
  if (byCreation) base.where('cu.created_at', '>=', start).where('cu.created_at', '<', end);
  if (scope.channels) base.whereExists(db('customer_platforms as cp').whereRaw('cp.customer_id = cu.id').whereIn('cp.channel_id', scope.channels).select(1));
  const [rows, matched, total] = await Promise.all([
    base
      .clone()
      .orderBy([{ column: 'cu.created_at', order: 'desc' }, { column: 'cu.id', order: 'desc' }])
      .limit(limit)
      .offset(offset)
      .select(
        'cu.id',
        'cu.name',
        'cu.email',
        'cu.phone',
        'cu.created_at',
        db.raw('(SELECT array_agg(DISTINCT c.type) FROM customer_platforms cp JOIN channels c ON c.id = cp.channel_id WHERE cp.customer_id = cu.id) AS channels'),
      ),
    base.clone().count({ n: '*' }).first(),
    db('customers').where('workspace_id', scope.workspaceId).count({ n: '*' }).first(),
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
