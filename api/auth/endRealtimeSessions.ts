import type { AppDeps } from '../deps';

/**
 * Closes every live realtime (MQTT) session of an operator, in every workspace they belong to: called
 * after their tokens were revoked (password changed or reset), so no socket outlives the token it
 * connected with. A broker that cannot be reached leaves sessions to end at their token's expiry.
 */
export async function endRealtimeSessions(deps: Pick<AppDeps, 'knex' | 'realtimeSessions'>, operatorId: number): Promise<void> {
  const sessions = deps.realtimeSessions;
  if (!sessions) return;
  const rows: { workspaceId: number }[] = await deps.knex('workspace_members').where({ operatorId }).select('workspace_id');
  await Promise.all(rows.map((r) => sessions.disconnectOperator(r.workspaceId, operatorId).catch(() => 0)));
}
