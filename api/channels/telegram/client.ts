import type { Config } from '../../config';
import { ChannelSendError } from '../sendErrors';
import { MEDIA_LIMIT_BYTES, MediaTooLargeError, providerFetch, readCappedBody } from '../providerHttp';

export { MEDIA_LIMIT_BYTES, MediaTooLargeError };

/**
 * The Telegram Bot API at TELEGRAM_API_URL (docs/channels/telegram.md): `POST {base}/bot{token}/{method}`
 * answering `{ok: true, result}` or `{ok: false, error_code, description, parameters?: {retry_after}}`;
 * files at `{base}/file/bot{token}/{file_path}`. The base is operator configuration, not user input, so it
 * is called directly (tests point it at a loopback fake).
 */
type TelegramConfig = Pick<Config, 'telegramApiUrl'>;

interface TelegramAnswer<T> {
  ok?: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** A Bot API error answer as the delivery path's error: transient or not, disconnecting or not, in pt-BR. */
export function telegramSendError(status: number, body: TelegramAnswer<unknown> | undefined): ChannelSendError {
  const code = body?.error_code ?? status;
  const detail = body?.description ?? `HTTP ${status}`;
  if (code === 401 || code === 404) {
    return new ChannelSendError('O token do bot do Telegram foi revogado ou é inválido. Atualize a linha.', { transient: false, disconnect: true, code });
  }
  if (code === 403) return new ChannelSendError('O contato bloqueou o bot no Telegram; a mensagem não foi entregue.', { transient: false, code });
  if (code === 429) {
    const retryAfter = body?.parameters?.retry_after;
    return new ChannelSendError('Limite de envio do Telegram atingido; nova tentativa em breve.', { transient: true, code, retryAfterMs: typeof retryAfter === 'number' ? retryAfter * 1000 : null });
  }
  if (code >= 500) return new ChannelSendError('O Telegram está indisponível; nova tentativa em breve.', { transient: true, code });
  return new ChannelSendError(`O Telegram recusou a mensagem: ${detail}`, { transient: false, code });
}

const telegramFetch = (url: string, init: RequestInit = {}) => providerFetch('Telegram', url, init);

/** Calls one Bot API method with a JSON body (or multipart form) and answers its `result`. */
export async function callTelegram<T>(config: TelegramConfig, token: string, method: string, body?: Record<string, unknown> | FormData): Promise<T> {
  const init: RequestInit =
    body instanceof FormData
      ? { method: 'POST', body }
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) };
  const res = await telegramFetch(`${config.telegramApiUrl}/bot${token}/${method}`, init);
  const answer = (await res.json().catch(() => undefined)) as TelegramAnswer<T> | undefined;
  if (!res.ok || !answer?.ok) throw telegramSendError(res.status, answer);
  return answer.result as T;
}

export interface TelegramUser {
  id: number;
  is_bot?: boolean;
  first_name?: string;
  last_name?: string;
  username?: string;
}

export interface TelegramSentMessage {
  message_id: number;
  chat: { id: number };
}

export interface TelegramFile {
  file_id: string;
  file_unique_id?: string;
  file_size?: number;
  file_path?: string;
}

/** The Update types the webhook asks for (setWebhook allowed_updates). */
export const ALLOWED_UPDATES = ['message', 'edited_message'] as const;

export function getMe(config: TelegramConfig, token: string): Promise<TelegramUser> {
  return callTelegram<TelegramUser>(config, token, 'getMe');
}

export async function setWebhook(config: TelegramConfig, token: string, url: string, secretToken: string): Promise<void> {
  await callTelegram<boolean>(config, token, 'setWebhook', { url, secret_token: secretToken, allowed_updates: ALLOWED_UPDATES });
}

export async function deleteWebhook(config: TelegramConfig, token: string): Promise<void> {
  await callTelegram<boolean>(config, token, 'deleteWebhook', {});
}

/** getFile, then the download of its file_path, refusing more than `maxBytes` whatever was announced. */
export async function downloadTelegramFile(config: TelegramConfig, token: string, fileId: string, maxBytes = MEDIA_LIMIT_BYTES): Promise<{ bytes: Buffer; filePath: string }> {
  const file = await callTelegram<TelegramFile>(config, token, 'getFile', { file_id: fileId });
  if ((file.file_size ?? 0) > maxBytes) throw new MediaTooLargeError();
  if (!file.file_path) throw new ChannelSendError('O Telegram não devolveu o caminho do arquivo.', { transient: false });
  const res = await telegramFetch(`${config.telegramApiUrl}/file/bot${token}/${file.file_path.split('/').map(encodeURIComponent).join('/')}`);
  if (!res.ok || !res.body) throw telegramSendError(res.status, undefined);
  return { bytes: await readCappedBody(res.body, res.headers.get('content-length'), maxBytes), filePath: file.file_path };
}
