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

export function parseExternalId(externalId: string): { chatId: string; messageId: number } | undefined {
  const m = /^(-?\d+):(\d+)$/.exec(externalId);
  return m ? { chatId: m[1], messageId: Number(m[2]) } : undefined;
}
