import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { belongsToOne } from './relations';
import { newestFirst } from './modifiers';
import { Call } from './Call';
import { CustomerPlatform } from './CustomerPlatform';
import { Operator } from './Operator';

/** SPEC §3 message types. */
export const MessageType = { COMMON: 0, SYSTEM: 1, PRIVATE: 2, BOT: 3, EMAIL: 4 } as const;
export type MessageTypeValue = (typeof MessageType)[keyof typeof MessageType];
/** SPEC §3 delivery status: sent, received on server, delivered, read. */
export const MessageStatus = { SENT: 1, RECEIVED: 2, DELIVERED: 3, READ: 4 } as const;
export type MessageStatusValue = (typeof MessageStatus)[keyof typeof MessageStatus];
export const MESSAGE_SENDERS = ['customer', 'operator', 'bot', 'system'] as const;
export type MessageSender = (typeof MESSAGE_SENDERS)[number];

/** A Quill Delta operation. */
export interface DeltaOp {
  insert: string | Record<string, unknown>;
  attributes?: Record<string, unknown>;
}
/** An attachment; key is the stored_files key. */
export interface FileEntry {
  key: string;
  fileName: string;
  mime: string;
  size: number;
}
export type MessageContent = Array<DeltaOp | FileEntry>;

/** E-mail headers (threading goes by messageId, indexed per channel); WhatsApp group participant. */
export interface MessageExtraData {
  from?: string;
  to?: string[];
  cc?: string[];
  subject?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  participant?: { id: string; name?: string };
  [key: string]: unknown;
}

/** Cursor of a keyset message page: the oldest message of the previous page, and its conversation. */
export interface MessageCursor {
  id: number;
  conversationId: number;
}

/**
 * A message of a conversation, exchanged in one of its calls (the composite key refuses a call of another
 * conversation). channelId is copied from the conversation by a trigger: never set it.
 */
export class Message extends BaseModel {
  static override tableName = 'messages';
  static override jsonAttributes = ['content', 'extraData'];
  id!: number;
  workspaceId!: number;
  channelId!: number;
  customerPlatformId!: number;
  callId!: number;
  externalId!: string | null;
  content!: MessageContent;
  /** Plain text derived from content (search, previews, text-only channels). */
  text!: string;
  type!: MessageTypeValue;
  status!: MessageStatusValue;
  operatorId!: number | null;
  sender!: MessageSender;
  isDeleted!: boolean;
  isMedia!: boolean;
  replyToId!: number | null;
  extraData!: MessageExtraData;
  createdAt!: Date;
  updatedAt!: Date;
  operator?: Operator | null;
  replyTo?: Message | null;
  call?: Call;
  conversation?: CustomerPlatform;

  static override relationMappings = (): RelationMappings => ({
    operator: belongsToOne(Operator, 'messages.operator_id', 'operators.id'),
    replyTo: belongsToOne(Message, 'messages.reply_to_id', 'messages.id'),
    call: belongsToOne(Call, 'messages.call_id', 'calls.id'),
    conversation: belongsToOne(CustomerPlatform, 'messages.customer_platform_id', 'customer_platforms.id'),
  });

  static override modifiers: Modifiers = {
    /** Newest first (messages_page_idx); pair with `before` for older pages. */
    newestFirst: newestFirst('messages'),
    /**
     * Older than a message of the same conversation, compared in SQL: a timestamp read into JavaScript keeps
     * milliseconds only, so two messages of one millisecond would be skipped by a cursor that went through it.
     * No such message in the conversation: no rows (a NULL comparison).
     */
    before(qb, cursor: MessageCursor) {
      qb.whereRaw('(messages.created_at, messages.id) < (SELECT b.created_at, b.id FROM messages b WHERE b.id = ? AND b.customer_platform_id = ?)', [cursor.id, cursor.conversationId]);
    },
    /** What the customer side may see: never team notes (the widget channel relies on it). */
    forCustomer(qb) {
      qb.whereNot('messages.type', MessageType.PRIVATE);
    },
    /** Matches messages_media_idx's predicate. */
    media(qb) {
      qb.whereRaw('messages.is_media AND NOT messages.is_deleted');
    },
    /** Full-text search with the exact expression and predicate of messages_search_idx (docs/search.md). */
    search(qb, text: string) {
      qb.whereRaw(
        "to_tsvector('balcao_pt', messages.text) @@ websearch_to_tsquery('balcao_pt', ?) AND NOT messages.is_deleted AND messages.sender IN ('customer', 'operator')",
        [text],
      );
    },
  };
}
