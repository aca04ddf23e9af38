import Router from '@koa/router';
import getRawBody from 'raw-body';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { hookChannel } from '../hookChannel';
import { telegramLineOf } from './line';
import { parseTelegramUpdate } from './updateSchema';
import { handleTelegramUpdate, validSecretToken } from './webhook';

/**
 * Telegram's webhook (docs/channels/telegram.md): the X-Telegram-Bot-Api-Secret-Token header must equal
 * the line's secret_token before the body is even read (401 otherwise, nothing stored); 200 only after the
 * update is stored, so Telegram redelivers what failed. A body that is not a JSON object is a 400; an
 * Update whose message is malformed is acknowledged (200) and skipped: Telegram would only send it again.
 */
export function telegramHooksRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/hooks/telegram/:identifier', async (ctx) => {
    const found = await hookChannel(deps, 'telegram', ctx.params.identifier, telegramLineOf);
    if (!found) throw errors.notFound();
    if (!validSecretToken(ctx.get('x-telegram-bot-api-secret-token') || undefined, found.line.secretToken)) throw errors.authentication('Token secreto inválido.');
    let json: unknown;
    try {
      json = JSON.parse((await getRawBody(ctx.req, { limit: '1mb' })).toString('utf8'));
    } catch {
      throw errors.badRequest('JSON inválido.');
    }
    const update = parseTelegramUpdate(json);
    if (!update) throw errors.badRequest('O corpo deve ser um objeto Update do Telegram.');
    await handleTelegramUpdate(deps, found.channel, found.line, update);
    ctx.body = { ok: true };
  });
  return router;
}
