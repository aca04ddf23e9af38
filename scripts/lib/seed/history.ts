import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppDeps } from '../../../api/deps';
import type { BotRecord } from '../../../api/bots/queries';
import { ingestInbound } from '../../../api/conversations/receiveInbound';
import { ensureOpenCall } from '../../../api/conversations/calls';
import { isMediaContent, textOf, type ContentItem } from '../../../api/conversations/content';
import { loadChannel, lockConversation } from '../../../api/conversations/queries';
import { applyAssignment } from '../../../api/assignment/assignNewCall';
import { setConversationStatus } from '../../../api/inbox/setConversationStatus';
import { setConversationTags } from '../../../api/inbox/setConversationTags';
import { setFavorite } from '../../../api/inbox/setFavorite';
import { loadViewer, type ConversationViewer } from '../../../api/policy/conversations';
import type { AccessLevelValue } from '../../../api/policy/levels';
import { finishSession, openSession } from '../../../api/bots/runtime/sessionRows';
import { adapterFor } from '../../../api/channels/adapter';
// Registers the channel adapters (the widget's), as the api and the worker do.
import '../../../api/channels';
import { MessageStatus, MessageType } from '../../../api/models/Message';
import { createVisitor } from '../../../api/widget/visitors';
import { insertStoredFiles } from '../../../api/assets/queries';
import { newStorageKey } from '../../../api/storage/keys';
import type { FileStorage } from '../../../api/storage/storage';
import type { At, DemoConversation, Step } from './conversations';
import { demoFile } from './files';
import type { Member, Team } from './team';

/** What the app's commands need here; the realtime publisher goes nowhere (nobody is connected yet). */
export type HistoryDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

const PREVIEW_CHARS = 200;
/** America/Sao_Paulo, the workspace's time zone, has been UTC-3 all year since 2019. */
const SAO_PAULO_OFFSET_MS = 3 * 3_600_000;

/** The moment a step's `at` names, relative to `now`. */
export function resolveAt(at: At, now: Date): Date {
  if ('minutesAgo' in at) return new Date(now.getTime() - at.minutesAgo * 60_000);
  const wall = new Date(now.getTime() - SAO_PAULO_OFFSET_MS);
  const [h, m] = at.time.split(':').map(Number);
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() - at.daysAgo, h, m) + SAO_PAULO_OFFSET_MS);
}

export interface TimedStep {
  at: Date;
  conversation: number;
  step: Step;
}

/**
 * Every step of every conversation with its moment, oldest first (a conversation's steps keep their order),
 * so calls are opened, and numbered at commit, in the order they happened.
 */
export function timeline(conversations: readonly DemoConversation[], now: Date): TimedStep[] {
  const all: (TimedStep & { index: number })[] = [];
  conversations.forEach((c, conversation) => {
    let t: Date | undefined;
    c.steps.forEach((step, index) => {
      if (step.at) t = resolveAt(step.at, now);
      else if (t) t = new Date(t.getTime() + (step.after ?? 2) * 60_000);
      else throw new Error(`demo conversation ${conversation} must start at a set time`);
      if (t.getTime() >= now.getTime()) throw new Error(`demo conversation ${conversation}, step ${index}, would happen in the future`);
      all.push({ at: t, conversation, step, index });
    });
  });
  all.sort((a, b) => a.at.getTime() - b.at.getTime() || a.conversation - b.conversation || a.index - b.index);
  return all.map(({ at, conversation, step }) => ({ at, conversation, step }));
}

interface Played {
  conversationId?: number;
  visitorId?: string;
  callId?: number;
  sessionId?: number;
}

/**
 * Writes the history through the app's own code, each step committed like the request it stands for:
 * visitor messages through the inbound pipeline (ingestInbound: contact, conversation, call and its
 * protocol at commit, preview, waiting clock), assignment with applyAssignment, tags, resolve and
 * favourites with the inbox commands, bot sessions with the runtime's session rows. The commands stamp the
 * present; what happened weeks ago gets its moment written back right after (calls' opening and
 * finishing, contacts' first contact, tag use). Team and bot messages are written as sendMessage and the
 * bot activities write them, at the step's moment (those commands take no time).
 */
export async function seedHistory(deps: HistoryDeps, team: Team, bot: BotRecord, storage: FileStorage, conversations: readonly DemoConversation[], now: Date): Promise<number[]> {
  const { knex } = deps;
  const played: Played[] = conversations.map(() => ({}));
  const viewers = new Map<Member, ConversationViewer>();
  const viewerOf = async (m: Member) => {
    let v = viewers.get(m);
    if (!v) {
      v = await loadViewer(knex, { workspaceId: team.workspaceId, operatorId: team.members[m].id, accessLevel: team.members[m].level as AccessLevelValue });
      viewers.set(m, v);
    }
    return v;
  };
  // The inbox commands take the app's deps; with no webhook, bot or Temporal involved they use only these.
  const app = deps as unknown as AppDeps;

  for (const { at, conversation, step } of timeline(conversations, now)) {
    const state = played[conversation];
    const { visitor } = conversations[conversation];
    if ('say' in step) {
      const first = state.visitorId === undefined;
      state.visitorId ??= (await createVisitor(knex, { workspaceId: team.workspaceId, id: team.widget.id })).visitorId;
      const { result } = await ingestInbound(deps, {
        workspaceId: team.workspaceId,
        channelId: team.widget.id,
        externalId: `v:${state.visitorId}:${randomUUID()}`,
        identity: { externalId: state.visitorId, name: visitor.name, email: visitor.email ?? null, phone: visitor.phone ?? null },
        content: [{ insert: `${step.say}\n` }],
        type: 0,
        sentAt: at,
      });
      state.conversationId = result.conversationId;
      await knex.transaction(async (trx) => {
        if (first) {
          const cp = await trx('customer_platforms').where({ id: result.conversationId }).first('customer_id');
          await trx('customers').where({ id: cp.customerId }).update({ createdAt: at, updatedAt: at });
          await trx('customer_platforms').where({ id: result.conversationId }).update({ createdAt: at, lastMessageAt: at });
          await trx('widget_visitors').where({ channelId: team.widget.id, visitorId: state.visitorId }).update({ createdAt: at });
        }
        if (result.callId !== state.callId) await trx('calls').where({ id: result.callId }).update({ createdAt: at });
        await trx('widget_visitors').where({ channelId: team.widget.id, visitorId: state.visitorId }).update({ lastSeenAt: at });
      });
      state.callId = result.callId;
      continue;
    }
    const id = state.conversationId;
    if (id === undefined) throw new Error(`demo conversation ${conversation} must start with the visitor's message`);
    if ('reply' in step) await teamMessage(deps, team.workspaceId, id, { type: MessageType.COMMON, operatorId: team.members[step.by].id, content: [{ insert: `${step.reply}\n` }], at });
    else if ('note' in step) await teamMessage(deps, team.workspaceId, id, { type: MessageType.PRIVATE, operatorId: team.members[step.by].id, content: [{ insert: `${step.note}\n` }], at });
    else if ('file' in step) {
      const file = demoFile(step.file);
      const key = newStorageKey();
      await storage.put(key, Readable.from(file.bytes));
      const operatorId = team.members[step.by].id;
      await insertStoredFiles(knex, [
        { workspaceId: team.workspaceId, operatorId, key, fileName: file.fileName, mime: file.mime, size: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') },
      ]);
      await knex('stored_files').where({ key }).update({ createdAt: at });
      await teamMessage(deps, team.workspaceId, id, { type: MessageType.COMMON, operatorId, content: [{ file: { key, fileName: file.fileName, mime: file.mime, size: file.bytes.length } }], at });
    } else if ('bot' in step) await teamMessage(deps, team.workspaceId, id, { type: MessageType.BOT, operatorId: null, content: [{ insert: step.bot }], at });
    else if ('botStart' in step) {
      state.sessionId = await knex.transaction(async (trx) => {
        await lockConversation(trx, team.workspaceId, id);
        const session = await openSession(trx, { workspaceId: team.workspaceId, conversationId: id, callId: state.callId! }, bot);
        await trx('bot_sessions').where({ id: session.sessionId }).update({ createdAt: at });
        return session.sessionId;
      });
    } else if ('botEnd' in step) {
      await knex.transaction(async (trx) => {
        await lockConversation(trx, team.workspaceId, id);
        await finishSession(trx, state.sessionId!, step.botEnd);
        await trx('bot_sessions').where({ id: state.sessionId }).update({ finishedAt: at });
      });
    } else if ('assign' in step) {
      const { agent, group } = step.assign;
      await knex.transaction(async (trx) => {
        const cp = (await lockConversation(trx, team.workspaceId, id))!;
        const operatorId = agent === undefined ? cp.operatorId : agent && team.members[agent].id;
        const groupId = group === undefined ? cp.groupId : group && team.groups[group];
        await applyAssignment(trx, id, { operatorId, groupId });
      });
    } else if ('tag' in step) {
      await setConversationTags(app, await viewerOf(step.by), { id, tags: step.tag.map((k) => team.tags[k]) });
      await knex('call_labels').where({ callId: state.callId }).update({ createdAt: at });
    } else if ('resolve' in step) {
      await setConversationStatus(app, await viewerOf(step.resolve), id, { status: 'resolve' });
      await knex('calls').where({ id: state.callId }).update({ finishedAt: at });
    }
  }

  for (const [i, c] of conversations.entries()) {
    for (const m of c.starredBy ?? []) await setFavorite(deps, await viewerOf(m), played[i].conversationId!, true);
  }
  return played.map((p) => p.conversationId!);
}

/**
 * A message of the team (COMMON reply, PRIVATE note) or of the bot, stored at `at` the way sendMessage and
 * the bot activities store theirs: on the open call, answering the customer's wait (TME/TMR), updating the
 * preview; after commit a reply or bot message is handed to the channel's adapter, which gives its
 * external id.
 */
async function teamMessage(
  deps: HistoryDeps,
  workspaceId: number,
  conversationId: number,
  message: { type: typeof MessageType.COMMON | typeof MessageType.PRIVATE | typeof MessageType.BOT; operatorId: number | null; content: ContentItem[]; at: Date },
): Promise<void> {
  const { type, at, content } = message;
  const text = textOf(content);
  const sender = type === MessageType.BOT ? 'bot' : 'operator';
  const { cp, messageId } = await deps.knex.transaction(async (trx) => {
    const cp = (await lockConversation(trx, workspaceId, conversationId))!;
    const call = await ensureOpenCall(trx, cp);
    const [row] = await trx('messages')
      .insert({
        workspaceId,
        customerPlatformId: cp.id,
        callId: call.callId,
        content: JSON.stringify(content),
        text,
        type,
        status: MessageStatus.SENT,
        operatorId: message.operatorId,
        sender,
        isMedia: isMediaContent(content),
        createdAt: at,
        updatedAt: at,
      })
      .returning('id');
    if (type === MessageType.COMMON) {
      await trx('calls')
        .where({ id: call.callId })
        .update({
          firstResponseAt: trx.raw('coalesce(first_response_at, ?)', [at]),
          responseCount: trx.raw('response_count + (CASE WHEN waiting_since IS NULL THEN 0 ELSE 1 END)'),
          responseTimeSumMs: trx.raw('response_time_sum_ms + coalesce(greatest(0, (extract(epoch FROM ?::timestamptz - waiting_since) * 1000))::bigint, 0)', [at]),
          waitingSince: null,
        });
    }
    await trx('customer_platforms')
      .where({ id: cp.id })
      .update({
        lastMessage: JSON.stringify({ text: text.slice(0, PREVIEW_CHARS), type, sender, createdAt: at.toISOString() }),
        lastMessageAt: trx.raw('greatest(last_message_at, ?)', [at]),
        // The agent is in the chat: what the customer said is read. A bot message leaves that as it was.
        ...(sender === 'operator' ? { hasNewMessages: false, isFinished: false, currentCallId: call.callId } : {}),
        updatedAt: trx.fn.now(),
      });
    return { cp, messageId: Number(row.id) };
  });
  if (type === MessageType.PRIVATE) return;
  const channel = await loadChannel(deps.knex, workspaceId, cp.channelId);
  const adapter = adapterFor(channel.type);
  if (!adapter) return;
  const operator = message.operatorId === null ? null : await deps.knex('operators').where({ id: message.operatorId }).first('id', 'name', 'avatar');
  const sent = await adapter.send(deps as unknown as AppDeps, channel, {
    messageId,
    conversationId: cp.id,
    recipient: cp.externalId,
    content,
    text,
    operator: operator ? { id: operator.id, name: operator.name, avatar: operator.avatar } : null,
    createdAt: at,
    type,
  });
  await deps.knex('messages')
    .where({ id: messageId })
    .update({ status: MessageStatus.RECEIVED, ...(sent?.externalId ? { externalId: sent.externalId } : {}) });
}
