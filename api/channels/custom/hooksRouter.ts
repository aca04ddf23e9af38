import Router from '@koa/router';
import getRawBody from 'raw-body';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { parseWith } from '../../http/validate';
import { hookChannel } from '../hookChannel';
import { customLineOf } from './channel';
import { CustomInboundSchema } from './schema';
import { verifyStandardWebhook } from './signature';
import { handleCustomInbound } from './webhook';

/**
 * The company's inbound messages (docs/channels/custom.md). Standard Webhooks headers are checked over the
 * raw bytes before anything parses them (the JSON body parser skips /api/hooks/): a bad signature or a
 * timestamp outside 5 minutes is a 401 and nothing is stored; then the JSON body is validated (400 with
 * every failing field); a repeated `id` answers 200 with `duplicate: true` and stores nothing.
 */
export function customHooksRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/hooks/custom/:identifier', async (ctx) => {
    const found = await hookChannel(deps, 'custom', ctx.params.identifier, customLineOf);
    if (!found) throw errors.notFound('Canal não encontrado.');
    let raw: Buffer;
    try {
      raw = await getRawBody(ctx.req, { limit: '1mb' });
    } catch {
      throw errors.badRequest('Corpo inválido ou maior que 1 MB.');
    }
    const check = verifyStandardWebhook(found.line.secret, { id: ctx.get('webhook-id') || undefined, timestamp: ctx.get('webhook-timestamp') || undefined, signature: ctx.get('webhook-signature') || undefined }, raw);
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
    const body = parseWith(CustomInboundSchema, json);
    const result = await handleCustomInbound(deps, found.channel, body);
    ctx.body = { data: { received: true, duplicate: result.duplicate, messageId: result.messageId, conversationId: result.conversationId } };
  });
  return router;
}
