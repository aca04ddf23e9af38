import { errors } from '../../http/errors';
import { parseWith } from '../../http/validate';
import { hookChannel } from '../hookChannel';
import { storedConnection, type HookInbound } from '../inbound';
import { customLineOf } from './channel';
import { CustomInboundSchema, type CustomInbound } from './schema';
import { verifyStandardWebhook } from './signature';
import { handleCustomInbound } from './webhook';

/**
 * The custom channel's inbound half (docs/channels/custom.md), served at `/api/hooks/custom/{identifier}`.
 * Standard Webhooks headers are checked over the raw bytes before anything parses them: a bad signature or
 * a timestamp outside 5 minutes is a 401 and nothing is stored; then the JSON body is validated (400 with
 * every failing field). The answer carries the stored message (`processed`): a repeated `id` answers 200
 * with `duplicate: true` and stores nothing.
 */
export const customInbound: HookInbound<CustomInbound, CustomInbound> = {
  type: 'custom',
  answer: 'processed',
  perChannel: true,

  async verify(deps, request) {
    const found = request.identifier ? await hookChannel(deps, 'custom', request.identifier, customLineOf) : undefined;
    if (!found) throw errors.notFound('Canal não encontrado.');
    let raw: Buffer;
    try {
      raw = await request.rawBody('1mb');
    } catch {
      throw errors.badRequest('Corpo inválido ou maior que 1 MB.');
    }
    const check = verifyStandardWebhook(found.line.secret, { id: request.header('webhook-id'), timestamp: request.header('webhook-timestamp'), signature: request.header('webhook-signature') }, raw);
    if (!check.ok) {
      throw errors.authentication(
        check.reason === 'stale'
          ? 'webhook-timestamp fora da tolerância de 5 minutos.'
          : check.reason === 'missing'
            ? 'Cabeçalhos webhook-id, webhook-timestamp e webhook-signature são obrigatórios.'
            : 'Assinatura inválida.',
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw errors.badRequest('JSON inválido.');
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw errors.badRequest('O corpo da requisição deve ser um objeto JSON.');
    return { channelIds: [found.channel.id], payload: parseWith(CustomInboundSchema, json), channels: [found] };
  },

  async parse(_deps, verified) {
    const [found] = verified.channels ?? [];
    return found ? [{ kind: 'message', channel: found.channel, externalId: verified.payload.id, item: verified.payload }] : [];
  },

  async process(deps, verified) {
    const [event] = await this.parse(deps, verified);
    if (!event) throw errors.notFound('Canal não encontrado.');
    const result = await handleCustomInbound(deps, event.channel, event.item);
    return { data: { received: true, duplicate: result.duplicate, messageId: result.messageId, conversationId: result.conversationId } };
  },

  status: storedConnection,
};
