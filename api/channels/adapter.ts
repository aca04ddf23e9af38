import type { Knex } from 'knex';
import type { AppDeps } from '../deps';

/** A channel row as adapters see it. */
export interface ChannelRecord {
  id: number;
  workspaceId: number;
  type: ChannelType;
  platformId: number;
  identifier: string;
  description: string | null;
  name: string | null;
  config: Record<string, unknown>;
}

export type ChannelType = 'whatsapp' | 'telegram' | 'facebook' | 'widget' | 'email' | 'custom' | 'instagram';

/** What an adapter needs to deliver one agent message to the customer. */
export interface OutboundMessage {
  messageId: number;
  conversationId: number;
  /** The customer's identity in the channel (customer_platforms.external_id). */
  recipient: string;
  content: unknown[];
  text: string;
  replyToExternalId?: string | null;
  operator: { id: number; name: string; avatar: string | null } | null;
  createdAt: Date;
  type: number;
}

/**
 * One adapter per channel type (DESIGN.md §7), in api/channels/<type>/. The inbox calls `send` after the
 * message is committed; inbound requests are verified and parsed by the adapter's own routes, then handed
 * to api/conversations/receiveInbound.ts.
 */
export interface ChannelAdapter {
  type: ChannelType;
  /** SPEC §4: reply only on WhatsApp, Instagram and Telegram messages with an external id. */
  canReply: boolean;
  /** SPEC §4: delete only on WhatsApp and Telegram. */
  canDelete: boolean;
  send(deps: AppDeps, channel: ChannelRecord, message: OutboundMessage): Promise<{ externalId?: string }>;
  deleteMessage?(deps: AppDeps, channel: ChannelRecord, externalId: string): Promise<void>;
  /** Agent typing indicator towards the customer, where the channel has one. */
  composing?(deps: AppDeps, channel: ChannelRecord, recipient: string): Promise<void>;
}

const adapters = new Map<ChannelType, ChannelAdapter>();

export function registerAdapter(adapter: ChannelAdapter): void {
  adapters.set(adapter.type, adapter);
}

/** Removes a channel type's adapter (a type switched off; tests restoring the registry). */
export function unregisterAdapter(type: ChannelType): void {
  adapters.delete(type);
}

export function adapterFor(type: ChannelType): ChannelAdapter | undefined {
  return adapters.get(type);
}

export type Db = Knex | Knex.Transaction;
