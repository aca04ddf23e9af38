import Router from '@koa/router';
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import type { ChannelRecord } from '../adapter';
import { CHANNEL_COLUMNS, channelRecordOf, hookChannel } from '../hookChannel';
import { validHubSignature } from '../hubSignature';
import { cloudLineOf, type CloudLine } from './cloudLine';
import { handleCloudWebhook } from './webhook';
import { parseCloudBody, phoneNumberIdsIn } from './webhookSchema';

interface CloudTarget {
  channel: ChannelRecord;
  line: CloudLine;
}

function asTarget(deps: AppDeps, row: Record<string, unknown> & { type: string; config: unknown }): CloudTarget | undefined {
  const channel = channelRecordOf(row);
  const line = cloudLineOf(deps.config, channel);
  return line ? { channel, line } : undefined;
}

function cloudChannel(deps: AppDeps, identifier: string): Promise<CloudTarget | undefined> {
  return hookChannel(deps, 'whatsapp', identifier, cloudLineOf);
}

/** The Cloud lines (of any workspace) of these phone number ids. */
async function cloudLinesOf(deps: AppDeps, phoneNumberIds: string[]): Promise<CloudTarget[]> {
  if (!phoneNumberIds.length) return [];
  const rows = await deps.knex('channels').where({ type: 'whatsapp' }).whereRaw("config ->> 'provider' = 'cloud'").whereRaw("config ->> 'phoneNumberId' = any(?)", [phoneNumberIds]).select(CHANNEL_COLUMNS);
  const targets: CloudTarget[] = [];
  for (const row of rows as (Record<string, unknown> & { id: number; type: string; config: unknown })[]) {
    try {
      const target = asTarget(deps, row);
      if (target) targets.push(target);
    } catch (err) {
      // Sealed with another CHANNEL_SECRETS_KEY: that line cannot verify anything, the others still can.
      deps.logger.error({ err, channelId: row.id }, 'whatsapp cloud line secrets not opened');
    }
  }
  return targets;
}

async function readRaw(ctx: Context): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: '3mb' });
  } catch {
    throw errors.badRequest('Corpo inválido.');
  }
}

function jsonOf(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A signed body, dispatched: each `messages` change goes to the line of its `phone_number_id` among the lines
 * whose app secret verifies the signature (`verified`); on a line's own hook that line (`own`) comes first and
 * also takes a change without metadata. The body is checked (webhookSchema.ts) once, only after a signature
 * held: malformed → 400; a malformed item inside → skipped.
 */
async function dispatch(deps: AppDeps, ctx: Context, json: unknown, verified: CloudTarget[], own?: CloudTarget): Promise<void> {
  const parsed = parseCloudBody(json);
  if (!parsed.ok) {
    deps.logger.warn({ issues: parsed.issues }, 'whatsapp cloud webhook: malformed body refused');
    throw errors.badRequest('Corpo do webhook inválido.');
  }
  if (own) await handleCloudWebhook(deps, own.channel, own.line, parsed.payload, { requirePhoneNumberId: false });
  for (const target of verified) await handleCloudWebhook(deps, target.channel, target.line, parsed.payload, { requirePhoneNumberId: true });
  ctx.body = { data: { received: true } };
}

/**
 * Meta's webhooks for Cloud lines (docs/channels/whatsapp.md). Meta has one callback URL per app (and one
 * per WhatsApp Business account, as an override), so one URL receives every line of that app:
 * - `/hooks/whatsapp` (app-level): GET answers the handshake for the verify token of any Cloud line; POST
 *   finds the lines the body names by `phone_number_id`, keeps those whose app secret verifies
 *   X-Hub-Signature-256 over the raw bytes (none → 401), and hands each change to its line.
 * - `/hooks/whatsapp/{identifier}` (one line, kept working): verified with that line's secret; changes for
 *   other lines of the same app (same secret) go to them too, and a change without metadata is this line's.
 * The JSON body parser skips /api/hooks/; the answer is 200 only after the events are stored, so Meta
 * redelivers what failed.
 */
export function whatsappHooksRouter(deps: AppDeps) {
  const router = new Router();
  router.get('/hooks/whatsapp', async (ctx) => {
    const q = ctx.query;
    const token = q['hub.verify_token'];
    if (q['hub.mode'] !== 'subscribe' || typeof token !== 'string' || token.length < 16 || token.length > 200) throw errors.forbidden('Token de verificação inválido.');
    const row = await deps.knex('channels').where({ type: 'whatsapp' }).whereRaw("config ->> 'provider' = 'cloud'").whereRaw("config ->> 'verifyToken' = ?", [token]).first('id');
    if (!row) throw errors.forbidden('Token de verificação inválido.');
    ctx.type = 'text/plain';
    ctx.body = String(q['hub.challenge'] ?? '');
  });

  router.post('/hooks/whatsapp', async (ctx) => {
    const raw = await readRaw(ctx);
    const signature = ctx.get('x-hub-signature-256') || undefined;
    const json = jsonOf(raw);
    const verified = (await cloudLinesOf(deps, phoneNumberIdsIn(json))).filter((t) => validHubSignature(raw, signature, t.line.appSecret));
    if (!verified.length) throw errors.authentication('Assinatura inválida.');
    await dispatch(deps, ctx, json, verified);
  });

  router.get('/hooks/whatsapp/:identifier', async (ctx) => {
    const found = await cloudChannel(deps, ctx.params.identifier);
    if (!found) throw errors.notFound();
    const q = ctx.query;
    if (q['hub.mode'] !== 'subscribe' || typeof q['hub.verify_token'] !== 'string' || q['hub.verify_token'] !== found.line.verifyToken) {
      throw errors.forbidden('Token de verificação inválido.');
    }
    ctx.type = 'text/plain';
    ctx.body = String(q['hub.challenge'] ?? '');
  });

  router.post('/hooks/whatsapp/:identifier', async (ctx) => {
    const found = await cloudChannel(deps, ctx.params.identifier);
    if (!found) throw errors.notFound();
    const raw = await readRaw(ctx);
    const signature = ctx.get('x-hub-signature-256') || undefined;
    if (!validHubSignature(raw, signature, found.line.appSecret)) throw errors.authentication('Assinatura inválida.');
    const json = jsonOf(raw);
    if (json === undefined) throw errors.badRequest('JSON inválido.');
    const others = (await cloudLinesOf(deps, phoneNumberIdsIn(json))).filter((t) => t.channel.id !== found.channel.id && validHubSignature(raw, signature, t.line.appSecret));
    await dispatch(deps, ctx, json, others, found);
  });
  return router;
}
