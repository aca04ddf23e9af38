import type { Knex } from 'knex';
import type { Model, QueryBuilder } from 'objection';
import type { Channel } from '../../models/Channel';
import { preparedStatement } from '../../db/prepared';
import { CustomerPlatform } from '../../models/CustomerPlatform';
import { Message, MessageType } from '../../models/Message';
import type { VisitorSession } from '../../auth/visitorSessions';

/**
 * Widget calls are public: the channel is found by its identifier alone (unique across workspaces, the
 * one unscoped lookup the widget needs); everything after that is scoped to the channel's workspace.
 */
export async function findWidgetChannel(db: Knex, identifier: string): Promise<(Channel & { company: string }) | undefined> {
  const [row] = await widgetChannel.rows<Channel & { company: string }>(db, { identifier });
  return row;
}

/** A first contact's first statement, prepared once (api/db/prepared.ts, docs/performance.md "Ingest"). */
const widgetChannel = preparedStatement('widget_channel', ['identifier'], (db, p) =>
  db('channels')
    .join('workspaces', 'workspaces.id', 'channels.workspace_id')
    .where('channels.identifier', p.identifier)
    .where('channels.type', 'widget')
    .first('channels.*', 'workspaces.name as company'),
);

/** What the visitor may read of their conversation: their messages, the team's answers and the bot's. */
export const VISITOR_MESSAGE_TYPES = [MessageType.COMMON, MessageType.BOT] as const;

/** What a visitor may know of an agent: a name and an avatar, never the e-mail or phone. */
function selectPublicOperator(qb: QueryBuilder<Model>): void {
  qb.select('operators.id', 'operators.name', 'operators.avatar');
}

export interface VisitorMessagesPage {
  limit: number;
  before?: number;
  after?: number;
}

/** The visitor's conversation (their customer platform in the channel), if their first message created it. */
export async function findVisitorConversation(db: Knex, visitor: VisitorSession): Promise<CustomerPlatform | undefined> {
  return (await CustomerPlatform.query(db)
    .where('customer_platforms.workspace_id', visitor.workspaceId)
    .where('customer_platforms.channel_id', visitor.channelId)
    .where('customer_platforms.external_id', visitor.visitorId)
    .first()) as CustomerPlatform | undefined;
}

/**
 * A page of the visitor's messages, oldest first. Never team notes (type 2) nor system lines (type 1):
 * only the types in VISITOR_MESSAGE_TYPES, and never deleted ones.
 */
export async function listVisitorMessages(db: Knex, visitor: VisitorSession, page: VisitorMessagesPage): Promise<Message[]> {
  const conversation = await findVisitorConversation(db, visitor);
  if (!conversation) return [];
  const q = Message.query(db)
    .where('messages.workspace_id', visitor.workspaceId)
    .where('messages.customer_platform_id', conversation.id)
    .whereIn('messages.type', [...VISITOR_MESSAGE_TYPES])
    .where('messages.is_deleted', false)
    .withGraphFetched('operator(publicFields)')
    .modifiers({ publicFields: selectPublicOperator })
    .limit(page.limit);
  if (page.after !== undefined) {
    // Refetch after a reconnect: what came after the last message the widget has, oldest first.
    q.where('messages.id', '>', page.after).orderBy('messages.created_at', 'asc').orderBy('messages.id', 'asc');
    return (await q) as Message[];
  }
  q.modify('newestFirst');
  if (page.before !== undefined) q.modify('before', { id: page.before, conversationId: conversation.id });
  return ((await q) as Message[]).reverse();
}

/** One message of the visitor's channel, with its author, for the answers of the widget calls. */
export async function findWidgetMessage(db: Knex, visitor: VisitorSession, messageId: number): Promise<Message | undefined> {
  return (await Message.query(db)
    .where('messages.workspace_id', visitor.workspaceId)
    .where('messages.channel_id', visitor.channelId)
    .withGraphFetched('operator(publicFields)')
    .modifiers({ publicFields: selectPublicOperator })
    .findById(messageId)) as Message | undefined;
}
