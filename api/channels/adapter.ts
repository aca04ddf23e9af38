import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { ChannelRecord, ChannelType } from '../models/Channel';
import type { QrSocketHolder } from './whatsapp/qr/sessionQueue';

// The channel types and a channel row as adapters see it live with the Channel model (one list of types).
export type { ChannelRecord, ChannelType } from '../models/Channel';

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
  /**
   * Derived from the message id, the same on every attempt (docs/outbound.md): an adapter whose provider
   * takes one passes it on; the others rely on the external id recorded after a send. The delivery path
   * always sets it; direct callers (bot activities, the seed) may leave it out.
   */
  idempotencyKey?: string;
}

/** What adapters may use: the api passes its AppDeps, the delivery activity its own (no mailer, no Temporal). */
export type ChannelDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> &
  Partial<Pick<AppDeps, 'temporal'>> & {
    /** Live connections (WhatsApp QR sockets) this worker process holds; absent in the api (docs/outbound.md). */
    qrSockets?: QrSocketHolder;
  };

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
  /**
   * True when sending reaches a remote side that can fail or be slow (WhatsApp, Telegram...): agent
   * messages are then committed `pending` and delivered by the `channel-send:{messageId}` workflow with
   * retries (docs/outbound.md). False/absent (the widget): the inbox calls `send` directly after commit.
   */
  remote?: boolean;
  /**
   * Where a send must run when the channel's connection lives in one worker process (WhatsApp QR): the task
   * queue only that worker polls, or null to send here. The delivery activity asks before sending.
   */
  route?(deps: ChannelDeps, channel: ChannelRecord): Promise<string | null>;
  /** Per-line refinement of canDelete (a WhatsApp Cloud line cannot delete; a QR line can). */
  canDeleteOn?(channel: ChannelRecord): boolean;
  /** Throws ChannelSendError for a send that did not happen (transient or permanent). */
  send(deps: ChannelDeps, channel: ChannelRecord, message: OutboundMessage): Promise<{ externalId?: string }>;
  deleteMessage?(deps: ChannelDeps, channel: ChannelRecord, externalId: string): Promise<void>;
  /** Agent typing indicator towards the customer, where the channel has one. */
  composing?(deps: ChannelDeps, channel: ChannelRecord, recipient: string): Promise<void>;
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
