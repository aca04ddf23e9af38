import type { Knex } from 'knex';
import type { Logger } from '../../api/logger';
import type { TemporalGateway } from '../../api/temporal/client';
import { workflowIds } from '../../workflows/ids';
import { assignNewCall } from '../../api/assignment/assignNewCall';
import { finishSession } from '../../api/bots/runtime/sessionRows';

/** Fresh rows are left alone: their start may still be on its way. */
const GRACE_MS = 2 * 60_000;

/**
 * Active session rows whose workflow is not running (the api died between commit and signal-with-start,
 * or a run ended without closing its row) would hold their conversation forever: they end `failed`,
 * `bot_id` is cleared, and an unassigned open call goes through auto-assignment. Run by the worker at
 * start. Returns how many sessions it closed.
 */
export async function reconcileBotSessions(deps: { knex: Knex; temporal: TemporalGateway; logger: Logger }, now = new Date()): Promise<number> {
  const rows: { id: number; workspaceId: number; customerPlatformId: number; callId: number | null }[] = await deps.knex('bot_sessions')
    .where({ status: 'active' })
    .where('created_at', '<', new Date(now.getTime() - GRACE_MS))
    .orderBy('id')
    .select('id', 'workspace_id', 'customer_platform_id', 'call_id');
  if (!rows.length) return 0;
  const client = await deps.temporal.client();
  let closed = 0;
  for (const row of rows) {
    let running = false;
    try {
      running = (await client.workflow.getHandle(workflowIds.botSession(row.customerPlatformId)).describe()).status.name === 'RUNNING';
    } catch (err) {
      if ((err as { name?: string }).name !== 'WorkflowNotFoundError') {
        deps.logger.error({ err, sessionId: row.id }, 'bot session not checked');
        continue;
      }
    }
    if (running) continue;
    await deps.knex.transaction(async (trx) => {
      const cp = await trx('customer_platforms').where({ id: row.customerPlatformId }).forUpdate().first('id', 'channel_id', 'operator_id', 'current_call_id', 'is_finished');
      if (!(await finishSession(trx, row.id, 'failed'))) return;
      closed++;
      if (cp && !cp.isFinished && cp.operatorId === null && row.callId !== null && cp.currentCallId === row.callId) {
        await assignNewCall(trx, { workspaceId: row.workspaceId, channelId: cp.channelId, conversationId: cp.id, callId: row.callId });
      }
    });
  }
  return closed;
}
