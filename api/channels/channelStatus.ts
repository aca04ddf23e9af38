import type { ChannelDeps } from './adapter';
import { topics } from '../realtime/publisher';

/**
 * Moves a channel to `status` and, when it changed, tells the workspace on `ws/{id}/all` with
 * `channel.status` (the disconnected-channel banner listens there). Returns whether it changed.
 */
export async function setChannelStatus(deps: Pick<ChannelDeps, 'knex' | 'publisher'>, channel: { id: number; workspaceId: number }, status: string): Promise<boolean> {
  const changed = await deps.knex('channels')
    .where({ id: channel.id, workspaceId: channel.workspaceId })
    .whereNot({ status })
    .update({ status, updatedAt: deps.knex.fn.now() });
  if (changed) await deps.publisher.publish(topics.workspace(channel.workspaceId), 'channel.status', { id: channel.id, status });
  return changed > 0;
}
