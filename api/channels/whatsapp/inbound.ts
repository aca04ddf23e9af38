import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import type { ChannelRecord } from '../adapter';
import { CHANNEL_COLUMNS, channelRecordOf, hookChannel } from '../hookChannel';
import { validHubSignature } from '../hubSignature';
import { storedConnection, type HookInbound, type InboundChannelDeps, type ParsedEvent } from '../inbound';
import { cloudLineOf, type CloudLine } from './cloudLine';
import { applyCloudEvent, parseCloudEvents, type CloudEvent } from './webhook';
import { parseCloudBody, phoneNumberIdsIn, type CloudPayload } from './webhookSchema';

interface CloudTarget {
  channel: ChannelRecord;
  line: CloudLine;
}

/** A verified Cloud body: the lines it goes to (the line of the hook first, which also takes a change without metadata). */
export interface CloudBody {
  body: CloudPayload;
  /** The id of the line whose own hook received it (`/api/hooks/whatsapp/{identifier}`), if any. */
  own?: number;
}

function targetOf(deps: Pick<AppDeps, 'config' | 'logger'>, row: Record<string, unknown> & { id: number; type: string; config: unknown }): CloudTarget | undefined {
  try {
    const channel = channelRecordOf(row);
    const line = cloudLineOf(deps.config, channel);
    return line ? { channel, line } : undefined;
  } catch (err) {
    // Sealed with another CHANNEL_SECRETS_KEY: that line cannot verify anything, the others still can.
    deps.logger.error({ err, channelId: row.id }, 'whatsapp cloud line secrets not opened');
    return undefined;
  }
}

const cloudRows = (deps: Pick<AppDeps, 'knex'>) => deps.knex('channels').where({ type: 'whatsapp' }).whereRaw("config ->> 'provider' = 'cloud'");

/** The Cloud lines (of any workspace) of these phone number ids. */
async function cloudLinesOf(deps: InboundChannelDeps, phoneNumberIds: string[]): Promise<CloudTarget[]> {
  if (!phoneNumberIds.length) return [];
  const rows = await cloudRows(deps).whereRaw("config ->> 'phoneNumberId' = any(?)", [phoneNumberIds]).select(CHANNEL_COLUMNS);
  return (rows as (Record<string, unknown> & { id: number; type: string; config: unknown })[]).map((row) => targetOf(deps, row)).filter((t): t is CloudTarget => !!t);
}

/** The Cloud lines of these ids, in this order (a body processed from the hook store). */
async function cloudLinesById(deps: InboundChannelDeps, ids: number[]): Promise<CloudTarget[]> {
  if (!ids.length) return [];
  const rows = (await cloudRows(deps).whereIn('id', ids).select(CHANNEL_COLUMNS)) as (Record<string, unknown> & { id: number; type: string; config: unknown })[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).flatMap((row) => (row ? [targetOf(deps, row)] : [])).filter((t): t is CloudTarget => !!t);
}

function jsonOf(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * WhatsApp Cloud's inbound half (docs/channels/whatsapp.md). Meta has one callback URL per app (and one per
 * WhatsApp Business account, as an override), so one URL receives every line of that app:
 * - `/api/hooks/whatsapp` (app-level): GET answers the handshake for the verify token of any Cloud line; POST
 *   finds the lines the body names by `phone_number_id`, keeps those whose app secret verifies
 *   X-Hub-Signature-256 over the raw bytes (none → 401);
 * - `/api/hooks/whatsapp/{identifier}` (one line, kept working): verified with that line's secret; changes
 *   for other lines of the same app (same secret) go to them too, and a change without metadata is this line's.
 * The body is checked (webhookSchema.ts) once, only after a signature held: malformed → 400; a malformed item
 * inside → skipped. A verified body is stored and answered (`stored`); its media is downloaded and its events
 * processed after the answer, and again by the sweep when that failed (a media download that failed transiently).
 */
export const whatsappInbound: HookInbound<CloudBody, CloudEvent> = {
  type: 'whatsapp',
  answer: 'stored',
  source: 'whatsapp',
  perChannel: true,
  storedAnswer: { data: { received: true } },

  async handshake(deps, request) {
    const q = request.query;
    const token = q['hub.verify_token'];
    if (request.identifier === undefined) {
      if (q['hub.mode'] !== 'subscribe' || typeof token !== 'string' || token.length < 16 || token.length > 200) throw errors.forbidden('Token de verificação inválido.');
      const row = await cloudRows(deps).whereRaw("config ->> 'verifyToken' = ?", [token]).first('id');
      if (!row) throw errors.forbidden('Token de verificação inválido.');
    } else {
      const found = await hookChannel(deps, 'whatsapp', request.identifier, cloudLineOf);
      if (!found) throw errors.notFound();
      if (q['hub.mode'] !== 'subscribe' || typeof token !== 'string' || token !== found.line.verifyToken) throw errors.forbidden('Token de verificação inválido.');
    }
    return String(q['hub.challenge'] ?? '');
  },

  async verify(deps, request) {
    const own = request.identifier === undefined ? undefined : await hookChannel(deps, 'whatsapp', request.identifier, cloudLineOf);
    if (request.identifier !== undefined && !own) throw errors.notFound();
    let raw: Buffer;
    try {
      raw = await request.rawBody('3mb');
    } catch {
      throw errors.badRequest('Corpo inválido.');
    }
    const signature = request.header('x-hub-signature-256');
    if (own && !validHubSignature(raw, signature, own.line.appSecret)) throw errors.authentication('Assinatura inválida.');
    const json = jsonOf(raw);
    if (own && json === undefined) throw errors.badRequest('JSON inválido.');
    const verified = (await cloudLinesOf(deps, phoneNumberIdsIn(json))).filter((t) => t.channel.id !== own?.channel.id && validHubSignature(raw, signature, t.line.appSecret));
    if (!own && !verified.length) throw errors.authentication('Assinatura inválida.');
    const parsed = parseCloudBody(json);
    if (!parsed.ok) {
      deps.logger.warn({ issues: parsed.issues }, 'whatsapp cloud webhook: malformed body refused');
      throw errors.badRequest('Corpo do webhook inválido.');
    }
    const targets = own ? [own, ...verified] : verified;
    return { channelIds: targets.map((t) => t.channel.id), payload: { body: parsed.payload, ...(own ? { own: own.channel.id } : {}) }, channels: targets };
  },

  async parse(deps, verified) {
    const targets = (verified.channels as CloudTarget[] | undefined) ?? (await cloudLinesById(deps, verified.channelIds));
    const { body, own } = verified.payload;
    const events: ParsedEvent<CloudEvent>[] = [];
    for (const t of targets) events.push(...parseCloudEvents(deps, t.channel, t.line, body, { requirePhoneNumberId: t.channel.id !== own }));
    return events;
  },

  async process(deps, verified) {
    for (const event of await this.parse(deps, verified)) await applyCloudEvent(deps, event);
  },

  status: storedConnection,
};
