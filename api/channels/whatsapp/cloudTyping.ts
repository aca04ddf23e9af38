import type { ChannelDeps, ChannelRecord } from '../adapter';
import { providerFetch } from '../providerHttp';
import type { CloudLine } from './cloudLine';
import { graphSendError } from './client';

/**
 * Cloud API typing indicator (docs/channels/whatsapp.md "Typing"): Meta has no bare "typing" call; it is
 * `POST /{phone-number-id}/messages` `{messaging_product, status: 'read', message_id, typing_indicator: {type:
 * 'text'}}` on the customer's last received message, which also marks it (and earlier ones) read on the
 * phone. Shown until the reply or for 25 s. Without a received message (a conversation we started) there is
 * nothing to attach it to: nothing is sent.
 */
export async function sendCloudTyping(deps: ChannelDeps, channel: ChannelRecord, line: CloudLine, recipient: string): Promise<boolean> {
  const last: { externalId: string } | undefined = await deps.knex('messages as m')
    .join('customer_platforms as cp', 'cp.id', 'm.customer_platform_id')
    .where({ 'cp.workspace_id': channel.workspaceId, 'cp.channel_id': channel.id, 'cp.external_id': recipient, 'm.sender': 'customer' })
    .whereNotNull('m.external_id')
    .orderBy('m.id', 'desc')
    .first('m.external_id');
  if (!last) return false;
  const res = await providerFetch('WhatsApp', `${deps.config.metaGraphUrl}/${encodeURIComponent(line.phoneNumberId)}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${line.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', status: 'read', message_id: last.externalId, typing_indicator: { type: 'text' } }),
  });
  const body = (await res.json().catch(() => undefined)) as { success?: boolean; error?: { code?: number; message?: string } } | undefined;
  if (!res.ok || body?.error) throw graphSendError(res.status, body?.error);
  return true;
}
