import type { Config } from '../../config';
import type { ChannelRecord } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { openSecret } from '../secretBox';
import { isTelegramConfig } from './schema';

export interface TelegramLine {
  botId: number;
  token: string;
  secretToken: string;
}

/** The bot token and webhook secret of a Telegram channel, opened from their sealed form. */
export function telegramLineOf(config: Pick<Config, 'channelSecretsKey'>, channel: Pick<ChannelRecord, 'config'>): TelegramLine | undefined {
  const c = channel.config;
  if (!isTelegramConfig(c)) return undefined;
  return { botId: c.botId, token: openSecret(config, c.tokenSealed), secretToken: openSecret(config, c.secretTokenSealed) };
}

export function requireLine(config: Pick<Config, 'channelSecretsKey'>, channel: Pick<ChannelRecord, 'config'>): TelegramLine {
  const line = telegramLineOf(config, channel);
  if (!line) throw new ChannelSendError('Esta linha de Telegram não tem token salvo.', { transient: false, disconnect: true });
  return line;
}

/**
 * Our external id of a Telegram message: `{chat id}:{message id}` (message ids are unique per chat only),
 * so replies and deletes know both.
 */
export function externalIdOf(chatId: number | string, messageId: number | string): string {
  return `${chatId}:${messageId}`;
}

/** messages.external_id holds 255 characters. */
const EXTERNAL_ID_MAX = 255;

/**
 * The external id of an agent message that went out as several Telegram messages (several files, a text
 * longer than sendMessage takes): `{chat id}:{first},{second},…`, so deleting it deletes every piece. The
 * first piece is the message's own id (replies quote it).
 */
export function externalIdOfPieces(chatId: number | string, messageIds: number[]): string {
  let id = externalIdOf(chatId, messageIds[0]);
  for (const next of messageIds.slice(1)) {
    if (id.length + 1 + String(next).length > EXTERNAL_ID_MAX) break;
    id += `,${next}`;
  }
  return id;
}

export function parseExternalId(externalId: string): { chatId: string; messageId: number; messageIds: number[] } | undefined {
  const m = /^(-?\d+):(\d+(?:,\d+)*)$/.exec(externalId);
  if (!m) return undefined;
  const messageIds = m[2].split(',').map(Number);
  return { chatId: m[1], messageId: messageIds[0], messageIds };
}
