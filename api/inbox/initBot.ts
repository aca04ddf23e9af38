import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { lockVisibleConversation } from '../conversations/queries';
import { ensureOpenCall } from '../conversations/calls';
import { publishConversationEvent } from '../conversations/fanout';
import { conversationView, type ConversationView } from '../conversations/presenters';
import { loadBot } from '../bots/queries';
import { cancelActiveSession, finishSession, openSession } from '../bots/runtime/sessionRows';
import type { InitBotReq } from './schema';

export const BOT_NOT_FOUND = 'Bot não encontrado.';
export const BOT_INACTIVE = 'Este bot está inativo.';
export const BOT_CONVERSATION_FINISHED = 'Reabra a conversa para iniciar um bot.';
export const BOT_UNAVAILABLE = 'Não foi possível iniciar o bot agora. Tente novamente.';

/**
 * POST /calls/init-bot {customerPlatformId, botId} (docs/bots.md "From the inbox"). Anyone who can see the
 * conversation may do it. A bot id starts that (active) bot on the open call, replacing a session that
 * runs; `botId: null` is 'Atendimento manual': the running session stops and the conversation stays where
 * it is. Answers the conversation as the caller sees it.
 */
export async function initBot(deps: AppDeps, viewer: ConversationViewer, input: InitBotReq): Promise<ConversationView> {
  const id = input.customerPlatformId;
  const botId = input.botId;
  if (botId === null) {
    const canceled = await deps.knex.transaction(async (trx) => {
      const cp = await lockVisibleConversation(trx, viewer, id);
      return cancelActiveSession(trx, cp.id);
    });
    if (canceled !== undefined) {
      await deps.temporal.stopBotSession(id).catch((err: unknown) => deps.logger.warn({ err, conversationId: id }, 'bot session stop not signalled'));
      await publishConversationEvent(deps, 'chat.callStatus', viewer.workspaceId, id);
    }
    return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
  }

  const session = await deps.knex.transaction(async (trx) => {
    const cp = await lockVisibleConversation(trx, viewer, id);
    const bot = await loadBot(trx, viewer.workspaceId, botId);
    if (!bot) throw errors.field('botId', BOT_NOT_FOUND);
    if (!bot.isActive) throw errors.field('botId', BOT_INACTIVE);
    if (cp.isFinished) throw errors.badRequest(BOT_CONVERSATION_FINISHED);
    const call = await ensureOpenCall(trx, cp);
    return openSession(trx, { workspaceId: viewer.workspaceId, conversationId: cp.id, callId: call.callId }, bot);
  });
  try {
    await deps.temporal.startBotSession(session);
  } catch (err) {
    deps.logger.error({ err, conversationId: id }, 'bot session did not start');
    await deps.knex.transaction((trx) => finishSession(trx, session.sessionId, 'failed'));
    throw errors.unavailable(BOT_UNAVAILABLE);
  }
  await publishConversationEvent(deps, 'chat.callStatus', viewer.workspaceId, id);
  return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
}
