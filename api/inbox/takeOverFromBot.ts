import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { MessageStatus, MessageType } from '../models/Message';
import type { ConversationViewer } from '../policy/conversations';
import { operatorsWhoCanSee } from '../policy/conversations';
import type { PlatformRow } from '../conversations/queries';
import { publishConversationEvent } from '../conversations/fanout';
import { cancelActiveSession } from '../bots/runtime/sessionRows';
import { applyAssignment } from '../assignment/assignNewCall';

export const botEndedText = (agent: string) => `Atendimento manual: ${agent} respondeu e o bot foi encerrado.`;
export const selfAssignedText = (agent: string) => `Conversa atribuída a ${agent}.`;

/** What an agent's reply changed in a conversation a bot was running; published after commit. */
export interface TakeOver {
  conversationId: number;
  workspaceId: number;
  systemMessageIds: number[];
  visibleBefore?: number[];
}

/**
 * An agent's first COMMON reply in a conversation a bot is running (docs/bots.md "An agent answers"): the bot
 * session ends (canceled, like 'Atendimento manual'), and if nobody is assigned and the workspace keeps
 * `assign_on_manual_reply` on (the default), the conversation and its open call go to that agent. Each change
 * is a system message in the conversation, stored before the reply. Runs inside the reply's transaction,
 * which holds the conversation lock. Undefined when no bot was running.
 */
export async function takeOverFromBot(trx: Knex.Transaction, viewer: ConversationViewer, cp: PlatformRow, callId: number, at: Date): Promise<TakeOver | undefined> {
  if (cp.botId === null) return undefined;
  if ((await cancelActiveSession(trx, cp.id)) === undefined) return undefined;
  const agent = (await trx('operators').where({ id: viewer.operatorId }).first('name'))?.name ?? 'Agente';
  const texts = [botEndedText(agent)];
  let visibleBefore: number[] | undefined;
  if (cp.operatorId === null) {
    const ws = await trx('workspaces').where({ id: viewer.workspaceId }).first('assign_on_manual_reply');
    if (ws?.assignOnManualReply) {
      visibleBefore = await operatorsWhoCanSee(trx, viewer.workspaceId, cp);
      await applyAssignment(trx, cp.id, { operatorId: viewer.operatorId, groupId: cp.groupId });
      texts.push(selfAssignedText(agent));
    }
  }
  const rows: { id: number }[] = await trx('messages')
    .insert(
      texts.map((text) => ({
        workspaceId: viewer.workspaceId,
        customerPlatformId: cp.id,
        callId,
        content: JSON.stringify([{ insert: text }]),
        text,
        type: MessageType.SYSTEM,
        status: MessageStatus.RECEIVED,
        sender: 'system',
        createdAt: at,
      })),
    )
    .returning('id');
  return { conversationId: cp.id, workspaceId: viewer.workspaceId, systemMessageIds: rows.map((r) => r.id), visibleBefore };
}

/** After commit: the bot's workflow stops, the team sees the new header and the system messages. */
export async function announceTakeOver(deps: AppDeps, takeOver: TakeOver): Promise<void> {
  const { conversationId, workspaceId } = takeOver;
  await deps.temporal.stopBotSession(conversationId).catch((err: unknown) => deps.logger.warn({ err, conversationId }, 'bot session stop not signalled'));
  await publishConversationEvent(deps, 'chat.callStatus', workspaceId, conversationId, takeOver.visibleBefore ? { visibleBefore: takeOver.visibleBefore } : {});
  for (const messageId of takeOver.systemMessageIds) await publishConversationEvent(deps, 'chat.newMessage', workspaceId, conversationId, { messageId });
}
