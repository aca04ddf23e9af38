import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { MessageStatus } from '../models/Message';
import type { InboundMessage, InboundResult } from './types';
import { isMediaContent, normalizeContent, textOf } from './content';
import { ensureOpenCall } from './calls';
import { publishConversationEvent } from './fanout';
import type { PlatformRow } from './queries';
import { recordWebhookEvent } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { messageReceivedData } from '../webhooks/payloads';
import { assignNewCall } from '../assignment/assignNewCall';
import { markInboundPublished } from './republishInbound';
import { botForNewCall, dispatchToBot, type BotDispatch } from '../bots/runtime/inbound';
import { campaignOfReply } from '../campaigns/inbound';

export type InboundDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

const PLATFORM_COLUMNS = ['id', 'workspace_id', 'channel_id', 'customer_id', 'external_id', 'operator_id', 'group_id', 'bot_id', 'current_call_id', 'is_finished', 'has_new_messages', 'last_message_at'];
const PREVIEW_CHARS = 200;

function cut(value: string | null | undefined, max: number): string | null {
  const v = value?.trim();
  return v ? v.slice(0, max) : null;
}

/** The conversation of this identity in this channel, created with its contact on first contact; locked. */
async function upsertConversation(trx: Knex.Transaction, msg: InboundMessage): Promise<PlatformRow> {
  const key = { channelId: msg.channelId, externalId: msg.identity.externalId };
  const existing: PlatformRow | undefined = await trx('customer_platforms').where(key).forUpdate().first(PLATFORM_COLUMNS);
  if (existing) return existing;
  const id = msg.identity;
  const [customer] = await trx('customers')
    .insert({ workspaceId: msg.workspaceId, name: cut(id.name, 255), email: cut(id.email, 254), phone: cut(id.phone, 32), avatar: cut(id.avatar, 500), origin: 'visitor' })
    .returning('id');
  const inserted: PlatformRow[] = await trx('customer_platforms')
    .insert({ workspaceId: msg.workspaceId, ...key, customerId: customer.id })
    .onConflict(['channel_id', 'external_id'])
    .ignore()
    .returning(PLATFORM_COLUMNS);
  if (inserted.length) return inserted[0];
  // Another event of the same new identity committed first: its contact stands, ours was never seen.
  await trx('customers').where({ id: customer.id }).delete();
  return trx('customer_platforms').where(key).forUpdate().first(PLATFORM_COLUMNS);
}

/** What a new message was stored as, so the caller can present it without reading it back. */
export interface StoredInbound {
  content: unknown[];
  type: number;
  createdAt: Date;
}

interface Processed {
  stored?: StoredInbound;
  result: InboundResult;
  openedCall: boolean;
  /** The bot's part (docs/bots.md): a session to start, a message to signal, an old session to stop. */
  bot?: BotDispatch;
  /** webhook_deliveries recorded with the message (the outbox), started after commit. */
  deliveries?: number[];
  /** The inbound_events row, marked published once chat.newMessage went out (republishInbound.ts). */
  eventId?: number;
}

async function processEvent(trx: Knex.Transaction, msg: InboundMessage, eventId: number): Promise<Processed> {
  const cp = await upsertConversation(trx, msg);
  const call = await ensureOpenCall(trx, cp);
  const botStart = call.opened ? await botForNewCall(trx, { workspaceId: msg.workspaceId, channelId: msg.channelId, conversationId: cp.id, customerId: cp.customerId, callId: call.callId }) : undefined;
  // A call a bot takes is assigned when the bot hands it off (or ends without doing so).
  if (call.opened && botStart?.kind !== 'start') await assignNewCall(trx, { workspaceId: msg.workspaceId, channelId: msg.channelId, conversationId: cp.id, callId: call.callId });
  const content = normalizeContent(Array.isArray(msg.content) ? msg.content : []);
  const text = textOf(content);
  const type = msg.type === 4 ? 4 : 0;
  const now = new Date();
  // A provider's timestamp places a late delivery in the history, but never in the future.
  const createdAt = msg.sentAt && msg.sentAt.getTime() < now.getTime() ? msg.sentAt : now;
  const replyTo = msg.replyToExternalId
    ? await trx('messages').where({ channelId: msg.channelId, externalId: msg.replyToExternalId, customerPlatformId: cp.id }).first('id')
    : undefined;
  // A reply to a campaign is tagged with it; an opt-out word is recorded (docs/campaigns.md).
  const campaign = await campaignOfReply(trx, msg, text);

  // ON CONFLICT instead of a savepoint around the insert: two round trips fewer per message (bench: ingest).
  const [row]: { id: number }[] = await trx('messages')
    .insert({
      workspaceId: msg.workspaceId,
      customerPlatformId: cp.id,
      callId: call.callId,
      externalId: msg.externalId,
      content: JSON.stringify(content),
      text,
      type,
      status: MessageStatus.RECEIVED,
      sender: 'customer',
      isMedia: isMediaContent(content),
      replyToId: replyTo?.id ?? null,
      extraData: JSON.stringify(campaign ? { ...msg.extraData, campaign } : (msg.extraData ?? {})),
      createdAt,
    })
    .onConflict()
    .ignore()
    .returning('id');
  if (!row) {
    // The provider message is already stored (its event row was purged, or it came through another path).
    const stored = await trx('messages').where({ channelId: msg.channelId, externalId: msg.externalId }).first('id', 'customer_platform_id', 'call_id');
    if (!stored) throw new Error(`inbound message ${msg.externalId} conflicts with a stored row that is not its own`);
    const result = { conversationId: stored.customerPlatformId, messageId: stored.id, callId: stored.callId, duplicate: true };
    await markProcessed(trx, eventId, result);
    return { result, openedCall: false, eventId };
  }
  const messageId = row.id;

  // The call's waiting clock rides along with the preview update: one statement, one round trip.
  await trx('customer_platforms')
    .with('call_waiting', trx.raw('UPDATE calls SET waiting_since = coalesce(waiting_since, ?) WHERE id = ?', [createdAt, call.callId]))
    .where({ id: cp.id })
    .update({
      lastMessage: JSON.stringify({ text: text.slice(0, PREVIEW_CHARS), type, sender: 'customer', createdAt: createdAt.toISOString() }),
      lastMessageAt: trx.raw('greatest(last_message_at, ?)', [createdAt]),
      hasNewMessages: true,
      isFinished: false,
      currentCallId: call.callId,
      updatedAt: trx.fn.now(),
    });
  const result = { conversationId: cp.id, messageId, callId: call.callId, duplicate: false };
  await markProcessed(trx, eventId, result);
  const deliveries = await recordWebhookEvent(trx, msg.workspaceId, 'message:received', (db) => messageReceivedData(db, msg.workspaceId, messageId));
  const bot = botStart ?? (cp.botId !== null ? { kind: 'message' as const, conversationId: cp.id, messageId, callId: call.callId, text } : undefined);
  return { result, openedCall: call.opened, bot, deliveries, eventId, stored: { content, type, createdAt } };
}

async function markProcessed(trx: Knex.Transaction, eventId: number, result: InboundResult): Promise<void> {
  await trx('inbound_events')
    .where({ id: eventId })
    .update({
      processedAt: trx.fn.now(),
      attempts: trx.raw('attempts + 1'),
      lastError: null,
      // A message stored before has nothing new to publish.
      ...(result.duplicate ? { publishedAt: trx.fn.now() } : {}),
      payload: trx.raw("payload || jsonb_build_object('result', ?::jsonb)", [JSON.stringify(result)]),
    });
}

function storedPayload(msg: InboundMessage): string {
  return JSON.stringify({ message: { ...msg, sentAt: msg.sentAt?.toISOString() } });
}

/**
 * The one inbound pipeline every channel hands its messages to (DESIGN.md §7). One transaction: store the
 * event idempotently, find or create the contact and conversation, open a call when none is open (a
 * resolved conversation reopens with a new call and protocol), store the message, update the preview and
 * mark the event processed. A repeated event (same channel and external id) changes nothing and returns
 * what the first one stored, with `duplicate: true`. Realtime goes out after commit.
 */
export async function receiveInbound(deps: InboundDeps, msg: InboundMessage): Promise<InboundResult> {
  return (await ingestInbound(deps, msg)).result;
}

/** receiveInbound, also answering what a new message was stored as (none for a duplicate). */
export async function ingestInbound(deps: InboundDeps, msg: InboundMessage): Promise<{ result: InboundResult; stored?: StoredInbound }> {
  const outcome = await deps.knex.transaction(async (trx): Promise<Processed> => {
    // A concurrent insert of the same key makes this wait for that transaction, so a repeat always sees
    // the first one's outcome.
    const inserted: { id: number }[] = await trx('inbound_events')
      .insert({ workspaceId: msg.workspaceId, channelId: msg.channelId, externalId: msg.externalId, kind: 'message', payload: storedPayload(msg) })
      .onConflict(['channel_id', 'external_id'])
      .ignore()
      .returning('id');
    if (inserted.length) return processEvent(trx, msg, inserted[0].id);

    const event = await trx('inbound_events')
      .where({ channelId: msg.channelId, externalId: msg.externalId, workspaceId: msg.workspaceId })
      .forUpdate()
      .first('id', 'processed_at', 'payload');
    if (!event) throw new Error('inbound event belongs to another workspace');
    const stored = (event.payload as { result?: InboundResult }).result;
    if (event.processedAt && stored) return { result: { ...stored, duplicate: true }, openedCall: false };
    // Stored earlier but never processed (processing died after the store): finish it now.
    return processEvent(trx, msg, event.id);
  });

  const { result } = outcome;
  if (!result.duplicate) {
    // A reply to a running bot is signalled before the team fan-out: the contact is waiting on the bot.
    const replyToBot = outcome.bot?.kind === 'message';
    if (replyToBot) await dispatchToBot(deps, outcome.bot);
    const events = outcome.openedCall ? (['chat.newCall', 'chat.newMessage'] as const) : (['chat.newMessage'] as const);
    const sent = await publishConversationEvent(deps, events, msg.workspaceId, result.conversationId, { messageId: result.messageId });
    // Killed before this line, or the fan-out failed: the republish sweep sends chat.newMessage later.
    if (outcome.eventId && sent) await markInboundPublished(deps.knex, outcome.eventId);
    if (!replyToBot) await dispatchToBot(deps, outcome.bot);
    await dispatchDeliveries(deps, outcome.deliveries ?? []);
  }
  return { result, stored: result.duplicate ? undefined : outcome.stored };
}
