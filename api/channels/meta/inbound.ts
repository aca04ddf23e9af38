import { errors } from '../../http/errors';
import type { ChannelType } from '../adapter';
import { validHubSignature } from '../hubSignature';
import { storedConnection, type HookInbound, type HookRequest, type InboundChannelDeps } from '../inbound';
import { applyMetaEvent, parseMetaBatch, type MetaEvent, type MetaPayload } from './webhook';
import { checkMetaBatch } from './webhookSchema';

/**
 * The inbound half of Messenger and Instagram (docs/channels/meta.md), one for both: Meta posts every page's
 * and account's events to the app-level `/api/hooks/meta`. `GET` answers the handshake for
 * META_VERIFY_TOKEN; a `POST` is checked with X-Hub-Signature-256 (META_APP_SECRET) over the raw bytes
 * before anything parses it, stored in one insert and answered 200 at once (`stored`), then processed entry
 * by entry, each routed to the channel of its page or Instagram account (the sweep retries what did not
 * finish).
 */
function metaInbound(type: ChannelType): HookInbound<MetaPayload, MetaEvent> {
  return {
    type,
    answer: 'stored',
    source: 'meta',
    perChannel: false,
    storedAnswer: { data: { received: true } },

    async handshake(deps: InboundChannelDeps, request: HookRequest) {
      const q = request.query;
      const expected = deps.config.metaVerifyToken;
      if (!expected) throw errors.notFound();
      const given = q['hub.verify_token'];
      if (q['hub.mode'] !== 'subscribe' || typeof given !== 'string' || given !== expected) throw errors.forbidden('Token de verificação inválido.');
      return String(q['hub.challenge'] ?? '');
    },

    async verify(deps, request) {
      const secret = deps.config.metaAppSecret;
      if (!secret || request.identifier !== undefined) throw errors.notFound();
      let raw: Buffer;
      try {
        raw = await request.rawBody('5mb');
      } catch {
        throw errors.badRequest('Corpo inválido.');
      }
      if (!validHubSignature(raw, request.header('x-hub-signature-256'), secret)) throw errors.authentication('Assinatura inválida.');
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw errors.badRequest('JSON inválido.');
      }
      const checked = checkMetaBatch(json);
      if (!checked) throw errors.badRequest('JSON inválido.');
      const { payload, skipped } = checked;
      if (payload.object !== 'page' && payload.object !== 'instagram') return { channelIds: [], payload, skip: true };
      // Meta would send the batch again for hours: a malformed event is left out, the rest handled (docs/channels/meta.md).
      if (skipped.length) deps.logger.warn({ skipped: skipped.slice(0, 20) }, 'meta webhook: malformed events left out');
      return { channelIds: [], payload };
    },

    async parse(deps, verified) {
      return (await parseMetaBatch(deps, verified.payload)).events;
    },

    /** Every event in order; a failing one does not stop the others, the first failure is thrown at the end (the batch is tried again; all of it is idempotent). */
    async process(deps, verified) {
      let failure: unknown;
      for (const event of await this.parse(deps, verified)) {
        try {
          await applyMetaEvent(deps, event.channel, event.kind, event.item);
        } catch (err) {
          deps.logger.error({ err, channelId: event.channel.id }, 'meta webhook event failed');
          failure ??= err;
        }
      }
      if (failure) throw failure;
    },

    status: storedConnection,
  };
}

export const facebookInbound = metaInbound('facebook');
export const instagramInbound = metaInbound('instagram');
