import type { AppDeps } from '../deps';
import { topics } from '../realtime/publisher';
import { operatorsWhoCanSee } from '../policy/conversations';
import { findConversation } from './queries';
import { findMessageView, presentConversations, signedFileUrl } from './presenters';

type FanoutDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

export type ConversationEvent = 'chat.newCall' | 'chat.callStatus' | 'chat.newMessage';

export interface FanoutOptions {
  /** The message the event is about (chat.newMessage), presented like GET /inbox/messages does. */
  messageId?: number;
  /** Who could see the conversation before the change (assignment, transfer): those who no longer can get chat.conversationRemoved. */
  visibleBefore?: number[];
}

/** Publishes one event per recipient; a failure is logged and never reaches the caller (the change is committed). */
async function publishEach(deps: FanoutDeps, sends: { topic: string; event: string; data: unknown }[]): Promise<void> {
  await Promise.all(
    sends.map(async (s) => {
      try {
        await deps.publisher.publish(s.topic, s.event, s.data);
      } catch (err) {
        deps.logger.warn({ err, topic: s.topic, event: s.event }, 'realtime publish failed');
      }
    }),
  );
}

/**
 * After commit: tells every active operator who may see the conversation now (api/policy/conversations.ts),
 * each with their own `starred`. Reads the committed state, so what is published is what a refetch shows.
 */
export async function publishConversationEvent(deps: FanoutDeps, event: ConversationEvent, workspaceId: number, conversationId: number, options: FanoutOptions = {}): Promise<void> {
  try {
    const row = await findConversation(deps.knex, workspaceId, conversationId);
    if (!row) return;
    const recipients = await operatorsWhoCanSee(deps.knex, workspaceId, row);
    const removed = (options.visibleBefore ?? []).filter((id) => !recipients.includes(id));
    const sends: { topic: string; event: string; data: unknown }[] = removed.map((operatorId) => ({
      topic: topics.operator(workspaceId, operatorId),
      event: 'chat.conversationRemoved',
      data: { conversationId },
    }));
    if (recipients.length) {
      const [view] = await presentConversations(deps.knex, [row]);
      const message =
        options.messageId === undefined
          ? undefined
          : await findMessageView(deps.knex, workspaceId, options.messageId, { customerAvatar: row.avatar, fileUrl: signedFileUrl(deps.config) });
      const starredRows: { operatorId: number }[] = await deps.knex('customer_platform_favorites')
        .where({ workspaceId, customerPlatformId: conversationId })
        .whereIn('operator_id', recipients)
        .select('operator_id');
      const starred = new Set(starredRows.map((r) => r.operatorId));
      for (const operatorId of recipients) {
        const conversation = { ...view, starred: starred.has(operatorId) };
        sends.push({
          topic: topics.operator(workspaceId, operatorId),
          event,
          data: message ? { conversation, message } : { conversation },
        });
      }
    }
    await publishEach(deps, sends);
  } catch (err) {
    deps.logger.error({ err, event, conversationId }, 'realtime fan-out failed');
  }
}

export async function publishMessageStatus(
  deps: FanoutDeps,
  conversation: { workspaceId: number; id: number; operatorId: number | null; groupId: number | null },
  messageId: number,
  status: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  try {
    const recipients = await operatorsWhoCanSee(deps.knex, conversation.workspaceId, conversation);
    await publishEach(
      deps,
      recipients.map((operatorId) => ({
        topic: topics.operator(conversation.workspaceId, operatorId),
        event: 'chat.messageStatus',
        data: { conversationId: conversation.id, messageId, status, ...extra },
      })),
    );
  } catch (err) {
    deps.logger.error({ err, messageId }, 'realtime fan-out failed');
  }
}

/** Who may see the conversation right now; taken before a change that can narrow it. */
export function visibleNow(deps: Pick<AppDeps, 'knex'>, row: { workspaceId: number; operatorId: number | null; groupId: number | null }): Promise<number[]> {
  return operatorsWhoCanSee(deps.knex, row.workspaceId, row);
}
