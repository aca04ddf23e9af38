import type { Knex } from 'knex';
import type { AppDeps } from '../../api/deps';
import { adapterFor, type ChannelType } from '../../api/channels/adapter';
// Registers the channel adapters in this process (the worker does not load api/app.ts).
import '../../api/channels';
import { MessageStatus, MessageType } from '../../api/models/Message';
import { loadChannel, lockConversation, type PlatformRow } from '../../api/conversations/queries';
import { publishConversationEvent, publishMessageStatus } from '../../api/conversations/fanout';
import { lockActiveSession, finishSession, type ActiveSession } from '../../api/bots/runtime/sessionRows';
import { startChannelSend } from '../../api/channels/outbound/startChannelSend';
import type { BotActivityDeps } from './deps';

const PREVIEW_CHARS = 200;

export interface SessionRef {
  workspaceId: number;
  conversationId: number;
  sessionId: number;
}

/** The conversation and its session, both locked (conversation first: the order every writer takes). */
export interface Locked {
  cp: PlatformRow;
  session: ActiveSession;
}

/**
 * Locks conversation then session; undefined when the session is over. A session whose call was resolved
 * meanwhile (by an agent) ends here as 'canceled': the bot never speaks into a finished call.
 */
export async function lockLiveSession(trx: Knex.Transaction, ref: SessionRef): Promise<Locked | undefined> {
  const cp = await lockConversation(trx, ref.workspaceId, ref.conversationId);
  if (!cp) return undefined;
  const session = await lockActiveSession(trx, ref.sessionId);
  if (!session) return undefined;
  if (session.callId === null || cp.isFinished || cp.currentCallId !== session.callId) {
    await finishSession(trx, session.id, 'canceled');
    return undefined;
  }
  return { cp, session };
}

interface StoredBotMessage {
  messageId: number;
  status: number;
  fresh: boolean;
  /** `pending` (and later sent/failed) on channels with a remote side: the outbound delivery path owns it. */
  deliveryState: string | null;
}

/**
 * Stores a BOT message (type 3, sender 'bot') under its idempotency key, inside the caller's transaction.
 * A key already stored returns that row (`fresh: false`): a retried activity never stores twice. On a
 * channel with a remote side (WhatsApp, Telegram, e-mail, custom: adapter.remote) it is stored `pending` for
 * the outbound delivery path (docs/outbound.md), as an agent's message is.
 * `createdAt` (default now) is for the demo seed, which writes past history through here.
 */
export async function storeBotMessage(trx: Knex.Transaction, locked: Locked, key: string, text: string, createdAt = new Date()): Promise<StoredBotMessage> {
  const { cp, session } = locked;
  const content = [{ insert: text }];
  const channel: { type: ChannelType } | undefined = await trx('channels').where({ id: cp.channelId }).first('type');
  const deliveryState = channel && adapterFor(channel.type)?.remote === true ? 'pending' : null;
  const [row] = await trx('messages')
    .insert({
      workspaceId: cp.workspaceId,
      customerPlatformId: cp.id,
      callId: session.callId,
      content: JSON.stringify(content),
      text,
      type: MessageType.BOT,
      status: MessageStatus.SENT,
      sender: 'bot',
      idempotencyKey: key,
      deliveryState,
      createdAt,
    })
    .returning('id');
  await trx('customer_platforms')
    .where({ id: cp.id })
    .update({
      lastMessage: JSON.stringify({ text: text.slice(0, PREVIEW_CHARS), type: MessageType.BOT, sender: 'bot', createdAt: createdAt.toISOString() }),
      lastMessageAt: trx.raw('greatest(last_message_at, ?)', [createdAt]),
      updatedAt: trx.fn.now(),
    });
  return { messageId: Number(row.id), status: MessageStatus.SENT, fresh: true, deliveryState };
}

/** A key's message if it was stored already (a retry, or the same step replayed). */
export async function findKeyedMessage(db: Knex | Knex.Transaction, conversationId: number, key: string): Promise<StoredBotMessage | undefined> {
  const row = await db('messages').where({ customerPlatformId: conversationId, idempotencyKey: key }).first('id', 'status', 'delivery_state');
  return row && { messageId: Number(row.id), status: row.status, fresh: false, deliveryState: row.deliveryState ?? null };
}

/**
 * After commit: a message of a remote channel is published and handed to its `channel-send:{messageId}`
 * workflow (the worker's sweep starts it when this process has no Temporal client). Otherwise (the widget)
 * a message the channel has not taken yet (status 1) goes to the adapter first (the contact
 * waits on it), which returns the external id stored with status 2; then the team sees a fresh message
 * live (chat.newMessage) and its status. Adapter failures are thrown so the activity retries the delivery
 * (the stored row is found by its key).
 */
export async function publishAndDeliver(deps: BotActivityDeps, ref: SessionRef, stored: StoredBotMessage): Promise<void> {
  if (stored.deliveryState !== null) {
    // The outbound delivery path sends it (once, with retries); a retried step starts the same workflow again (USE_EXISTING).
    if (stored.fresh) await publishConversationEvent(deps, 'chat.newMessage', ref.workspaceId, ref.conversationId, { messageId: stored.messageId });
    if (stored.deliveryState === 'pending') await startChannelSend(deps, stored.messageId);
    return;
  }
  let delivered = false;
  const cp = await deps.knex('customer_platforms').where({ workspaceId: ref.workspaceId, id: ref.conversationId }).first('id', 'workspace_id', 'channel_id', 'external_id', 'operator_id', 'group_id');
  if (!cp) return;
  if (stored.status === MessageStatus.SENT) {
    const channel = await loadChannel(deps.knex, ref.workspaceId, cp.channelId);
    const adapter = adapterFor(channel.type);
    if (adapter) {
      const message = await deps.knex('messages').where({ id: stored.messageId }).first('content', 'text', 'created_at');
      const result = await adapter.send(deps as unknown as AppDeps, channel, {
        messageId: stored.messageId,
        conversationId: cp.id,
        recipient: cp.externalId,
        content: message.content,
        text: message.text,
        operator: null,
        createdAt: message.createdAt,
        type: MessageType.BOT,
      });
      await deps.knex('messages')
        .where({ id: stored.messageId, status: MessageStatus.SENT })
        .update({ status: MessageStatus.RECEIVED, ...(result?.externalId ? { externalId: result.externalId } : {}), updatedAt: deps.knex.fn.now() });
      delivered = true;
    } else {
      deps.logger.warn({ conversationId: ref.conversationId, channel: channel.type }, 'no adapter for this channel type: bot message kept unsent');
    }
  }
  if (stored.fresh) await publishConversationEvent(deps, 'chat.newMessage', ref.workspaceId, ref.conversationId, { messageId: stored.messageId });
  if (delivered) await publishMessageStatus(deps, cp, stored.messageId, MessageStatus.RECEIVED);
}
