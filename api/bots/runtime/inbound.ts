import type { Knex } from 'knex';
import type { AppDeps } from '../../deps';
import type { BotSessionInput } from '../../../workflows/bots/botSession';
import { assignNewCall } from '../../assignment/assignNewCall';
import { publishConversationEvent } from '../../conversations/fanout';
import { selectBot } from '../selectBot';
import { cancelActiveSession, finishSession, openSession } from './sessionRows';

/** What the inbound pipeline hands to the bot runtime after its transaction committed. */
export type BotDispatch =
  | { kind: 'start'; input: BotSessionInput }
  | { kind: 'stop'; conversationId: number }
  | { kind: 'message'; conversationId: number; messageId: number; callId: number; text: string };

export type BotDispatchDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

export interface NewCallFacts {
  workspaceId: number;
  channelId: number;
  conversationId: number;
  customerId: number;
  callId: number;
}

/**
 * In the inbound transaction, for a call that just opened: the session of an earlier call is over, and the
 * bot the rules pick (api/bots/selectBot.ts) gets a session row and the conversation's bot_id. With a bot
 * the call is not auto-assigned (the caller skips assignNewCall): the bot hands it off, or auto-assignment
 * runs when the bot ends without handing off (docs/bots.md "Assignment").
 */
export async function botForNewCall(trx: Knex.Transaction, call: NewCallFacts): Promise<BotDispatch | undefined> {
  const bot = await selectBot(trx, { workspaceId: call.workspaceId, channelId: call.channelId, customerId: call.customerId });
  if (bot) return { kind: 'start', input: await openSession(trx, call, bot) };
  const canceled = await cancelActiveSession(trx, call.conversationId);
  return canceled === undefined ? undefined : { kind: 'stop', conversationId: call.conversationId };
}

/**
 * After commit: starts the session (signal-with-start), or signals the customer's message to the running
 * one, or stops an outdated one. A session that cannot start (Temporal away) is marked failed and the call
 * goes through auto-assignment instead, so no conversation waits on a bot that never runs.
 */
export async function dispatchToBot(deps: BotDispatchDeps, dispatch: BotDispatch | undefined): Promise<void> {
  if (!dispatch) return;
  const log = deps.logger.child({ bot: dispatch.kind });
  if (dispatch.kind === 'start') {
    try {
      if (!deps.temporal) throw new Error('no Temporal client in this process');
      await deps.temporal.startBotSession(dispatch.input);
    } catch (err) {
      log.error({ err, conversationId: dispatch.input.conversationId }, 'bot session did not start: the call goes to auto-assignment');
      await failStart(deps, dispatch.input);
    }
    return;
  }
  try {
    if (!deps.temporal) return;
    if (dispatch.kind === 'stop') await deps.temporal.stopBotSession(dispatch.conversationId);
    else await deps.temporal.signalBotMessage(dispatch.conversationId, { messageId: dispatch.messageId, callId: dispatch.callId, text: dispatch.text });
  } catch (err) {
    log.error({ err, conversationId: dispatch.conversationId }, 'bot session not reached');
  }
}

async function failStart(deps: BotDispatchDeps, input: BotSessionInput): Promise<void> {
  try {
    await deps.knex.transaction(async (trx) => {
      const cp = await trx('customer_platforms').where({ workspaceId: input.workspaceId, id: input.conversationId }).forUpdate().first('id', 'channel_id', 'operator_id', 'current_call_id', 'is_finished');
      if (!(await finishSession(trx, input.sessionId, 'failed')) || !cp || cp.isFinished || cp.operatorId !== null || cp.currentCallId !== input.callId) return;
      await assignNewCall(trx, { workspaceId: input.workspaceId, channelId: cp.channelId, conversationId: cp.id, callId: input.callId });
    });
    await publishConversationEvent(deps, 'chat.callStatus', input.workspaceId, input.conversationId);
  } catch (err) {
    deps.logger.error({ err, conversationId: input.conversationId }, 'failed bot start not cleaned up');
  }
}
