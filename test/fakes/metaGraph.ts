import type http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { LoopbackFake } from './loopbackFake';

/**
 * A loopback stand-in for Meta's Graph API as the WhatsApp Cloud API docs describe it (not as our code
 * calls it): `POST /{phone-number-id}/messages` answers `{messaging_product, contacts:[{input, wa_id}],
 * messages:[{id: 'wamid…'}]}`; `POST /{phone-number-id}/media` answers `{id}`; `GET /{media-id}` answers
 * `{messaging_product, url, mime_type, sha256, file_size, id}` and the URL serves the bytes to a bearer of
 * the token; errors use Graph's body `{error: {message, type, code, error_data: {messaging_product,
 * details}, fbtrace_id}}` (190 expired token → 401, 130429 rate limit, 131047 re-engagement → 400).
 * It can also post webhooks signed with X-Hub-Signature-256 the way Meta does.
 * `GET /{waba-id}/message_templates` (Business Management API) answers `{data: [{id, name, language, status,
 * category, parameter_format, components}], paging: {cursors: {before, after}, next?}}`, `status` filtering
 * and `limit`/`after` paging as Meta's cursor-based pagination does (`next` only while more remain).
 * A template with an IMAGE/VIDEO/DOCUMENT header is sent with `components: [{type: 'header', parameters:
 * [{type: 'image', image: {id | link}}]}, ...]` (Meta's "Send media-based message template").
 */
export interface SentMessage {
  phoneNumberId: string;
  body: Record<string, unknown>;
  id: string;
}

interface Media {
  bytes: Buffer;
  mime: string;
  /** What GET /{media-id} announces (Meta reports file_size before the download). */
  fileSize: number;
}

export function graphError(code: number, message: string, details = message, type = 'OAuthException') {
  return { error: { message, type, code, error_data: { messaging_product: 'whatsapp', details }, fbtrace_id: randomBytes(8).toString('base64url') } };
}

export const GRAPH_ERRORS = {
  expiredToken: { status: 401, body: graphError(190, 'Error validating access token: Session has expired.', 'Access token has expired') },
  rateLimit: { status: 400, body: graphError(130429, '(#130429) Rate limit hit', 'Message failed to send because there were too many messages sent from this phone number in a short period of time') },
  reEngagement: { status: 400, body: graphError(131047, 'Re-engagement message', 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.') },
  serviceUnavailable: { status: 503, body: graphError(131016, 'Service unavailable', 'A service is temporarily unavailable.') },
};

/** A template as Meta stores it (the Business Management API's fields). */
export interface GraphTemplateRecord {
  id?: string;
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  parameter_format?: 'POSITIONAL' | 'NAMED';
  components: Record<string, unknown>[];
}

export class MetaGraphFake extends LoopbackFake {
  readonly sent: SentMessage[] = [];
  /** Read receipts the line sent (`status: read`), with the typing indicator's type when one was asked. */
  readonly reads: { phoneNumberId: string; messageId: string; typingIndicator: string | null }[] = [];
  /** Templates by WhatsApp Business account id. */
  readonly templates = new Map<string, GraphTemplateRecord[]>();
  /** The query strings of every template listing, to check paging and filters. */
  readonly templateQueries: URLSearchParams[] = [];
  readonly uploads: { phoneNumberId: string; mime: string; size: number; id: string }[] = [];
  private readonly media = new Map<string, Media>();
  private readonly tokens = new Set<string>();
  /** Answers for the next sends, in order (e.g. one transient failure before success); `null` lets that send through. */
  readonly nextSendErrors: ({ status: number; body: unknown } | null)[] = [];

  allowToken(token: string): void {
    this.tokens.add(token);
  }

  revokeToken(token: string): void {
    this.tokens.delete(token);
  }

  addMedia(bytes: Buffer, mime: string, announcedSize = bytes.length): string {
    const id = String(10 ** 15 + Math.floor(Math.random() * 10 ** 14));
    this.media.set(id, { bytes, mime, fileSize: announcedSize });
    return id;
  }

  /**
   * Meta's refusals of a template send: unknown name/language (132001), wrong parameter count (132000), a
   * media header without its media parameter or with another type (132012), an unknown media id (131053).
   */
  private templateRefusal(template: Record<string, unknown> | undefined) {
    const language = (template?.language as { code?: string } | undefined)?.code;
    const stored = [...this.templates.values()].flat().find((t) => t.name === template?.name && t.language === language && t.status === 'APPROVED');
    if (!stored) return graphError(132001, '(#132001) Template name does not exist in the translation', `template name (${String(template?.name)}) does not exist in ${String(language)}`, 'OAuthException');
    const components = (template?.components as { type?: string; parameters?: unknown[] }[] | undefined) ?? [];
    // A media header (IMAGE, VIDEO, DOCUMENT) takes one parameter of that type whose object has `id` (an
    // uploaded media) or `link`, not both; `filename` only for a document (Meta's "Send media-based message
    // template" and its media object).
    const storedHeader = stored.components.find((c) => String(c.type).toLowerCase() === 'header');
    const mediaFormat = ['IMAGE', 'VIDEO', 'DOCUMENT'].find((f) => f === String(storedHeader?.format ?? '').toUpperCase());
    if (mediaFormat) {
      const kind = mediaFormat.toLowerCase();
      const params = components.find((c) => c.type === 'header')?.parameters ?? [];
      const param = params[0] as Record<string, unknown> | undefined;
      const media = param?.[kind] as Record<string, unknown> | undefined;
      const mismatch = () => graphError(132012, '(#132012) Parameter format does not match format in the created template', `header: Format mismatch, expected ${mediaFormat}`);
      if (params.length !== 1 || param?.type !== kind || !media || typeof media !== 'object') return mismatch();
      const hasId = typeof media.id === 'string';
      const hasLink = typeof media.link === 'string';
      if (hasId === hasLink) return graphError(100, '(#100) Invalid parameter', `header: ${kind} needs exactly one of id or link`);
      if (hasId && !this.media.has(media.id as string)) return graphError(131053, '(#131053) Media upload error', `header: media id ${String(media.id)} not found`);
      if (hasLink && !/^https?:\/\//.test(media.link as string)) return graphError(100, '(#100) Invalid parameter', `header: ${kind}.link must be an http(s) URL`);
      if (media.filename !== undefined && kind !== 'document') return graphError(100, '(#100) Invalid parameter', `header: filename is only for documents`);
      const unknown = Object.keys(media).filter((k) => !['id', 'link', 'filename', 'caption'].includes(k));
      if (unknown.length) return graphError(100, '(#100) Invalid parameter', `header: unexpected ${unknown.join(', ')}`);
    }
    for (const part of mediaFormat ? ['body'] : ['header', 'body']) {
      const text = (stored.components.find((c) => String(c.type).toLowerCase() === part)?.text as string | undefined) ?? '';
      const expected = new Set([...text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1])).size;
      const given = components.find((c) => c.type === part)?.parameters?.length ?? 0;
      if (expected !== given) return graphError(132000, '(#132000) Number of parameters does not match the expected number of params', `${part}: number of localizable_params (${given}) does not match the expected number of params (${expected})`);
    }
    return undefined;
  }

  private authorized(req: http.IncomingMessage): boolean {
    const auth = req.headers.authorization ?? '';
    return auth.startsWith('Bearer ') && this.tokens.has(auth.slice(7));
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!this.authorized(req)) return json(GRAPH_ERRORS.expiredToken.status, GRAPH_ERRORS.expiredToken.body);
    const path = new URL(req.url ?? '/', 'http://x').pathname.split('/').filter(Boolean);

    if (req.method === 'POST' && path.length === 2 && path[1] === 'messages') {
      const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      const failure = this.nextSendErrors.shift();
      if (failure) return json(failure.status, failure.body);
      // Mark as read, optionally with a typing indicator (Meta's "Typing indicators" page): answers {success: true}.
      if (body.messaging_product === 'whatsapp' && body.status === 'read') {
        if (typeof body.message_id !== 'string') return json(400, graphError(100, '(#100) Invalid parameter', 'Parameter message_id is missing'));
        this.reads.push({ phoneNumberId: path[0], messageId: body.message_id, typingIndicator: (body.typing_indicator as { type?: string } | undefined)?.type ?? null });
        return json(200, { success: true });
      }
      if (body.messaging_product !== 'whatsapp' || typeof body.to !== 'string' || typeof body.type !== 'string') {
        return json(400, graphError(100, '(#100) Invalid parameter', 'Parameter messaging_product, to or type is missing'));
      }
      if (body.type === 'template') {
        const refused = this.templateRefusal(body.template as Record<string, unknown> | undefined);
        if (refused) return json(400, refused);
      }
      const id = `wamid.${randomBytes(18).toString('base64url')}`;
      this.sent.push({ phoneNumberId: path[0], body, id });
      return json(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] });
    }
    if (req.method === 'POST' && path.length === 2 && path[1] === 'media') {
      const type = /name="type"\r\n\r\n([^\r]+)/.exec(raw.toString('latin1'))?.[1] ?? 'application/octet-stream';
      const id = this.addMedia(raw, type);
      this.uploads.push({ phoneNumberId: path[0], mime: type, size: raw.length, id });
      return json(200, { id });
    }
    if (req.method === 'GET' && path.length === 2 && path[1] === 'message_templates') {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      this.templateQueries.push(query);
      const status = query.get('status');
      const all = (this.templates.get(path[0]) ?? []).map((t, i) => ({ id: t.id ?? String(5e14 + i), parameter_format: 'POSITIONAL', ...t })).filter((t) => !status || t.status === status);
      const limit = Math.min(Number(query.get('limit') ?? 25) || 25, 1000);
      const start = query.get('after') ? Number(Buffer.from(query.get('after')!, 'base64url').toString()) : 0;
      const page = all.slice(start, start + limit);
      const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
      const more = start + limit < all.length;
      return json(200, {
        data: page,
        paging: { cursors: { before: cursor(start), after: cursor(start + page.length) }, ...(more ? { next: `${this.url}/${path[0]}/message_templates?limit=${limit}&after=${cursor(start + page.length)}` } : {}) },
      });
    }
    if (req.method === 'GET' && path.length === 1) {
      const m = this.media.get(path[0]);
      if (!m) return json(400, graphError(100, '(#100) Invalid parameter', 'Media not found'));
      return json(200, {
        messaging_product: 'whatsapp',
        url: `${this.url}/download/${path[0]}`,
        mime_type: m.mime,
        sha256: createHash('sha256').update(m.bytes).digest('hex'),
        file_size: m.fileSize,
        id: path[0],
      });
    }
    if (req.method === 'GET' && path.length === 2 && path[0] === 'download') {
      const m = this.media.get(path[1]);
      if (!m) return json(404, graphError(100, 'Not found'));
      res.writeHead(200, { 'content-type': m.mime, 'content-length': String(m.bytes.length) });
      res.end(m.bytes);
      return;
    }
    json(400, graphError(100, '(#100) Unknown path'));
  }
}

/** The envelope of every `messages`-field webhook: one entry, one change, the line's metadata, then `fields`. */
function webhookEnvelope<F extends Record<string, unknown>>(line: { phoneNumberId: string; businessAccountId: string; displayPhone?: string }, fields: F) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: line.businessAccountId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: line.displayPhone ?? '5511912345678', phone_number_id: line.phoneNumberId },
              ...fields,
            },
          },
        ],
      },
    ],
  };
}

/** A `messages` webhook as Meta posts it: one entry, one change, `value.messages` (and contacts). */
export function messagesWebhook(line: { phoneNumberId: string; businessAccountId: string; displayPhone?: string }, from: { waId: string; name: string }, messages: Record<string, unknown>[]) {
  return webhookEnvelope(line, {
    contacts: [{ profile: { name: from.name }, wa_id: from.waId }],
    messages: messages.map((m) => ({ from: from.waId, id: `wamid.${randomBytes(18).toString('base64url')}`, timestamp: String(Math.floor(Date.now() / 1000)), ...m })),
  });
}

/** A `statuses` webhook: sent, delivered, read, or failed with Meta's error object. */
export function statusWebhook(line: { phoneNumberId: string; businessAccountId: string }, recipient: string, statuses: { id: string; status: string; errors?: unknown[] }[]) {
  return webhookEnvelope(
    { phoneNumberId: line.phoneNumberId, businessAccountId: line.businessAccountId },
    { statuses: statuses.map((s) => ({ timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: recipient, ...s })) },
  );
}

export { hubSignature as signBody, postSignedWebhook as postWebhook } from './metaWebhook';
