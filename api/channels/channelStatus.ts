import type { Knex } from 'knex';
import type { ChannelDeps } from './adapter';
import { topics } from '../realtime/publisher';

/**
 * Why a channel is in its status (channels.status_reason), so its label says what happens next or what the
 * user must do (ui/src/settings/channels/channelPage.ts):
 * - `reconnecting`: a QR line whose connection dropped, reconnecting with backoff by itself;
 * - `qr_logged_out`: a QR line logged out on the phone (or whose QR nobody read): read a new QR;
 * - `qr_stopped`: a QR line stopped without a logout (replaced by another session, refused): restart it;
 * - `token_revoked`: a line whose token the provider refused (revoked or expired, Graph 190, Telegram 401):
 *   it is down until someone gives a new token or connects it again.
 */
export type ChannelStatusReason = 'reconnecting' | 'qr_logged_out' | 'qr_stopped' | 'token_revoked';

/**
 * The reason of a `disconnected` no caller named: a QR line stopped (its own handler names a better one
 * first), any other channel only goes down when its token is refused.
 */
const DISCONNECTED_REASON_SQL = "CASE WHEN type = 'whatsapp' AND config->>'provider' = 'qr' THEN 'qr_stopped' ELSE 'token_revoked' END";

/**
 * Moves a channel to `status` (with its `reason`) and, when that changed, tells the workspace on
 * `ws/{id}/all` with `channel.status` (the disconnected-channel banner and the channel screens listen
 * there). Without a reason, a status that does not change keeps its reason, a new status drops it, and
 * `disconnected` gets the default above. Returns whether it changed.
 */
export async function setChannelStatus(
  deps: Pick<ChannelDeps, 'knex' | 'publisher'>,
  channel: { id: number; workspaceId: number },
  status: string,
  reason?: ChannelStatusReason | null,
): Promise<boolean> {
  const { knex } = deps;
  const query = knex('channels').where({ id: channel.id, workspaceId: channel.workspaceId });
  let statusReason: Knex.Raw | string | null;
  if (reason === undefined) {
    query.whereNot({ status });
    statusReason = status === 'disconnected' ? knex.raw(DISCONNECTED_REASON_SQL) : null;
  } else {
    query.where((w) => {
      w.whereNot({ status }).orWhereRaw('status_reason IS DISTINCT FROM ?', [reason]);
    });
    statusReason = reason;
  }
  const [changed] = (await query.update({ status, statusReason, updatedAt: knex.fn.now() }).returning(['status_reason'])) as { statusReason: string | null }[];
  if (changed) await deps.publisher.publish(topics.workspace(channel.workspaceId), 'channel.status', { id: channel.id, status, statusReason: changed.statusReason });
  return !!changed;
}
