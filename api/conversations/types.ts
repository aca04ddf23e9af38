/**
 * What every channel hands to the shared inbound pipeline (api/conversations/receiveInbound.ts):
 * verify → store idempotently → answer 200 → conversation/call upsert, realtime (DESIGN.md §7).
 */
export interface InboundMessage {
  workspaceId: number;
  channelId: number;
  /** Unique per channel for this event (provider message id, or a client-generated id for the widget). */
  externalId: string;
  /** The customer's identity in the channel (customer_platforms.external_id). */
  identity: { externalId: string; name?: string | null; email?: string | null; phone?: string | null; avatar?: string | null };
  /** Quill Delta ops or file entries (docs/api/inbox.md). */
  content: unknown[];
  /** Message type; inbound customer messages are COMMON (0) or EMAIL (4). */
  type?: 0 | 4;
  replyToExternalId?: string | null;
  extraData?: Record<string, unknown>;
  sentAt?: Date;
}

export interface InboundResult {
  conversationId: number;
  messageId: number;
  callId: number;
  /** True when this (channel, externalId) was already stored: nothing changed. */
  duplicate: boolean;
}
