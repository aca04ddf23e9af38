import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppDeps } from '../../../api/deps';
import type { BotRecord } from '../../../api/bots/queries';
import { ingestInbound } from '../../../api/inbound/receiveInbound';
import { lockConversation } from '../../../api/conversations/queries';
import { applyAssignment } from '../../../api/assignment/assignNewCall';
import { setConversationStatus } from '../../../api/inbox/setConversationStatus';
import { setConversationTags } from '../../../api/inbox/setConversationTags';
import { setFavorite } from '../../../api/inbox/setFavorite';
import { loadViewer, type ConversationViewer } from '../../../api/policy/conversations';
import type { AccessLevelValue } from '../../../api/policy/levels';
import { finishSession, openSession } from '../../../api/bots/runtime/sessionRows';
// Registers the channel adapters (the widget's), as the api and the worker do.
import '../../../api/channels';
import { MessageType } from '../../../api/models/Message';
import { sendMessage } from '../../../api/inbox/sendMessage';
import { lockLiveSession, publishAndDeliver, storeBotMessage } from '../../../activities/bots/botMessages';
import { createVisitor } from '../../../api/auth/visitorSessions';
import { insertStoredFiles } from '../../../api/assets/queries';
import { newStorageKey } from '../../../api/storage/keys';
import type { FileStorage } from '../../../api/storage/storage';
import type { At, DemoConversation, Step } from './conversations';
import { demoFile } from './files';
import type { Member, Team } from './team';

/** What the app's commands need here; the realtime publisher goes nowhere (nobody is connected yet). */
export type HistoryDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

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
 * finishing, contacts' first contact, tag use). Team messages go through sendMessage and bot messages
 * through the bot activities' storeBotMessage/publishAndDeliver, both given the step's moment.
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
    if ('reply' in step) await sendMessage(app, await viewerOf(step.by), { id, type: MessageType.COMMON, content: [{ insert: `${step.reply}\n` }] }, at);
    else if ('note' in step) await sendMessage(app, await viewerOf(step.by), { id, type: MessageType.PRIVATE, content: [{ insert: `${step.note}\n` }] }, at);
    else if ('file' in step) {
      const file = demoFile(step.file);
      const key = newStorageKey();
      await storage.put(key, Readable.from(file.bytes));
      const operatorId = team.members[step.by].id;
      await insertStoredFiles(knex, [
        { workspaceId: team.workspaceId, operatorId, key, fileName: file.fileName, mime: file.mime, size: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') },
      ]);
      await knex('stored_files').where({ key }).update({ createdAt: at });
      await sendMessage(app, await viewerOf(step.by), { id, type: MessageType.COMMON, content: [{ file: { key } }] }, at);
    } else if ('bot' in step) {
      const ref = { workspaceId: team.workspaceId, conversationId: id, sessionId: state.sessionId! };
      const stored = await knex.transaction(async (trx) => {
        const locked = await lockLiveSession(trx, ref);
        if (!locked) throw new Error(`demo conversation ${conversation}: a bot message needs an open bot session`);
        return storeBotMessage(trx, locked, `seed:${randomUUID()}`, step.bot, at);
      });
      await publishAndDeliver(app, ref, stored);
    }
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
