import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** The conversation's customer as message:received and csat:received carry it (joined as `cp` and `c`). */
const CUSTOMER_COLUMNS = ['cp.external_id', 'c.id as customer_id', 'c.name as customer_name', 'c.email as customer_email', 'c.phone as customer_phone'] as const;

function customerOf(row: { customerId: number; customerName: string | null; customerEmail: string | null; customerPhone: string | null; externalId: string }) {
  return { id: row.customerId, name: row.customerName, email: row.customerEmail, phone: row.customerPhone, externalId: row.externalId };
}

/**
 * The `data` of each event (docs/webhooks.md). Built inside the transaction of the change, from the rows it
 * is about to commit, so what the receiver gets is what the inbox shows.
 */

export async function messageReceivedData(knex: Db, workspaceId: number, messageId: number): Promise<Record<string, unknown> | null> {
  const row = await knex('messages as m')
    .join('customer_platforms as cp', 'cp.id', 'm.customer_platform_id')
    .join('customers as c', 'c.id', 'cp.customer_id')
    .join('calls as k', 'k.id', 'm.call_id')
    .where({ 'm.id': messageId, 'm.workspace_id': workspaceId })
    .first(
      'm.id',
      'm.type',
      'm.text',
      'm.content',
      'm.sender',
      'm.created_at',
      'm.channel_id',
      'cp.id as conversation_id',
      'k.id as call_id',
      'k.protocol',
      ...CUSTOMER_COLUMNS,
    );
  if (!row) return null;
  return {
    conversationId: row.conversationId,
    channelId: row.channelId,
    call: { id: row.callId, protocol: row.protocol ?? null },
    customer: customerOf(row),
    message: { id: row.id, type: row.type, text: row.text, content: row.content, sender: row.sender, createdAt: row.createdAt },
  };
}

export async function sessionStatusData(knex: Db, workspaceId: number, conversationId: number): Promise<Record<string, unknown> | null> {
  const row = await knex('customer_platforms as cp')
    .leftJoin('calls as k', 'k.id', 'cp.current_call_id')
    .where({ 'cp.id': conversationId, 'cp.workspace_id': workspaceId })
    .first('cp.id', 'cp.is_finished', 'cp.customer_id', 'cp.channel_id', 'cp.operator_id', 'k.id as call_id', 'k.protocol', 'k.finished_at');
  if (!row) return null;
  return {
    conversationId: row.id,
    status: row.isFinished ? 'resolved' : 'open',
    channelId: row.channelId,
    customerId: row.customerId,
    operatorId: row.operatorId,
    call: row.callId ? { id: row.callId, protocol: row.protocol ?? null, finishedAt: row.finishedAt } : null,
  };
}

export async function personChangedData(knex: Db, workspaceId: number, customerId: number): Promise<Record<string, unknown> | null> {
  const row = await knex('customers').where({ id: customerId, workspaceId }).first();
  if (!row) return null;
  const properties = await knex('customer_properties').where({ customerId, workspaceId }).orderBy('id').select('label', 'code', 'value');
  return {
    customer: { id: row.id, name: row.name, email: row.email, phone: row.phone, avatar: row.avatar, updatedAt: row.updatedAt, properties },
  };
}

/** csat:received (docs/csat.md): a customer's rating of a resolved call, stored on the call. */
export async function csatReceivedData(knex: Db, workspaceId: number, callId: number): Promise<Record<string, unknown> | null> {
  const row = await knex('calls as k')
    .join('customer_platforms as cp', 'cp.id', 'k.customer_platform_id')
    .join('customers as c', 'c.id', 'cp.customer_id')
    .where({ 'k.id': callId, 'k.workspace_id': workspaceId })
    .whereNotNull('k.csat_rating')
    .first(
      'k.id',
      'k.protocol',
      'k.operator_id',
      'k.group_id',
      'k.created_at',
      'k.finished_at',
      'k.csat_rating',
      'k.csat_comment',
      'k.csat_answered_at',
      'cp.id as conversation_id',
      'cp.channel_id',
      ...CUSTOMER_COLUMNS,
    );
  if (!row) return null;
  return {
    conversationId: row.conversationId,
    channelId: row.channelId,
    call: { id: row.id, protocol: row.protocol ?? null, operatorId: row.operatorId, groupId: row.groupId, createdAt: row.createdAt, finishedAt: row.finishedAt },
    customer: customerOf(row),
    rating: row.csatRating,
    comment: row.csatComment,
    answeredAt: row.csatAnsweredAt,
  };
}
