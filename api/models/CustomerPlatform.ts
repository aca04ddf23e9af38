import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { belongsToOne, hasMany } from './relations';
import { finishedFlag, linkedToOperator } from './modifiers';
import { Bot } from './Bot';
import { Call } from './Call';
import { Channel } from './Channel';
import { Customer } from './Customer';
import { Group } from './Group';
import { Message } from './Message';
import { Operator } from './Operator';

/** Preview of the last message, kept on the row so list pages need no join. */
export interface LastMessagePreview {
  text: string;
  type: number;
  sender: string;
  createdAt: string;
}

/** Cursor of a keyset inbox page: the last row of the previous page. */
export interface InboxCursor {
  lastMessageAt: Date | string;
  id: number;
}

/**
 * The inbox item ("Conversation" in SPEC): one customer identity in one channel. The index
 * customer_platforms_inbox_idx (and its assignee/group variants) serves `inboxOrder` + `after`.
 */
export class CustomerPlatform extends BaseModel {
  static override tableName = 'customer_platforms';
  static override jsonAttributes = ['lastMessage'];
  id!: number;
  workspaceId!: number;
  channelId!: number;
  customerId!: number;
  /** The identity in the channel: WhatsApp JID, Telegram chat id, widget visitor id, e-mail address. */
  externalId!: string;
  /** Assignee. */
  operatorId!: number | null;
  groupId!: number | null;
  botId!: number | null;
  currentCallId!: number | null;
  isGroup!: boolean;
  isFinished!: boolean;
  hasNewMessages!: boolean;
  lastMessage!: LastMessagePreview | null;
  lastMessageAt!: Date;
  createdAt!: Date;
  updatedAt!: Date;
  customer?: Customer;
  channel?: Channel;
  assignee?: Operator | null;
  group?: Group | null;
  bot?: Bot | null;
  currentCall?: Call | null;
  calls?: Call[];
  messages?: Message[];

  static override relationMappings = (): RelationMappings => ({
    customer: belongsToOne(Customer, 'customer_platforms.customer_id', 'customers.id'),
    channel: belongsToOne(Channel, 'customer_platforms.channel_id', 'channels.id'),
    assignee: belongsToOne(Operator, 'customer_platforms.operator_id', 'operators.id'),
    group: belongsToOne(Group, 'customer_platforms.group_id', 'groups.id'),
    bot: belongsToOne(Bot, 'customer_platforms.bot_id', 'bots.id'),
    currentCall: belongsToOne(Call, 'customer_platforms.current_call_id', 'calls.id'),
    calls: hasMany(Call, 'customer_platforms.id', 'calls.customer_platform_id'),
    messages: hasMany(Message, 'customer_platforms.id', 'messages.customer_platform_id'),
  });

  static override modifiers: Modifiers = {
    ...finishedFlag('customer_platforms'),
    /** Matches customer_platforms_unread_idx's predicate, so counting reads that small index only. */
    unread(qb) {
      qb.whereRaw('customer_platforms.has_new_messages AND NOT customer_platforms.is_finished');
    },
    assignedTo(qb, operatorId: number) {
      qb.where('customer_platforms.operator_id', operatorId);
    },
    unassigned(qb) {
      qb.whereNull('customer_platforms.operator_id');
    },
    inGroups(qb, groupIds: number[]) {
      qb.whereIn('customer_platforms.group_id', groupIds);
    },
    starredBy: linkedToOperator('customer_platforms', { table: 'customer_platform_favorites', column: 'customer_platform_id' }),
    /** Newest activity first; pair with `after` for the next page. */
    inboxOrder(qb) {
      qb.orderBy('customer_platforms.last_message_at', 'desc').orderBy('customer_platforms.id', 'desc');
    },
    after(qb, cursor: InboxCursor) {
      qb.whereRaw('(customer_platforms.last_message_at, customer_platforms.id) < (?, ?)', [cursor.lastMessageAt, cursor.id]);
    },
  };
}
