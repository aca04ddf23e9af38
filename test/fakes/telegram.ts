import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { LoopbackFake } from './loopbackFake';

/**
 * A loopback stand-in for the Telegram Bot API as its public documentation describes it (not as our code
 * calls it): every method is `POST /bot{token}/{method}` with a JSON, urlencoded or multipart body and
 * answers `{ok: true, result}` or `{ok: false, error_code, description, parameters?}` with error_code as the
 * HTTP status — 401 `Unauthorized` for an unknown token, 404 `Not Found` for an unknown method, 400
 * `Bad Request: …`, 403 `Forbidden: bot was blocked by the user`, 429 `Too Many Requests: retry after N`
 * with `parameters.retry_after`. getFile answers a File `{file_id, file_unique_id, file_size, file_path}`
 * (bots may download up to 20 MB; bigger is `Bad Request: file is too big`), served at
 * `GET /file/bot{token}/{file_path}`. setWebhook takes `url` (an HTTPS URL on port 443, 80, 88 or 8443,
 * anything else is `Bad Request: bad webhook: …`; an empty string removes the webhook), `secret_token`
 * (1-256 of A-Z a-z 0-9 _ -) and `allowed_updates`; Telegram then POSTs each Update with
 * `X-Telegram-Bot-Api-Secret-Token`. Tests therefore give the api an https PUBLIC_URL and post the Updates
 * to its loopback address themselves.
 */
export interface TelegramBot {
  id: number;
  username: string;
  first_name: string;
}

export interface TelegramCall {
  token: string;
  method: string;
  /** JSON fields, or the multipart text fields (reply_parameters still a JSON string there). */
  params: Record<string, unknown>;
  /** The uploaded file of a multipart call. */
  file?: { field: string; name: string; type: string; size: number; bytes: Buffer };
  result?: unknown;
}

interface StoredFile {
  bytes: Buffer;
  uniqueId: string;
  path: string;
  /** What getFile announces. */
  size: number;
}

export const TELEGRAM_DOWNLOAD_LIMIT = 20 * 1024 * 1024;
/** sendMessage text: 1-4096 characters; a caption: 0-1024 (counted here in UTF-16 units, the stricter reading). */
export const TELEGRAM_TEXT_LIMIT = 4096;
export const TELEGRAM_CAPTION_LIMIT = 1024;
/** sendPhoto: "The photo must be at most 10 MB in size." */
export const TELEGRAM_PHOTO_LIMIT = 10 * 1024 * 1024;
/** sendVoice: "your audio must be in an .OGG file encoded with OPUS, or in .MP3 format, or in .M4A format". */
export const TELEGRAM_VOICE_TYPES = ['audio/ogg', 'audio/opus', 'audio/mpeg', 'audio/mp4', 'audio/x-m4a', 'audio/m4a'];

export function tgError(code: number, description: string, parameters?: Record<string, unknown>) {
  return { status: code, body: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) } };
}

export const TELEGRAM_ERRORS = {
  unauthorized: tgError(401, 'Unauthorized'),
  notFound: tgError(404, 'Not Found'),
  blocked: tgError(403, 'Forbidden: bot was blocked by the user'),
  tooManyRequests: (seconds: number) => tgError(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds }),
  internal: tgError(500, 'Internal Server Error'),
};

/** setWebhook: "HTTPS URL to send updates to"; "Ports currently supported for webhooks: 443, 80, 88, 8443." */
export const TELEGRAM_WEBHOOK_PORTS = ['443', '80', '88', '8443'];

/** Why the Bot API refuses a webhook URL (the wording of its `bad webhook` answers), or undefined when it takes it. */
export function webhookUrlRefusal(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Failed to resolve host: Name or service not known';
  }
  if (parsed.protocol !== 'https:') return 'An HTTPS URL must be provided for webhook';
  if (!TELEGRAM_WEBHOOK_PORTS.includes(parsed.port || '443')) return 'Webhook can be set up only on ports 80, 88, 443 or 8443';
  return undefined;
}

export class TelegramFake extends LoopbackFake {
  readonly calls: TelegramCall[] = [];
  readonly webhooks = new Map<string, { url: string; secret_token?: string; allowed_updates?: string[] }>();
  /** Answers for the next send* calls, in order (e.g. one 429 before success); null answers that call normally. */
  readonly nextSendErrors: ({ status: number; body: unknown } | null)[] = [];
  readonly blockedChats = new Set<string>();
  /** Every send* attempt, answered or refused, with when it arrived. */
  readonly sendAttempts: { method: string; at: number }[] = [];
  private readonly bots = new Map<string, TelegramBot>();
  private readonly files = new Map<string, StoredFile>();
  private readonly nextMessageId = new Map<string, number>();

  /** A bot BotFather made: `{id}:{35 characters}`. */
  addBot(username = `loja_${randomBytes(3).toString('hex')}_bot`): { token: string; bot: TelegramBot } {
    const id = 10 ** 9 + Math.floor(Math.random() * 10 ** 9);
    const token = `${id}:AA${randomBytes(24).toString('base64url').slice(0, 33)}`;
    const bot = { id, username, first_name: 'Loja' };
    this.bots.set(token, bot);
    return { token, bot };
  }

  /** A new token for an existing bot, as BotFather's /revoke gives (the old one should be revoked too). */
  addBotWithId(id: number, username = `loja_${randomBytes(3).toString('hex')}_bot`): { token: string; bot: TelegramBot } {
    const token = `${id}:AA${randomBytes(24).toString('base64url').slice(0, 33)}`;
    const bot = { id, username, first_name: 'Loja' };
    this.bots.set(token, bot);
    return { token, bot };
  }

  revokeToken(token: string): void {
    this.bots.delete(token);
  }

  /** A file a user sent; getFile will announce `announcedSize`. */
  addFile(bytes: Buffer, path: string, announcedSize = bytes.length): { file_id: string; file_unique_id: string; file_size: number } {
    const fileId = `AgAC${randomBytes(24).toString('base64url')}`;
    const uniqueId = `AQAD${randomBytes(6).toString('base64url')}`;
    this.files.set(fileId, { bytes, uniqueId, path, size: announcedSize });
    return { file_id: fileId, file_unique_id: uniqueId, file_size: announcedSize };
  }

  callsOf(method: string): TelegramCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  private async paramsOf(req: http.IncomingMessage, raw: Buffer): Promise<{ params: Record<string, unknown>; file?: TelegramCall['file'] }> {
    const type = req.headers['content-type'] ?? '';
    if (!raw.length) return { params: {} };
    if (type.startsWith('application/json')) return { params: JSON.parse(raw.toString('utf8')) as Record<string, unknown> };
    if (type.startsWith('application/x-www-form-urlencoded')) return { params: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': type }, body: raw }).formData();
      const params: Record<string, unknown> = {};
      let file: TelegramCall['file'];
      for (const [k, v] of form.entries()) {
        if (typeof v === 'string') params[k] = v;
        else file = { field: k, name: v.name, type: v.type, size: v.size, bytes: Buffer.from(await v.arrayBuffer()) };
      }
      return { params, file };
    }
    return { params: {} };
  }

  private message(chatId: string, extra: Record<string, unknown>) {
    const id = (this.nextMessageId.get(chatId) ?? 100) + 1;
    this.nextMessageId.set(chatId, id);
    return { message_id: id, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: 'private' }, ...extra };
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const fail = (e: { status: number; body: unknown }) => send(e.status, e.body);
    const path = new URL(req.url ?? '/', 'http://x').pathname;

    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
    if (download && req.method === 'GET') {
      if (!this.bots.has(download[1])) return fail(TELEGRAM_ERRORS.unauthorized);
      const file = [...this.files.values()].find((f) => f.path === decodeURIComponent(download[2]));
      if (!file) return fail(TELEGRAM_ERRORS.notFound);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
      res.end(file.bytes);
      return;
    }
    const call = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(path);
    if (!call) return fail(TELEGRAM_ERRORS.notFound);
    const [, token, method] = call;
    const bot = this.bots.get(token);
    if (!bot) return fail(TELEGRAM_ERRORS.unauthorized);
    const { params, file } = await this.paramsOf(req, raw);
    const record = (result: unknown) => {
      this.calls.push({ token, method, params, file, result });
      send(200, { ok: true, result });
    };
    const chatId = params.chat_id === undefined ? undefined : String(params.chat_id);

    switch (method) {
      case 'getMe':
        return record({ id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'setWebhook': {
        const secret = params.secret_token;
        if (secret !== undefined && (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))) return fail(tgError(400, 'Bad Request: secret token contains unallowed characters'));
        if (typeof params.url !== 'string') return fail(tgError(400, 'Bad Request: bad webhook: Webhook url is empty'));
        if (params.url !== '') {
          const refused = webhookUrlRefusal(params.url);
          if (refused) return fail(tgError(400, `Bad Request: bad webhook: ${refused}`));
        }
        const allowed = typeof params.allowed_updates === 'string' ? (JSON.parse(params.allowed_updates) as string[]) : (params.allowed_updates as string[] | undefined);
        if (params.url === '') this.webhooks.delete(token);
        else this.webhooks.set(token, { url: params.url, secret_token: secret as string | undefined, allowed_updates: allowed });
        return record(true);
      }
      case 'deleteWebhook':
        this.webhooks.delete(token);
        return record(true);
      case 'getFile': {
        const stored = typeof params.file_id === 'string' ? this.files.get(params.file_id) : undefined;
        if (!stored) return fail(tgError(400, 'Bad Request: invalid file_id'));
        if (stored.size > TELEGRAM_DOWNLOAD_LIMIT) return fail(tgError(400, 'Bad Request: file is too big'));
        return record({ file_id: params.file_id, file_unique_id: stored.uniqueId, file_size: stored.size, file_path: stored.path });
      }
      case 'sendChatAction':
        if (!chatId) return fail(tgError(400, 'Bad Request: chat not found'));
        return record(true);
      case 'deleteMessage':
        if (!chatId || params.message_id === undefined) return fail(tgError(400, 'Bad Request: message to delete not found'));
        return record(true);
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendDocument':
      case 'sendVoice': {
        this.sendAttempts.push({ method, at: Date.now() });
        const failure = this.nextSendErrors.shift();
        if (failure) return fail(failure);
        if (!chatId) return fail(tgError(400, 'Bad Request: chat not found'));
        if (this.blockedChats.has(chatId)) return fail(TELEGRAM_ERRORS.blocked);
        if (method === 'sendMessage') {
          if (typeof params.text !== 'string' || !params.text) return fail(tgError(400, 'Bad Request: message text is empty'));
          if (params.text.length > TELEGRAM_TEXT_LIMIT) return fail(tgError(400, 'Bad Request: message is too long'));
          return record(this.message(chatId, { text: params.text }));
        }
        const field = { sendPhoto: 'photo', sendDocument: 'document', sendVoice: 'voice' }[method];
        if (file?.field !== field) return fail(tgError(400, `Bad Request: there is no ${field} in the request`));
        if (typeof params.caption === 'string' && params.caption.length > TELEGRAM_CAPTION_LIMIT) return fail(tgError(400, 'Bad Request: message caption is too long'));
        // The documented limits of the upload methods (descriptions ours: the documentation gives none).
        if (method === 'sendPhoto' && file.size > TELEGRAM_PHOTO_LIMIT) return fail(tgError(400, 'Bad Request: photo is too big'));
        if (method === 'sendVoice' && !TELEGRAM_VOICE_TYPES.includes(file.type.split(';')[0])) return fail(tgError(400, 'Bad Request: wrong voice file type'));
        return record(this.message(chatId, { [field]: { file_id: `sent-${randomBytes(6).toString('hex')}`, file_size: file.size }, ...(params.caption ? { caption: params.caption } : {}) }));
      }
      default:
        return fail(TELEGRAM_ERRORS.notFound);
    }
  }
}

let updateId = 700_000_000;
const messageIds = new Map<number, number>();

/** A `message` Update from a private chat, as Telegram posts it; `extra` adds text, photo, reply_to_message... */
export function messageUpdate(user: { id: number; first_name: string; last_name?: string; username?: string }, extra: Record<string, unknown>, key: 'message' | 'edited_message' = 'message') {
  const messageId = (messageIds.get(user.id) ?? 0) + 1;
  if (key === 'message') messageIds.set(user.id, messageId);
  return {
    update_id: ++updateId,
    [key]: {
      message_id: typeof extra.message_id === 'number' ? extra.message_id : messageId,
      from: { id: user.id, is_bot: false, first_name: user.first_name, ...(user.last_name ? { last_name: user.last_name } : {}), ...(user.username ? { username: user.username } : {}), language_code: 'pt-br' },
      chat: { id: user.id, type: 'private', first_name: user.first_name, ...(user.last_name ? { last_name: user.last_name } : {}), ...(user.username ? { username: user.username } : {}) },
      date: Math.floor(Date.now() / 1000) - 1,
      ...extra,
    },
  };
}

/** POSTs an Update the way Telegram does: JSON with X-Telegram-Bot-Api-Secret-Token (null: without it). */
export function postUpdate(url: string, update: unknown, secretToken: string | null): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secretToken !== null ? { 'x-telegram-bot-api-secret-token': secretToken } : {}) },
    body: JSON.stringify(update),
  });
}
