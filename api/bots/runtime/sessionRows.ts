import type { Knex } from 'knex';
import { workflowIds } from '../../../workflows/ids';
import type { BotSessionInput } from '../../../workflows/bots/botSession';
import { botVersion, type BotRecord } from '../queries';

/** The statuses a session row ends in (bot_sessions_status_check). */
export type SessionEndStatus = 'finished' | 'expired' | 'transferred' | 'canceled' | 'failed';

export interface ActiveSession {
  id: number;
  workspaceId: number;
  customerPlatformId: number;
  botId: number;
  callId: number | null;
}

/** The session row while it is active, locked for the transaction; undefined once it ended. */
export async function lockActiveSession(trx: Knex.Transaction, sessionId: number): Promise<ActiveSession | undefined> {
  return trx('bot_sessions').where({ id: sessionId, status: 'active' }).forUpdate().first('id', 'workspace_id', 'customer_platform_id', 'bot_id', 'call_id');
}

/**
 * Closes an active session row (a closed one stays as it ended: the first ending wins) and clears the
 * conversation's bot_id unless another session is active on it. True when this call closed it.
 */
export async function finishSession(trx: Knex.Transaction, sessionId: number, status: SessionEndStatus): Promise<boolean> {
  const rows: { customerPlatformId: number }[] = await trx('bot_sessions')
    .where({ id: sessionId, status: 'active' })
    .update({ status, finishedAt: trx.fn.now() })
    .returning('customer_platform_id');
  if (!rows.length) return false;
  await clearBotId(trx, rows[0].customerPlatformId);
  return true;
}

async function clearBotId(trx: Knex.Transaction, conversationId: number): Promise<void> {
  await trx('customer_platforms')
    .where({ id: conversationId })
    .whereNotExists(function () {
      void this.select(1).from('bot_sessions').where({ customerPlatformId: conversationId, status: 'active' });
    })
    .update({ botId: null, updatedAt: trx.fn.now() });
}

/** Cancels the conversation's active session, if any ('Atendimento manual', a new call, a new bot). Returns its id. */
export async function cancelActiveSession(trx: Knex.Transaction, conversationId: number): Promise<number | undefined> {
  const rows: { id: number }[] = await trx('bot_sessions')
    .where({ customerPlatformId: conversationId, status: 'active' })
    .update({ status: 'canceled', finishedAt: trx.fn.now() })
    .returning('id');
  await clearBotId(trx, conversationId);
  return rows[0]?.id;
}

/**
 * Opens a session row for `bot` on the conversation's open call (the caller holds the conversation lock),
 * cancelling the one running, and marks the conversation as run by the bot. Returns the workflow input:
 * the snapshot of the bot the session keeps until it ends.
 */
export async function openSession(trx: Knex.Transaction, target: { workspaceId: number; conversationId: number; callId: number }, bot: BotRecord): Promise<BotSessionInput> {
  await cancelActiveSession(trx, target.conversationId);
  const version = botVersion(bot);
  const [row] = await trx('bot_sessions')
    .insert({
      workspaceId: target.workspaceId,
      customerPlatformId: target.conversationId,
      botId: bot.id,
      callId: target.callId,
      workflowId: workflowIds.botSession(target.conversationId),
      status: 'active',
      botVersion: version,
    })
    .returning('id');
  await trx('customer_platforms').where({ id: target.conversationId }).update({ botId: bot.id, updatedAt: trx.fn.now() });
  return {
    workspaceId: target.workspaceId,
    conversationId: target.conversationId,
    callId: target.callId,
    sessionId: Number(row.id),
    bot: { botId: bot.id, botName: bot.name, version, paths: bot.paths, expire: bot.expire },
  };
}
