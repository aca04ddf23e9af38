import type { ChannelDeps, ChannelRecord } from '../adapter';
import { whatsappAdapter } from './adapter';
import { routeQr } from './qr/qrTransport';
import { isCloudConfig } from './schema';

/**
 * One WhatsApp send from an activity (campaigns and anything else that sends without an inbox message of its
 * own): `content` is Delta ops or file entries, `recipient` the wa_id (Cloud) or JID (QR; bare digits become a
 * phone JID), `idempotencyKey` stable across retries (on QR lines it fixes the WhatsApp message ids, see
 * docs/outbound.md). Answers the external id; throws ChannelSendError (transient or not) like the adapter.
 *
 * A QR line sends only where its socket lives (`deps.qrSockets`): elsewhere it throws "not connected", and
 * `whatsappRouteFor` names the task queue to run the activity on (what channel-send does).
 */
export async function sendWhatsapp(deps: ChannelDeps, channel: ChannelRecord, recipient: string, content: unknown[], idempotencyKey: string): Promise<{ externalId?: string }> {
  return whatsappAdapter.send(deps, channel, {
    // No inbox message behind it: nothing is read by message id (templates, quoted replies).
    messageId: 0,
    conversationId: 0,
    recipient,
    content,
    text: '',
    operator: null,
    createdAt: new Date(),
    type: 0,
    idempotencyKey,
  });
}

/** The queue of the worker holding a QR line's socket when it is not this process; null for Cloud lines or to send here. */
export async function whatsappRouteFor(deps: ChannelDeps, channel: ChannelRecord): Promise<string | null> {
  return isCloudConfig(channel.config) ? null : routeQr(deps, channel);
}
