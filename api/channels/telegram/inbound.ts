import { errors } from '../../http/errors';
import { hookChannel, hookChannelsById } from '../hookChannel';
import { storedConnection, type HookInbound, type ParsedEvent } from '../inbound';
import { telegramLineOf, externalIdOf, type TelegramLine } from './line';
import { parseTelegramUpdate, type ParsedUpdate, type TgMessage } from './updateSchema';
import { applyTelegramEvent, validSecretToken } from './webhook';

/**
 * Telegram's inbound half (docs/channels/telegram.md), served at `/api/hooks/telegram/{identifier}`: the
 * X-Telegram-Bot-Api-Secret-Token header must equal the line's secret_token before the body is even read
 * (401 otherwise, nothing stored); a body that is not a JSON object is a 400; an Update whose message is
 * malformed is acknowledged (200) and skipped: Telegram would only send it again. A verified update is
 * stored and answered (`stored`, the hook store of api/channels/hooks/store.ts), then processed; what fails
 * (a media download that failed transiently) is processed again by the store's sweep, not by Telegram's
 * redelivery.
 */
export const telegramInbound: HookInbound<ParsedUpdate, TgMessage> = {
  type: 'telegram',
  answer: 'stored',
  source: 'telegram',
  storedAnswer: { ok: true },
  perChannel: true,

  async verify(deps, request) {
    const found = request.identifier ? await hookChannel(deps, 'telegram', request.identifier, telegramLineOf) : undefined;
    if (!found) throw errors.notFound();
    if (!validSecretToken(request.header('x-telegram-bot-api-secret-token'), found.line.secretToken)) throw errors.authentication('Token secreto inválido.');
    let json: unknown;
    try {
      json = JSON.parse((await request.rawBody('1mb')).toString('utf8'));
    } catch {
      throw errors.badRequest('JSON inválido.');
    }
    const update = parseTelegramUpdate(json);
    if (!update) throw errors.badRequest('O corpo deve ser um objeto Update do Telegram.');
    return { channelIds: [found.channel.id], payload: update, channels: [found] };
  },

  async parse(deps, verified) {
    const [found] = verified.channels ?? (await hookChannelsById(deps, 'telegram', verified.channelIds, telegramLineOf));
    const update = verified.payload;
    if (!found) return [];
    if (update.kind === 'malformed') deps.logger.warn({ channelId: found.channel.id, issues: update.issues }, 'telegram update skipped: not what the Bot API describes');
    if (update.kind !== 'message' && update.kind !== 'edited_message') return [];
    const m = update.message;
    const event: ParsedEvent<TgMessage> = { kind: update.kind === 'message' ? 'message' : 'edit', channel: found.channel, externalId: externalIdOf(m.chat.id, m.message_id), item: m };
    return [event];
  },

  async process(deps, verified) {
    const channels = verified.channels ?? (await hookChannelsById(deps, 'telegram', verified.channelIds, telegramLineOf));
    for (const event of await this.parse(deps, { ...verified, channels })) await applyTelegramEvent(deps, event.channel, channels[0].line as TelegramLine, event.kind as 'message' | 'edit', event.item);
  },

  status: storedConnection,
};
