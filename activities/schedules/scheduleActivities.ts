import type { Config } from '../../api/config';
import { adapterFor, type ChannelDeps } from '../../api/channels/adapter';
// Registers the channel adapters in this process (the worker does not load api/app.ts).
import '../../api/channels';
import { publishConversationEvent, publishMessageStatus } from '../../api/conversations/fanout';
import { isUniqueViolation } from '../../api/conversations/queries';
import { MessageStatus, MessageType } from '../../api/models/Message';
import { lockSchedule, type ScheduleRecord } from '../../api/schedules/queries';
import { occurrence, type Calendar } from '../../api/schedules/recurrence';
import { workflowIds } from '../../workflows/ids';
import type { ScheduledMessageInput, ScheduledMessageStep } from '../../workflows/schedules/scheduledMessage';
import type { ActivityDeps } from '../deps';
import { storeOccurrence, type Occurrence } from './storeOccurrence';

export interface RunScheduledMessageInput extends ScheduledMessageInput {
  /** The workflow's clock when it looked (Temporal's time): due means due at or before it. */
  asOf: string;
}

/** Repetitions looked at when skipping those missed while nothing ran (a daily one down for years stops here). */
const MAX_SKIPPED = 5000;

/**
 * The next occurrence after `n` that is still ahead of `now`: occurrences missed while every worker was
 * down are not sent one by one afterwards; the one that was due goes out once and the calendar resumes.
 */
function nextAhead(calendar: Calendar, n: number, now: number): { n: number; dueAt: Date } | null {
  for (let m = n + 1; m <= n + MAX_SKIPPED; m++) {
    const o = occurrence(calendar, m);
    if (!o) return null;
    if (o.dueAt.getTime() > now) return o;
  }
  return null;
}

/**
 * After commit: the team sees the messages (and the reopened call); a channel without a remote side (the
 * widget) gets them now, as the inbox does; the others go to the workflow, which hands them to their
 * `channel-send:{messageId}` deliveries one after the other.
 */
async function announce(deps: ChannelDeps & { config: Config }, row: ScheduleRecord, sent: Extract<Occurrence, { ok: true }>): Promise<number[]> {
  const { conversation, channel } = sent;
  if (sent.openedCall) await publishConversationEvent(deps, 'chat.newCall', row.workspaceId, conversation.id);
  for (const part of sent.parts) await publishConversationEvent(deps, 'chat.newMessage', row.workspaceId, conversation.id, { messageId: part.messageId });
  const adapter = adapterFor(channel.type);
  const log = deps.logger.child({ scheduledMessageId: row.id, conversationId: conversation.id, channel: channel.type });
  for (const part of sent.parts) {
    if (part.remote || !adapter) continue;
    const message = await deps.knex('messages').where({ id: part.messageId }).first('content', 'text', 'created_at', 'status');
    if (!message || message.status !== MessageStatus.SENT) continue;
    try {
      const result = await adapter.send(deps, channel, {
        messageId: part.messageId,
        conversationId: conversation.id,
        recipient: conversation.externalId,
        content: message.content,
        text: message.text,
        operator: sent.author,
        createdAt: message.createdAt,
        type: MessageType.COMMON,
      });
      const patch = { status: MessageStatus.RECEIVED, updatedAt: deps.knex.fn.now() };
      await deps.knex('messages')
        .where({ id: part.messageId })
        .update({ ...patch, ...(result?.externalId ? { externalId: result.externalId } : {}) })
        .catch(async (err: unknown) => {
          if (!isUniqueViolation(err)) throw err;
          await deps.knex('messages').where({ id: part.messageId }).update(patch);
        });
      await publishMessageStatus(deps, conversation, part.messageId, MessageStatus.RECEIVED);
    } catch (err) {
      // As in the inbox's direct path: the message stays stored with status 1 and the failure is logged.
      log.error({ err, messageId: part.messageId }, 'channel adapter failed to send a scheduled message');
    }
  }
  return sent.parts.filter((p) => p.remote).map((p) => p.messageId);
}

/**
 * The activity of `scheduled-message:{id}` (docs/scheduled-messages.md). Under the schedule's row lock: over
 * or gone → done; not due by the workflow's clock → wait until its due time; due → the occurrence is stored
 * in the conversation (or failed with its reason) and the row moves to the next occurrence, or ends sent /
 * failed, in the same transaction. So a retried attempt finds the occurrence already taken and never sends
 * it again.
 */
export function scheduleActivities(deps: ActivityDeps) {
  return {
    async runScheduledMessage(input: RunScheduledMessageInput): Promise<ScheduledMessageStep> {
      const config = deps.config;
      if (!config) throw new Error('runScheduledMessage needs the process config');
      const asOf = Date.parse(input.asOf);
      const result = await deps.knex.transaction(async (trx): Promise<{ step: ScheduledMessageStep; row?: ScheduleRecord; sent?: Occurrence }> => {
        const row = await lockSchedule(trx, input.workspaceId, input.scheduledMessageId);
        if (!row) return { step: { kind: 'done', state: 'missing' } };
        if (row.state !== 'scheduled') return { step: { kind: 'done', state: row.state } };
        const dueAt = new Date(row.dueAt);
        if (dueAt.getTime() > asOf) return { step: { kind: 'wait', dueAt: dueAt.toISOString() } };

        const now = new Date();
        const key = `${workflowIds.scheduledMessage(row.id)}#${row.occurrence}`;
        const sent = await storeOccurrence(trx, config, row, key, now);
        const calendar: Calendar = { startsLocal: row.startsLocal, timeZone: row.timeZone, repeat: row.repeat, repeatUntil: row.repeatUntil };
        const next = nextAhead(calendar, row.occurrence, Math.max(asOf, now.getTime()));
        const state = next ? 'scheduled' : sent.ok ? 'sent' : 'failed';
        await trx('scheduled_messages')
          .where({ id: row.id })
          .update({
            state,
            ...(next ? { occurrence: next.n, dueAt: next.dueAt } : {}),
            ...(sent.ok ? { sentCount: row.sentCount + 1, lastSentAt: now, lastMessageId: sent.parts.at(-1)?.messageId ?? null, error: null } : { error: sent.reason.slice(0, 500) }),
            updatedAt: trx.fn.now(),
          });
        if (!sent.ok) deps.logger.warn({ scheduledMessageId: row.id, reason: sent.reason }, 'scheduled message not sent');
        return { step: { kind: 'occurred', state, next: next !== null, deliveries: [] }, row, sent };
      });
      if (result.step.kind === 'occurred' && result.row && result.sent?.ok) {
        const channelDeps = { knex: deps.knex, logger: deps.logger, publisher: deps.publisher, config };
        return { ...result.step, deliveries: await announce(channelDeps, result.row, result.sent) };
      }
      return result.step;
    },
  };
}
