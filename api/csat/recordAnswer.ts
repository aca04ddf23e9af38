import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { adapterFor, type ChannelType } from '../channels/adapter';
import { startChannelSend } from '../channels/outbound/startChannelSend';
import type { PlatformRow } from '../conversations/queries';
import { publishConversationEvent, publishMessageStatus } from '../conversations/fanout';
import { MessageStatus, MessageType } from '../models/Message';
import { topics } from '../realtime/publisher';
import { recordWebhookEvent } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { csatReceivedData } from '../webhooks/payloads';
import { csatViewOf, type CsatView } from './present';

/** The conversation row as the inbound pipeline locks it, with the CSAT columns (api/inbound/receiveInbound.ts). */
export type CsatConversation = PlatformRow;

/**
 * The call whose question this conversation awaits an answer to at `at`, or null: a question was sent, the
 * conversation is still resolved on that very call (any new call — a message that was no answer, 'Reabrir',
 * an agent's message — moves `current_call_id` and so ends it without a write), and it is within
 * CSAT_ANSWER_DAYS of the resolve. Read from the row the pipeline already holds: no statement.
 */
export function pendingCsatCall(cp: CsatConversation, at: Date): number | null {
  if (!cp.csatCallId || !cp.isFinished || cp.currentCallId !== cp.csatCallId || !cp.csatUntil) return null;
  return new Date(cp.csatUntil).getTime() > at.getTime() ? cp.csatCallId : null;
}

export interface CsatAnswer {
  rating: number;
  comment: string | null;
}

/** What an answer left to do after its commit. */
export interface RecordedCsat {
  workspaceId: number;
  conversation: { id: number; workspaceId: number; operatorId: number | null; groupId: number | null; externalId: string };
  channel: { id: number; type: ChannelType; identifier: string };
  callId: number;
  questionMessageId: number | null;
  questionStatus: number;
  view: CsatView | undefined;
  /** The thanks sent back on a text channel, through channel-send. */
  thanksMessageId: number | null;
  /** webhook_deliveries of csat:received, started after commit. */
  deliveries: number[];
}

/**
 * Stores an answer on the call, in the caller's transaction (which holds the conversation's lock): the call's
 * `csat_rating`, `csat_comment`, `csat_answered_at` (state 'answered'), the question message's
 * `extra_data.csat` (what the inbox and the widget show), the conversation's pending question cleared, the
 * `csat:received` webhook event (outbox) and, on channels where the customer typed the answer (`thanks`),
 * the channel's thanks as a BOT message in the same call. Undefined when the call was answered already.
 * Never reopens the conversation: the call stays finished and the conversation resolved.
 */
export async function recordCsatAnswer(trx: Knex.Transaction, cp: CsatConversation, callId: number, answer: CsatAnswer, now: Date, options: { thanks: boolean }): Promise<RecordedCsat | undefined> {
  const [call] = await trx('calls')
    .where({ id: callId, workspaceId: cp.workspaceId, csatState: 'sent' })
    .whereNull('csat_rating')
    .update({ csatState: 'answered', csatRating: answer.rating, csatComment: answer.comment, csatAnsweredAt: now })
    .returning(['id', 'csat_message_id']);
  if (!call) return undefined;
  await trx('customer_platforms').where({ id: cp.id }).update({ csatCallId: null, csatUntil: null });
  const patch = JSON.stringify({ rating: answer.rating, comment: answer.comment, answeredAt: now.toISOString() });
  const [question]: { id: number; status: number; extraData: unknown }[] = call.csatMessageId
    ? await trx('messages')
        .where({ id: call.csatMessageId, customerPlatformId: cp.id })
        .update({ extraData: trx.raw("jsonb_set(extra_data, '{csat}', coalesce(extra_data->'csat', '{}'::jsonb) || ?::jsonb)", [patch]), updatedAt: trx.fn.now() })
        .returning(['id', 'status', 'extra_data'])
    : [];
  const channel: { id: number; type: ChannelType; identifier: string } = await trx('channels').where({ id: cp.channelId }).first('id', 'type', 'identifier');
  const view = question ? csatViewOf(question.extraData, now.getTime()) : undefined;

  let thanksMessageId: number | null = null;
  const thanks = view?.thanks.trim();
  // Every channel but the widget has a remote side; the widget's box shows the thanks itself.
  if (options.thanks && thanks && adapterFor(channel.type)?.remote === true) {
    const [row] = await trx('messages')
      .insert({
        workspaceId: cp.workspaceId,
        customerPlatformId: cp.id,
        callId,
        content: JSON.stringify([{ insert: `${thanks}\n` }]),
        text: thanks,
        type: MessageType.BOT,
        status: MessageStatus.SENT,
        sender: 'bot',
        idempotencyKey: `csat-thanks:${callId}`,
        deliveryState: 'pending',
        extraData: JSON.stringify({ csat: { kind: 'thanks', callId } }),
        createdAt: new Date(now.getTime() + 1),
      })
      .returning('id');
    thanksMessageId = Number(row.id);
  }
  const deliveries = await recordWebhookEvent(trx, cp.workspaceId, 'csat:received', (db) => csatReceivedData(db, cp.workspaceId, callId));
  return {
    workspaceId: cp.workspaceId,
    conversation: { id: cp.id, workspaceId: cp.workspaceId, operatorId: cp.operatorId, groupId: cp.groupId, externalId: cp.externalId },
    channel,
    callId,
    questionMessageId: question ? Number(question.id) : null,
    questionStatus: question?.status ?? MessageStatus.SENT,
    view,
    thanksMessageId,
    deliveries,
  };
}

/**
 * After commit: the team sees the customer's answer (`answerMessageId`, a typed answer) and the question's
 * bubble with its rating (`chat.messageStatus` with `csat`), the widget visitor's box updates
 * (`chat.widgetCsat`), the thanks goes out and the webhooks start. Never a bot signal, never Web Push.
 * Resolves to false when the team's publish of the answer failed (the inbound republish sweep retries it).
 */
export async function afterCsatAnswer(deps: Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>, r: RecordedCsat, answerMessageId?: number): Promise<boolean> {
  const sent = answerMessageId === undefined ? true : await publishConversationEvent(deps, 'chat.newMessage', r.workspaceId, r.conversation.id, { messageId: answerMessageId });
  if (r.questionMessageId !== null) {
    await publishMessageStatus(deps, r.conversation, r.questionMessageId, r.questionStatus, { csat: r.view });
    if (r.channel.type === 'widget') {
      await deps.publisher
        .publish(topics.widget(r.channel.identifier, r.conversation.externalId), 'chat.widgetCsat', { messageId: r.questionMessageId, csat: r.view })
        .catch((err: unknown) => deps.logger.warn({ err }, 'widget csat publish failed'));
    }
  }
  if (r.thanksMessageId !== null) {
    await publishConversationEvent(deps, 'chat.newMessage', r.workspaceId, r.conversation.id, { messageId: r.thanksMessageId });
    await startChannelSend(deps, r.thanksMessageId);
  }
  await dispatchDeliveries(deps, r.deliveries);
  return sent;
}
