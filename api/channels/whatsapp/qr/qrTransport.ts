import type { ChannelDeps, ChannelRecord, OutboundMessage } from '../../adapter';
import { ChannelSendError } from '../../sendErrors';
import { sessionQueueOf } from './sessionQueue';
import { QR_LOGGED_OUT, QR_NOT_CONNECTED, jidOf, sendThroughSocket } from './sender';
import { callQrSocket } from './socketCall';

const line = (channel: ChannelRecord) => ({ workspaceId: channel.workspaceId, channelId: channel.id });

/**
 * A QR line's send (docs/outbound.md "WhatsApp QR lines"): through the live socket when this process holds
 * it (the delivery activity was routed here). Otherwise the line is not connected: a line that stopped for
 * good (logged out, replaced, blocked: status `disconnected`, the banner) fails the message with a pt-BR
 * reason; a line connecting, reconnecting or showing its QR is a transient failure the path retries.
 */
export async function sendQr(deps: ChannelDeps, channel: ChannelRecord, message: OutboundMessage): Promise<{ externalId?: string }> {
  const socket = deps.qrSockets?.get(channel.id);
  if (socket) return sendThroughSocket(deps, socket, channel, message);
  const row: { status: string | null } | undefined = await deps.knex('channels').where({ id: channel.id, workspaceId: channel.workspaceId }).first('status');
  if (row?.status === 'disconnected') throw new ChannelSendError(QR_LOGGED_OUT, { transient: false, code: 'qr_disconnected' });
  throw new ChannelSendError(QR_NOT_CONNECTED, { transient: true, code: 'qr_not_connected' });
}

/** The queue of the worker holding the line's socket when it is not this process; null to send here. */
export async function routeQr(deps: ChannelDeps, channel: ChannelRecord): Promise<string | null> {
  if (deps.qrSockets?.get(channel.id)) return null;
  const queue = await sessionQueueOf(deps.knex, line(channel));
  return queue && queue !== deps.qrSockets?.taskQueue ? queue : null;
}

/** Delete for everyone (`sendMessage(jid, {delete: key})`) of one of our messages, on the line's live socket. */
export async function deleteQr(deps: ChannelDeps, channel: ChannelRecord, externalId: string): Promise<void> {
  const row: { recipient: string } | undefined = await deps.knex('messages as m')
    .join('customer_platforms as cp', 'cp.id', 'm.customer_platform_id')
    .where({ 'cp.workspace_id': channel.workspaceId, 'cp.channel_id': channel.id, 'm.external_id': externalId })
    .first('cp.external_id as recipient');
  if (!row) throw new Error('message to delete not found in this line');
  await callQrSocket(deps, channel, { kind: 'delete', jid: jidOf(row.recipient), id: externalId });
}

/** "digitando…" on the customer's phone: `sendPresenceUpdate('composing', jid)` on the line's live socket. */
export async function composingQr(deps: ChannelDeps, channel: ChannelRecord, recipient: string): Promise<void> {
  await callQrSocket(deps, channel, { kind: 'composing', jid: jidOf(recipient) });
}

/**
 * Whether a phone number is on WhatsApp, asked of the line's live socket (`onWhatsApp`): the JID WhatsApp
 * answers (it may differ from the typed digits, e.g. Brazilian numbers registered before the extra 9).
 */
export async function checkQrNumber(deps: ChannelDeps, channel: Pick<ChannelRecord, 'id' | 'workspaceId'>, phone: string): Promise<{ exists: boolean; jid: string | null }> {
  const result = await callQrSocket(deps, channel, { kind: 'onWhatsApp', phone });
  return 'exists' in result ? result : { exists: false, jid: null };
}
