import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { adapterFor, type ChannelRecord } from '../channels/adapter';
import { MessageStatus, MessageType } from '../models/Message';
import type { ConversationViewer } from '../policy/conversations';
import { isUniqueViolation, loadChannel, lockVisibleConversation, type PlatformRow } from '../conversations/queries';
import { ensureOpenCall } from '../conversations/calls';
import { isMediaContent, textOf, type ContentItem } from '../conversations/content';
import { publishConversationEvent, publishMessageStatus } from '../conversations/fanout';
import { startChannelSend } from '../channels/outbound/startChannelSend';
import { outboundIdempotencyKey } from '../channels/outbound/keys';
import { findMessageView, signedFileUrl, type MessageView } from '../conversations/presenters';
import type { FileRefInput, MessageSendReq, TextOpInput } from './schema';
import { announceTakeOver, takeOverFromBot, type TakeOver } from './takeOverFromBot';
import { assertCanSend } from '../billing/limits';

const PREVIEW_CHARS = 200;

/** File entries name uploads of this workspace; their name, type and size come from the upload, not the client. */
async function resolveContent(trx: Knex.Transaction, workspaceId: number, content: TextOpInput[] | FileRefInput[]): Promise<ContentItem[]> {
  const files = (content as (TextOpInput | FileRefInput)[]).filter((i): i is FileRefInput => 'file' in i);
  if (!files.length) return content as TextOpInput[];
  const keys = [...new Set(files.map((f) => f.file.key))];
  const rows: { key: string; fileName: string; mime: string; size: number }[] = await trx('stored_files')
    .where({ workspaceId })
    .whereIn('key', keys)
    .select('key', 'file_name', 'mime', 'size');
  const byKey = new Map(rows.map((r) => [r.key, r]));
  if (byKey.size !== keys.length) throw errors.field('content', 'Arquivo não encontrado. Envie o arquivo novamente.');
  return files.map((f) => {
    const r = byKey.get(f.file.key)!;
    return { file: { key: r.key, fileName: r.fileName, mime: r.mime, size: Number(r.size) } };
  });
}

interface Stored {
  conversation: PlatformRow;
  channel: ChannelRecord;
  messageId: number;
  openedCall: boolean;
  replyToExternalId: string | null;
  content: ContentItem[];
  text: string;
  createdAt: Date;
  outbox: boolean;
  takeOver?: TakeOver;
}

/**
 * POST /inbox/messages. The message is committed first (status 1); realtime goes to the team; then a
 * COMMON message is delivered. For a channel with a remote side (adapter.remote) it is committed with
 * delivery_state `pending` and its `channel-send:{messageId}` workflow sends it with retries (docs/outbound.md).
 * The widget keeps its direct path: the adapter is called after commit and the external id it returns is
 * stored; if that fails, the message stays stored with status 1 and the failure is logged.
 * A private note (type 2) never reaches the adapter. Sending on a resolved conversation reopens it with
 * a new call; the first agent reply of a call sets first_response_at and closes the customer's wait.
 * `at` (default now) is when it was sent: the demo seed writes its past history through here.
 * A COMMON reply while a bot runs ends the bot session first (takeOverFromBot.ts).
 * `extraData` is stored on the message (e.g. the WhatsApp template it is sent as, api/channels/whatsapp/templates.ts).
 */
export async function sendMessage(deps: AppDeps, viewer: ConversationViewer, input: MessageSendReq, at?: Date, extraData?: Record<string, unknown>): Promise<MessageView> {
  const stored = await deps.knex.transaction(async (trx): Promise<Stored> => {
    // An expired plan sends nothing to customers (402); private notes stay open (docs/billing.md "Expired plan").
    if (input.type === MessageType.COMMON) await assertCanSend(trx, viewer.workspaceId);
    const cp = await lockVisibleConversation(trx, viewer, input.id);
    const channel = await loadChannel(trx, viewer.workspaceId, cp.channelId);
    const content = await resolveContent(trx, viewer.workspaceId, input.content);
    const text = textOf(content);

    let replyToExternalId: string | null = null;
    if (input.replyTo) {
      const reply = await trx('messages').where({ id: input.replyTo, customerPlatformId: cp.id, isDeleted: false }).first('id', 'external_id');
      if (!reply) throw errors.field('replyTo', 'Mensagem não encontrada.');
      if (input.type === MessageType.COMMON && !(adapterFor(channel.type)?.canReply && reply.externalId)) {
        throw errors.field('replyTo', 'Não é possível responder mensagens neste canal.');
      }
      replyToExternalId = reply.externalId;
    }

    const call = await ensureOpenCall(trx, cp);
    const createdAt = at ?? new Date();
    // An agent answering by hand ends a running bot (docs/bots.md "An agent answers"); a private note does not.
    const takeOver = input.type === MessageType.COMMON ? await takeOverFromBot(trx, viewer, cp, call.callId, createdAt) : undefined;
    // A channel with a remote side delivers through the outbound path (docs/outbound.md).
    const outbox = input.type === MessageType.COMMON && adapterFor(channel.type)?.remote === true;
    const [row] = await trx('messages')
      .insert({
        workspaceId: viewer.workspaceId,
        customerPlatformId: cp.id,
        callId: call.callId,
        content: JSON.stringify(content),
        text,
        type: input.type,
        status: MessageStatus.SENT,
        operatorId: viewer.operatorId,
        sender: 'operator',
        isMedia: isMediaContent(content),
        replyToId: input.replyTo ?? null,
        deliveryState: outbox ? 'pending' : null,
        ...(extraData ? { extraData: JSON.stringify(extraData) } : {}),
        createdAt,
      })
      .returning('id');

    if (input.type === MessageType.COMMON) {
      // TME/TMR without scanning messages (docs/data-model.md "Reports without scanning messages").
      await trx('calls')
        .where({ id: call.callId })
        .update({
          firstResponseAt: trx.raw('coalesce(first_response_at, ?)', [createdAt]),
          responseCount: trx.raw('response_count + (CASE WHEN waiting_since IS NULL THEN 0 ELSE 1 END)'),
          responseTimeSumMs: trx.raw('response_time_sum_ms + coalesce(greatest(0, (extract(epoch FROM ?::timestamptz - waiting_since) * 1000))::bigint, 0)', [createdAt]),
          waitingSince: null,
        });
    }
    await trx('customer_platforms')
      .where({ id: cp.id })
      .update({
        lastMessage: JSON.stringify({ text: text.slice(0, PREVIEW_CHARS), type: input.type, sender: 'operator', createdAt: createdAt.toISOString() }),
        lastMessageAt: trx.raw('greatest(last_message_at, ?)', [createdAt]),
        // The agent is in the chat: what the customer said is read.
        hasNewMessages: false,
        isFinished: false,
        currentCallId: call.callId,
        updatedAt: trx.fn.now(),
      });
    return { conversation: cp, channel, messageId: row.id, openedCall: call.opened, replyToExternalId, content, text, createdAt, outbox, takeOver };
  });

  const { conversation } = stored;
  if (stored.openedCall) await publishConversationEvent(deps, 'chat.newCall', viewer.workspaceId, conversation.id);
  if (stored.takeOver) await announceTakeOver(deps, stored.takeOver);
  await publishConversationEvent(deps, 'chat.newMessage', viewer.workspaceId, conversation.id, { messageId: stored.messageId });
  if (stored.outbox) await startChannelSend(deps, stored.messageId);
  else if (input.type === MessageType.COMMON) await deliver(deps, viewer, stored);

  const view = await findMessageView(deps.knex, viewer.workspaceId, stored.messageId, { fileUrl: signedFileUrl(deps.config) });
  if (!view) throw errors.notFound();
  return view;
}

/** Hands a committed COMMON message to its channel; failures are logged and leave the message at status 1. */
async function deliver(deps: AppDeps, viewer: ConversationViewer, stored: Stored): Promise<void> {
  const { channel, conversation, messageId } = stored;
  const log = deps.logger.child({ messageId, conversationId: conversation.id, channel: channel.type });
  const adapter = adapterFor(channel.type);
  if (!adapter) {
    log.warn('no adapter for this channel type: message kept unsent');
    return;
  }
  let externalId: string | undefined;
  try {
    const operator = await deps.knex('operators').where({ id: viewer.operatorId }).first('id', 'name', 'avatar');
    const result = await adapter.send(deps, channel, {
      messageId,
      conversationId: conversation.id,
      recipient: conversation.externalId,
      content: stored.content,
      text: stored.text,
      replyToExternalId: stored.replyToExternalId,
      operator: operator ? { id: operator.id, name: operator.name, avatar: operator.avatar } : null,
      createdAt: stored.createdAt,
      type: MessageType.COMMON,
      idempotencyKey: outboundIdempotencyKey(messageId),
    });
    externalId = result?.externalId;
  } catch (err) {
    log.error({ err }, 'channel adapter failed to send: message kept with status 1');
    return;
  }
  try {
    await deps.knex('messages')
      .where({ id: messageId })
      .update({ status: MessageStatus.RECEIVED, ...(externalId ? { externalId } : {}), updatedAt: deps.knex.fn.now() });
  } catch (err) {
    if (!isUniqueViolation(err)) {
      log.error({ err, externalId }, 'message sent but its external id could not be stored');
      return;
    }
    // The provider id is already on another row (an echo stored first): keep the delivery, not the id.
    log.warn({ externalId }, 'external id already stored on another message');
    await deps.knex('messages').where({ id: messageId }).update({ status: MessageStatus.RECEIVED, updatedAt: deps.knex.fn.now() });
  }
  await publishMessageStatus(deps, conversation, messageId, MessageStatus.RECEIVED);
}
