import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { MessageStatus } from '../models/Message';
import type { InboundMessage, InboundResult } from '../conversations/types';
import { isMediaContent, normalizeContent, textOf, type ContentItem } from '../conversations/content';
import { openCall } from '../conversations/calls';
import { publishConversationEvent, type KnownConversation } from '../conversations/fanout';
import { conversationQuery, type ConversationRow, type PlatformRow } from '../conversations/queries';
import { recordWebhookEvent } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { messageReceivedData } from '../webhooks/payloads';
import { assignNewCall } from '../assignment/assignNewCall';
import { markInboundPublished } from '../conversations/republishInbound';
import { botForNewCall, dispatchToBot, type BotDispatch } from '../bots/runtime/inbound';
import { campaignOfReply, phoneOf } from '../campaigns/inbound';
import { storeInOneStatement, type OneStatementOutcome } from './ingestStatement';
import { schedulePush } from '../push/send';
import { parseRating, type ParsedRating } from '../csat/rating';
import { afterCsatAnswer, pendingCsatCall, recordCsatAnswer, type RecordedCsat } from '../csat/recordAnswer';

export type InboundDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

const PLATFORM_COLUMNS = ['id', 'workspace_id', 'channel_id', 'customer_id', 'external_id', 'operator_id', 'group_id', 'bot_id', 'current_call_id', 'is_finished', 'has_new_messages', 'last_message_at', 'csat_call_id', 'csat_until'];
const PREVIEW_CHARS = 200;

function cut(value: string | null | undefined, max: number): string | null {
  const v = value?.trim();
  return v ? v.slice(0, max) : null;
}

/** The conversation of this identity in this channel, created with its contact on first contact; locked. */
async function upsertConversation(trx: Knex.Transaction, msg: InboundMessage): Promise<{ cp: PlatformRow; created: boolean }> {
  const key = { channelId: msg.channelId, externalId: msg.identity.externalId };
  const existing: PlatformRow | undefined = await trx('customer_platforms').where(key).forUpdate().first(PLATFORM_COLUMNS);
  if (existing) return { cp: existing, created: false };
  const id = msg.identity;
  const [customer] = await trx('customers')
    .insert({ workspaceId: msg.workspaceId, name: cut(id.name, 255), email: cut(id.email, 254), phone: cut(id.phone, 32), avatar: cut(id.avatar, 500), origin: 'visitor' })
    .returning('id');
  const inserted: PlatformRow[] = await trx('customer_platforms')
    .insert({ workspaceId: msg.workspaceId, ...key, customerId: customer.id })
    .onConflict(['channel_id', 'external_id'])
    .ignore()
    .returning(PLATFORM_COLUMNS);
  if (inserted.length) return { cp: inserted[0], created: true };
  // Another event of the same new identity committed first: its contact stands, ours was never seen.
  await trx('customers').where({ id: customer.id }).delete();
  return { cp: await trx('customer_platforms').where(key).forUpdate().first(PLATFORM_COLUMNS), created: false };
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
  /** The conversation as the message left it (read under its row lock), for the fan-out. */
  conversation?: KnownConversation;
  /** Whether any agent of the workspace turned Web Push on (read in the message's statement): no push work otherwise. */
  hasPush?: boolean;
  /** The message answered the satisfaction question of the call just resolved (docs/csat.md). */
  csat?: RecordedCsat;
}

/** The message as stored, whichever path stores it. */
interface BaseFields {
  createdAt: Date;
  content: ContentItem[];
  text: string;
  type: number;
}

interface MessageFields extends BaseFields {
  replyToId: number | null;
  extraData: Record<string, unknown>;
}

function baseFields(msg: InboundMessage): BaseFields {
  const content = normalizeContent(Array.isArray(msg.content) ? msg.content : []);
  const now = new Date();
  // A provider's timestamp places a late delivery in the history, but never in the future.
  const createdAt = msg.sentAt && msg.sentAt.getTime() < now.getTime() ? msg.sentAt : now;
  return { createdAt, content, text: textOf(content), type: msg.type === 4 ? 4 : 0 };
}

/** The conversation's last_message. */
function previewOf(m: BaseFields): string {
  return JSON.stringify({ text: m.text.slice(0, PREVIEW_CHARS), type: m.type, sender: 'customer', createdAt: m.createdAt.toISOString() });
}

type StoreOutcome =
  /** No open call (a new or resolved conversation): nothing was written. */
  | { kind: 'no-call' }
  /** The message is stored already (same channel and external id): nothing was written. */
  | { kind: 'duplicate' }
  | { kind: 'stored'; messageId: number; callId: number; conversation: ConversationRow; starredBy: number[]; webhooks: number[]; hasPush: boolean };

/**
 * The message's writes in one statement (bench: ingest; each round trip costs the api's core a knex build
 * and a socket write): the insert into the conversation's open call (`callId`, or the open call found by
 * the statement itself, under the conversation row lock the caller holds), the call's waiting clock, the
 * conversation's preview, the event marked processed with its result; and what the rest of the pipeline
 * would read next: the conversation as the inbox presents it, who starred it, the webhooks subscribed to
 * message:received, whether anyone of the workspace receives Web Push. Writes nothing when there is no open call or the message is stored already.
 */
async function storeMessage(trx: Knex.Transaction, msg: InboundMessage, cp: PlatformRow, eventId: number, m: MessageFields, callId?: number): Promise<StoreOutcome> {
  const openCall =
    callId === undefined
      ? trx.raw('SELECT id FROM calls WHERE customer_platform_id = ? AND is_finished = false LIMIT 1', [cp.id])
      : trx.raw('SELECT ?::bigint AS id', [callId]);
  const preview = previewOf(m);
  const conversation = conversationQuery(trx, msg.workspaceId, undefined, 'upd').where('cp.id', cp.id);
  const rows: ({ openCallId: number | null; messageId: number | null; starredBy: number[] | null; webhooks: number[] | null; hasPush: boolean } & Partial<ConversationRow>)[] = await trx
    .with('open_call', openCall)
    .with(
      'ins',
      trx.raw(
        `INSERT INTO messages (workspace_id, customer_platform_id, call_id, external_id, content, text, type, status, sender, is_media, reply_to_id, extra_data, created_at)
         SELECT ?::bigint, ?::bigint, open_call.id, ?::text, ?::jsonb, ?::text, ?::int, ?::int, 'customer', ?::boolean, ?::bigint, ?::jsonb, ?::timestamptz FROM open_call
         ON CONFLICT DO NOTHING RETURNING id, call_id`,
        [msg.workspaceId, cp.id, msg.externalId, JSON.stringify(m.content), m.text, m.type, MessageStatus.RECEIVED, isMediaContent(m.content), m.replyToId, JSON.stringify(m.extraData), m.createdAt],
      ),
    )
    .with('call_waiting', trx.raw('UPDATE calls SET waiting_since = coalesce(waiting_since, ?::timestamptz) FROM ins WHERE calls.id = ins.call_id', [m.createdAt]))
    .with(
      'upd',
      trx.raw(
        `UPDATE customer_platforms SET last_message = ?::jsonb, last_message_at = greatest(last_message_at, ?::timestamptz), has_new_messages = true,
           is_finished = false, current_call_id = ins.call_id, updated_at = CURRENT_TIMESTAMP
         FROM ins WHERE customer_platforms.id = ? RETURNING customer_platforms.*`,
        [preview, m.createdAt, cp.id],
      ),
    )
    .with(
      'processed',
      trx.raw(
        `UPDATE inbound_events SET processed_at = CURRENT_TIMESTAMP, attempts = attempts + 1, last_error = NULL,
           payload = payload || jsonb_build_object('result', jsonb_build_object('conversationId', ?::bigint, 'messageId', ins.id, 'callId', ins.call_id, 'duplicate', false))
         FROM ins WHERE inbound_events.id = ?`,
        [cp.id, eventId],
      ),
    )
    .select(
      trx.raw('(SELECT id FROM open_call) AS open_call_id'),
      trx.raw('(SELECT id FROM ins) AS message_id'),
      trx.raw('(SELECT array_agg(f.operator_id) FROM customer_platform_favorites f WHERE f.workspace_id = ? AND f.customer_platform_id = ?) AS starred_by', [msg.workspaceId, cp.id]),
      trx.raw(
        "(SELECT array_agg(w.id ORDER BY w.id) FROM webhooks w WHERE w.workspace_id = ? AND w.disabled_at IS NULL AND 'message:received' = ANY (w.subscriptions)) AS webhooks",
        [msg.workspaceId],
      ),
      trx.raw('EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.workspace_id = ?) AS has_push', [msg.workspaceId]),
      'conv.*',
    )
    .from(trx.raw('(SELECT 1) AS one'))
    .joinRaw('LEFT JOIN (?) AS conv ON true', [conversation as unknown as Knex.Raw]);
  const [row] = rows;
  if (row.openCallId === null) return { kind: 'no-call' };
  if (row.messageId === null) return { kind: 'duplicate' };
  const { openCallId, messageId, starredBy, webhooks, hasPush, ...conv } = row;
  return { kind: 'stored', messageId, callId: openCallId, conversation: conv as ConversationRow, starredBy: starredBy ?? [], webhooks: webhooks ?? [], hasPush };
}

async function processEvent(trx: Knex.Transaction, msg: InboundMessage, eventId: number, base: BaseFields): Promise<Processed> {
  const { cp, created } = await upsertConversation(trx, msg);
  const { content, text, type, createdAt } = base;
  const replyTo = msg.replyToExternalId
    ? await trx('messages').where({ channelId: msg.channelId, externalId: msg.replyToExternalId, customerPlatformId: cp.id }).first('id')
    : undefined;
  // A reply to a campaign is tagged with it; an opt-out word is recorded (docs/campaigns.md).
  const campaign = await campaignOfReply(trx, msg, text);
  const fields: MessageFields = { ...base, replyToId: replyTo?.id ?? null, extraData: campaign ? { ...msg.extraData, campaign } : (msg.extraData ?? {}) };

  // An answer to the satisfaction question of the call just resolved is stored on that call, not as a new
  // call (docs/csat.md "Answers"): the pending question came with the locked row, so nothing more is read.
  const csatCallId = created || isMediaContent(content) ? null : pendingCsatCall(cp, createdAt);
  const rating = csatCallId ? parseRating(text) : null;
  if (csatCallId && rating) {
    const answered = await storeCsatAnswer(trx, msg, cp, eventId, fields, csatCallId, rating);
    if (answered) return answered;
  }

  // A conversation with an open call takes the message in one statement; a new one (or a resolved one) gets
  // its call first: a new call goes to a bot or to auto-assignment before the message is stored.
  let outcome: StoreOutcome = created ? { kind: 'no-call' } : await storeMessage(trx, msg, cp, eventId, fields);
  let opened = false;
  let botStart: BotDispatch | undefined;
  if (outcome.kind === 'no-call') {
    const call = await openCall(trx, cp);
    opened = call.opened;
    botStart = call.opened ? await botForNewCall(trx, { workspaceId: msg.workspaceId, channelId: msg.channelId, conversationId: cp.id, customerId: cp.customerId, callId: call.callId }) : undefined;
    // A call a bot takes is assigned when the bot hands it off (or ends without doing so).
    if (call.opened && botStart?.kind !== 'start') await assignNewCall(trx, { workspaceId: msg.workspaceId, channelId: msg.channelId, conversationId: cp.id, callId: call.callId });
    outcome = await storeMessage(trx, msg, cp, eventId, fields, call.callId);
  }
  if (outcome.kind !== 'stored') {
    // The provider message is already stored (its event row was purged, or it came through another path).
    const stored = await trx('messages').where({ channelId: msg.channelId, externalId: msg.externalId }).first('id', 'customer_platform_id', 'call_id');
    if (!stored) throw new Error(`inbound message ${msg.externalId} conflicts with a stored row that is not its own`);
    const result = { conversationId: stored.customerPlatformId, messageId: stored.id, callId: stored.callId, duplicate: true };
    await markProcessed(trx, eventId, result);
    return { result, openedCall: false, eventId };
  }
  const { messageId, callId } = outcome;
  const result = { conversationId: cp.id, messageId, callId, duplicate: false };
  const deliveries = await recordWebhookEvent(trx, msg.workspaceId, 'message:received', (db) => messageReceivedData(db, msg.workspaceId, messageId), outcome.webhooks);
  const bot = botStart ?? (cp.botId !== null ? { kind: 'message' as const, conversationId: cp.id, messageId, callId, text } : undefined);
  // A call opened here is numbered at commit: the fan-out reads the conversation again for its protocol.
  const conversation = opened ? undefined : { row: outcome.conversation, starredBy: outcome.starredBy };
  return { result, openedCall: opened, bot, deliveries, eventId, stored: { content, type, createdAt }, conversation, hasPush: outcome.hasPush };
}

/**
 * The customer's answer, stored in the resolved call it rates (the conversation stays resolved, its preview
 * and unread flag as they were), the rating on the call (recordCsatAnswer), the event processed. No bot, no
 * message:received: csat:received says it. Undefined when the message is stored already (the usual path
 * finds the duplicate).
 */
async function storeCsatAnswer(trx: Knex.Transaction, msg: InboundMessage, cp: PlatformRow, eventId: number, m: MessageFields, callId: number, rating: ParsedRating): Promise<Processed | undefined> {
  const [row]: { id: number }[] = await trx('messages')
    .insert({
      workspaceId: msg.workspaceId,
      customerPlatformId: cp.id,
      callId,
      externalId: msg.externalId,
      content: JSON.stringify(m.content),
      text: m.text,
      type: m.type,
      status: MessageStatus.RECEIVED,
      sender: 'customer',
      isMedia: false,
      replyToId: m.replyToId,
      extraData: JSON.stringify({ ...m.extraData, csat: { kind: 'answer', callId, rating: rating.rating, comment: rating.comment } }),
      createdAt: m.createdAt,
    })
    .onConflict()
    .ignore()
    .returning('id');
  if (!row) return undefined;
  const csat = await recordCsatAnswer(trx, cp, callId, rating, new Date(), { thanks: true });
  const result = { conversationId: cp.id, messageId: Number(row.id), callId, duplicate: false };
  await markProcessed(trx, eventId, result);
  return { result, openedCall: false, eventId, stored: { content: m.content, type: m.type, createdAt: m.createdAt }, csat };
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

/**
 * The message in one statement when nothing needs the api's code inside the transaction
 * (api/inbound/ingestStatement.ts); undefined when that statement wrote nothing and the transaction
 * path takes the message. `firstContact`: the channel knows the identity is new (a widget visitor without
 * a token), so the first-contact statement is tried at once.
 */
async function storeWithoutTransaction(deps: InboundDeps, msg: InboundMessage, base: BaseFields, firstContact: boolean): Promise<Processed | undefined> {
  const fields = { ...base, extraData: msg.extraData ?? {}, preview: previewOf(base), payload: storedPayload(msg), campaignPhone: phoneOf(msg.identity) !== null };
  let outcome: OneStatementOutcome = await storeInOneStatement(deps.knex, msg, fields, firstContact ? 'first-contact' : 'open-call');
  if (outcome.kind === 'no-conversation') outcome = await storeInOneStatement(deps.knex, msg, fields, 'first-contact');
  if (outcome.kind !== 'stored') return undefined;
  const s = outcome.stored;
  const { messageId, callId, conversationId } = s.result;
  return {
    result: s.result,
    openedCall: s.openedCall,
    // A first contact took this path only when no bot lists the channel; a running bot gets the message.
    bot: s.conversation.botId !== null ? { kind: 'message', conversationId, messageId, callId, text: base.text } : undefined,
    eventId: s.eventId,
    stored: { content: base.content, type: base.type, createdAt: base.createdAt },
    conversation: { row: s.conversation, starredBy: s.starredBy, recipients: s.recipients, tags: s.tags, botName: s.botName, message: s.message },
    hasPush: s.hasPush,
  };
}

/** receiveInbound, also answering what a new message was stored as (none for a duplicate). */
export async function ingestInbound(deps: InboundDeps, msg: InboundMessage, options: { firstContact?: boolean } = {}): Promise<{ result: InboundResult; stored?: StoredInbound }> {
  const base = baseFields(msg);
  const outcome = (await storeWithoutTransaction(deps, msg, base, options.firstContact === true)) ?? (await storeInTransaction(deps, msg, base));
  return fanOut(deps, msg, outcome);
}

/** The transaction path: every case, with the api's code for a new call (bot, assignment) and the webhook outbox. */
function storeInTransaction(deps: InboundDeps, msg: InboundMessage, base: BaseFields): Promise<Processed> {
  return deps.knex.transaction(async (trx): Promise<Processed> => {
    // A concurrent insert of the same key makes this wait for that transaction, so a repeat always sees
    // the first one's outcome.
    const inserted: { id: number }[] = await trx('inbound_events')
      .insert({ workspaceId: msg.workspaceId, channelId: msg.channelId, externalId: msg.externalId, kind: 'message', payload: storedPayload(msg) })
      .onConflict(['channel_id', 'external_id'])
      .ignore()
      .returning('id');
    if (inserted.length) return processEvent(trx, msg, inserted[0].id, base);

    const event = await trx('inbound_events')
      .where({ channelId: msg.channelId, externalId: msg.externalId, workspaceId: msg.workspaceId })
      .forUpdate()
      .first('id', 'processed_at', 'payload');
    if (!event) throw new Error('inbound event belongs to another workspace');
    const stored = (event.payload as { result?: InboundResult }).result;
    if (event.processedAt && stored) return { result: { ...stored, duplicate: true }, openedCall: false };
    // Stored earlier but never processed (processing died after the store): finish it now.
    return processEvent(trx, msg, event.id, base);
  });
}

/** After commit: the bot, the team's realtime (then the event marked published), webhooks, Web Push. */
async function fanOut(deps: InboundDeps, msg: InboundMessage, outcome: Processed): Promise<{ result: InboundResult; stored?: StoredInbound }> {
  const { result } = outcome;
  if (!result.duplicate && outcome.csat) {
    const sent = await afterCsatAnswer(deps, outcome.csat, result.messageId);
    if (outcome.eventId && sent) await markInboundPublished(deps.knex, outcome.eventId);
  } else if (!result.duplicate) {
    // A reply to a running bot is signalled before the team fan-out: the contact is waiting on the bot.
    const replyToBot = outcome.bot?.kind === 'message';
    if (replyToBot) await dispatchToBot(deps, outcome.bot);
    const events = outcome.openedCall ? (['chat.newCall', 'chat.newMessage'] as const) : (['chat.newMessage'] as const);
    const sent = await publishConversationEvent(deps, events, msg.workspaceId, result.conversationId, { messageId: result.messageId, known: outcome.conversation });
    // Killed before this line, or the fan-out failed: the republish sweep sends chat.newMessage later.
    if (outcome.eventId && sent) await markInboundPublished(deps.knex, outcome.eventId);
    if (!replyToBot) await dispatchToBot(deps, outcome.bot);
    await dispatchDeliveries(deps, outcome.deliveries ?? []);
    // Web Push to the agents' devices (docs/pwa.md), in the background: never delays this answer; nothing to
    // do (not even a query) while nobody of the workspace turned it on.
    if (outcome.hasPush) schedulePush(deps, { workspaceId: msg.workspaceId, conversationId: result.conversationId, messageId: result.messageId, kind: outcome.openedCall ? 'newCall' : 'newMessage' });
  }
  return { result, stored: result.duplicate ? undefined : outcome.stored };
}
