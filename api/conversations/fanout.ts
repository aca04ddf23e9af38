import type { AppDeps } from '../deps';
import { topics } from '../realtime/publisher';
import { operatorsWhoCanSee, visibilityCondition, type ConversationViewer, type SqlCondition } from '../policy/conversations';
import { conversationQuery, findConversation, type ConversationRow } from './queries';
import { findMessageView, presentConversation, presentConversations, presentMessage, signedFileUrl, type MessageRow, type TagView } from './presenters';

type FanoutDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

export type ConversationEvent = 'chat.newCall' | 'chat.callStatus' | 'chat.newMessage';

export interface FanoutOptions {
  /** The message the event is about (chat.newMessage), presented like GET /inbox/messages does. */
  messageId?: number;
  /** Who could see the conversation before the change (assignment, transfer): those who no longer can get chat.conversationRemoved. */
  visibleBefore?: number[];
  /**
   * The conversation as the change left it, read by the change's own last statement under the
   * conversation's row lock (receiveInbound), with the operators who starred it: the fan-out then does not
   * read them again (bench/README.md, ingest).
   */
  known?: KnownConversation;
}

/**
 * The conversation as a change left it, read by the change's own statement (receiveInbound), with the
 * operators who starred it; the inbound statement (api/inbound/ingestStatement.ts) also reads who may see
 * it, its call's tags and bot name, and the message row, and then the fan-out reads nothing.
 */
export interface KnownConversation {
  row: ConversationRow;
  starredBy: number[];
  recipients?: number[];
  tags?: TagView[];
  botName?: string | null;
  message?: MessageRow;
}

/**
 * Publishes one event per recipient; a failure is logged and never reaches the caller (the change is
 * committed). Resolves to false when any publish failed (the republish sweep retries those).
 */
async function publishEach(deps: FanoutDeps, sends: { topic: string; event: string; data: unknown }[]): Promise<boolean> {
  const sent = await Promise.all(
    sends.map(async (s) => {
      try {
        return await deps.publisher.publish(s.topic, s.event, s.data);
      } catch (err) {
        deps.logger.warn({ err, topic: s.topic, event: s.event }, 'realtime publish failed');
        return false;
      }
    }),
  );
  return sent.every(Boolean);
}

/**
 * After commit: tells every active operator who may see the conversation now (api/policy/conversations.ts),
 * each with their own `starred`. Reads the committed state, so what is published is what a refetch shows.
 * Never throws; resolves to false when a read or a publish failed (nothing to publish counts as sent).
 */
export async function publishConversationEvent(
  deps: FanoutDeps,
  event: ConversationEvent | readonly ConversationEvent[],
  workspaceId: number,
  conversationId: number,
  options: FanoutOptions = {},
): Promise<boolean> {
  // Several events of one change (chat.newCall then chat.newMessage of a first message) share the reads.
  const events: readonly ConversationEvent[] = typeof event === 'string' ? [event] : event;
  try {
    const row = options.known?.row ?? (await findConversation(deps.knex, workspaceId, conversationId));
    if (!row) return true;
    // Independent reads run side by side: one round trip of latency instead of four (bench/README.md, ingest).
    const known = options.known;
    const messageOptions = { customerAvatar: row.avatar, fileUrl: signedFileUrl(deps.config) };
    const [recipients, [view], message, starredRows] = await Promise.all([
      known?.recipients ?? operatorsWhoCanSee(deps.knex, workspaceId, row),
      known?.tags ? [presentConversation(row, known.tags, { name: known.botName ?? null, temporalUrl: null })] : presentConversations(deps.knex, [row]),
      options.messageId === undefined
        ? undefined
        : known?.message?.id === options.messageId
          ? presentMessage(known.message, messageOptions)
          : findMessageView(deps.knex, workspaceId, options.messageId, messageOptions),
      options.known
        ? options.known.starredBy.map((operatorId) => ({ operatorId }))
        : (deps.knex('customer_platform_favorites').where({ workspaceId, customerPlatformId: conversationId }).select('operator_id') as Promise<{ operatorId: number }[]>),
    ]);
    const removed = (options.visibleBefore ?? []).filter((id) => !recipients.includes(id));
    const sends: { topic: string; event: string; data: unknown }[] = removed.map((operatorId) => ({
      topic: topics.operator(workspaceId, operatorId),
      event: 'chat.conversationRemoved',
      data: { conversationId },
    }));
    if (recipients.length) {
      const starred = new Set(starredRows.map((r) => r.operatorId));
      for (const operatorId of recipients) {
        const conversation = { ...view, starred: starred.has(operatorId) };
        for (const e of events) {
          sends.push({
            topic: topics.operator(workspaceId, operatorId),
            event: e,
            data: message && e === 'chat.newMessage' ? { conversation, message } : { conversation },
          });
        }
      }
    }
    return await publishEach(deps, sends);
  } catch (err) {
    deps.logger.error({ err, events, conversationId }, 'realtime fan-out failed');
    return false;
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

/** How many conversations one viewer change re-publishes each way; lists catch up on their next fetch beyond it. */
export const VIEWER_CHANGE_LIMIT = 200;

export interface ViewerChange {
  /** The operator as they were (null: saw nothing, e.g. inactive) and as they are now. */
  before: ConversationViewer | null;
  after: ConversationViewer | null;
}

const NOTHING: SqlCondition = { sql: 'FALSE', bindings: [] };

/**
 * After commit, when what one operator may see changed without the conversations changing (they joined or
 * left a group, their level changed): every conversation they can see now and could not before is sent to
 * them as chat.callStatus (the inbox places it in its lists), every one they could see and no longer can as
 * chat.conversationRemoved. `groupIds` narrows the candidates to those groups' conversations (a membership
 * change touches nothing else). Open conversations go first, newest first, at most VIEWER_CHANGE_LIMIT each
 * way. Both sides are evaluated on the current rows with api/policy/conversations.ts. Never throws.
 */
export async function publishViewerChange(
  deps: FanoutDeps,
  workspaceId: number,
  operatorId: number,
  change: ViewerChange,
  options: { groupIds?: number[]; limit?: number } = {},
): Promise<{ added: number[]; removed: number[] }> {
  const none = { added: [], removed: [] };
  if (options.groupIds && !options.groupIds.length) return none;
  try {
    const was = change.before ? visibilityCondition(change.before, 'cp') : NOTHING;
    const is = change.after ? visibilityCondition(change.after, 'cp') : NOTHING;
    const limit = options.limit ?? VIEWER_CHANGE_LIMIT;
    // COALESCE: an arm over NULL columns is NULL, and NOT NULL would drop the row from both sides.
    const diff = (gain: SqlCondition, lose: SqlCondition): Promise<number[]> => {
      const q = deps.knex('customer_platforms as cp')
        .where('cp.workspace_id', workspaceId)
        .whereRaw(`COALESCE((${gain.sql}), FALSE) AND NOT COALESCE((${lose.sql}), FALSE)`, [...gain.bindings, ...lose.bindings]);
      if (options.groupIds) q.whereIn('cp.group_id', options.groupIds);
      return q
        .orderBy('cp.is_finished')
        .orderBy('cp.last_message_at', 'desc')
        .orderBy('cp.id', 'desc')
        .limit(limit)
        .pluck('cp.id')
        .then((ids: (string | number)[]) => ids.map(Number));
    };
    const [added, removed] = await Promise.all([diff(is, was), diff(was, is)]);
    const topic = topics.operator(workspaceId, operatorId);
    const sends: { topic: string; event: string; data: unknown }[] = removed.map((conversationId) => ({ topic, event: 'chat.conversationRemoved', data: { conversationId } }));
    if (added.length) {
      const rows: ConversationRow[] = await conversationQuery(deps.knex, workspaceId, operatorId).whereIn('cp.id', added);
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      const ordered = added.map((id) => byId.get(id)).filter((r): r is ConversationRow => r !== undefined);
      const views = await presentConversations(deps.knex, ordered);
      views.forEach((view, i) => sends.push({ topic, event: 'chat.callStatus', data: { conversation: { ...view, starred: Boolean((ordered[i] as { starred?: boolean }).starred) } } }));
    }
    await publishEach(deps, sends);
    return { added, removed };
  } catch (err) {
    deps.logger.error({ err, workspaceId, operatorId }, 'realtime viewer re-publish failed');
    return none;
  }
}
