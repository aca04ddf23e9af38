import type { Config } from '../../config';
import { ChannelSendError } from '../sendErrors';
import { MEDIA_LIMIT_BYTES, MediaTooLargeError, providerFetch, readCappedBody } from '../providerHttp';

export { MEDIA_LIMIT_BYTES, MediaTooLargeError };

/**
 * Meta's Graph API for WhatsApp Cloud lines, at META_GRAPH_URL (docs/channels/whatsapp.md). The base is
 * operator configuration, not user input, so it is called directly (tests point it at a loopback fake).
 * Errors follow Meta's shape `{error: {message, type, code, error_data: {details}, fbtrace_id}}` and are
 * mapped by `code` (Meta advises against relying on titles or HTTP statuses).
 */
export interface CloudCredentials {
  phoneNumberId: string;
  accessToken: string;
}

interface GraphError {
  message?: string;
  code?: number;
  error_data?: { details?: string };
}

const AUTH_CODES = new Set([0, 10, 190]);
const RATE_CODES = new Set([4, 80007, 130429, 131048, 131056]);
const TRANSIENT_CODES = new Set([1, 2, 131000, 131016]);

export function isAuthError(status: number, code: number | undefined): boolean {
  return status === 401 || (code !== undefined && (AUTH_CODES.has(code) || (code >= 200 && code <= 299)));
}

/** A Graph error answer as the delivery path's error: transient or not, disconnecting or not, in pt-BR. */
export function graphSendError(status: number, error: GraphError | undefined): ChannelSendError {
  const code = error?.code;
  const detail = error?.error_data?.details ?? error?.message ?? `HTTP ${status}`;
  if (isAuthError(status, code)) {
    return new ChannelSendError('O token de acesso da linha de WhatsApp expirou ou foi revogado. Atualize a linha.', { transient: false, disconnect: true, code: code ?? status });
  }
  if (code === 131047) return new ChannelSendError('Fora da janela de 24 horas: só é possível enviar um modelo de mensagem aprovado.', { transient: false, code });
  if (code === 131026) return new ChannelSendError('Este número não pode receber mensagens no WhatsApp.', { transient: false, code });
  if ((code !== undefined && RATE_CODES.has(code)) || status === 429) return new ChannelSendError('Limite de envio do WhatsApp atingido; nova tentativa em breve.', { transient: true, code: code ?? status });
  if ((code !== undefined && TRANSIENT_CODES.has(code)) || status >= 500) return new ChannelSendError('O WhatsApp está indisponível; nova tentativa em breve.', { transient: true, code: code ?? status });
  return new ChannelSendError(`O WhatsApp recusou a mensagem: ${detail}`, { transient: false, code: code ?? status });
}

const graphFetch = (url: string, init: RequestInit) => providerFetch('WhatsApp', url, init);

async function graphJson<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => undefined)) as (T & { error?: GraphError }) | undefined;
  if (!res.ok || !body || body.error) throw graphSendError(res.status, body?.error);
  return body;
}

/** POST {META_GRAPH_URL}/{phone-number-id}/messages; answers the `wamid` Meta gives the message. */
export async function sendGraphMessage(config: Pick<Config, 'metaGraphUrl'>, line: CloudCredentials, body: Record<string, unknown>): Promise<string> {
  const res = await graphFetch(`${config.metaGraphUrl}/${encodeURIComponent(line.phoneNumberId)}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${line.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...body }),
  });
  const json = await graphJson<{ messages?: { id?: string }[] }>(res);
  const id = json.messages?.[0]?.id;
  if (!id) throw new ChannelSendError('O WhatsApp não devolveu o id da mensagem.', { transient: true });
  return id;
}

/** POST {META_GRAPH_URL}/{phone-number-id}/media (multipart): the media id to send a file by. */
export async function uploadGraphMedia(config: Pick<Config, 'metaGraphUrl'>, line: CloudCredentials, file: { bytes: Buffer; mime: string; fileName: string }): Promise<string> {
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', file.mime);
  form.set('file', new Blob([file.bytes], { type: file.mime }), file.fileName);
  const res = await graphFetch(`${config.metaGraphUrl}/${encodeURIComponent(line.phoneNumberId)}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${line.accessToken}` },
    body: form,
  });
  const json = await graphJson<{ id?: string }>(res);
  if (!json.id) throw new ChannelSendError('O WhatsApp não devolveu o id da mídia.', { transient: true });
  return json.id;
}

export interface GraphMediaInfo {
  url: string;
  mime_type?: string;
  file_size?: number;
  sha256?: string;
}

/** GET {META_GRAPH_URL}/{media-id}: the short-lived download URL and the size Meta reports. */
export async function graphMediaInfo(config: Pick<Config, 'metaGraphUrl'>, accessToken: string, mediaId: string): Promise<GraphMediaInfo> {
  const res = await graphFetch(`${config.metaGraphUrl}/${encodeURIComponent(mediaId)}`, { headers: { authorization: `Bearer ${accessToken}` } });
  return graphJson<GraphMediaInfo>(res);
}

/** GET the media URL with the line's token, refusing more than `maxBytes` whatever Meta announced. */
export async function downloadGraphMedia(url: string, accessToken: string, maxBytes = MEDIA_LIMIT_BYTES): Promise<Buffer> {
  const res = await graphFetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
  if (!res.ok || !res.body) throw graphSendError(res.status, undefined);
  return readCappedBody(res.body, res.headers.get('content-length'), maxBytes);
}
