import Router from '@koa/router';
import getRawBody from 'raw-body';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../http/authenticate';
import { errors } from '../../http/errors';
import { parseBody } from '../../http/validate';
import { authorize } from '../../policy/policy';
import type { ChannelRecord, ChannelType } from '../adapter';
import { cloudLineOf } from './cloudLine';
import { createWhatsappChannel, presentWhatsappChannel } from './createWhatsappChannel';
import { startQrConnection } from './qr/startConnection';
import { WhatsappChannelSchema } from './schema';
import { handleCloudWebhook, validSignature, type CloudPayload } from './webhook';

/** POST /integrations/whatsapp: add a line (QR or Cloud API). */
export function whatsappIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/integrations/whatsapp', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, WhatsappChannelSchema);
    const channel = await createWhatsappChannel(deps, actor, input);
    // A QR line's connection workflow shows the QR; if Temporal is away, 'Reiniciar' starts it later.
    if (input.provider !== 'cloud') await startQrConnection(deps.temporal, { workspaceId: channel.workspaceId, channelId: channel.id }).catch((err: unknown) => deps.logger.error({ err, channelId: channel.id }, 'whatsapp connection workflow not started'));
    ctx.status = 201;
    ctx.body = { data: presentWhatsappChannel(channel, deps.config.publicUrl) };
  });
  return router;
}

async function cloudChannel(deps: AppDeps, identifier: string) {
  if (!/^[0-9a-f]{32}$/.test(identifier)) return undefined;
  const row = await deps.knex('channels').where({ identifier, type: 'whatsapp' }).first('id', 'workspace_id', 'type', 'platform_id', 'identifier', 'description', 'name', 'config');
  if (!row) return undefined;
  const channel: ChannelRecord = { ...row, type: row.type as ChannelType, config: row.config ?? {} };
  const line = cloudLineOf(deps.config, channel);
  return line ? { channel, line } : undefined;
}

/**
 * Meta's webhook for a Cloud line (docs/channels/whatsapp.md). GET is the verification handshake; POST is
 * verified with X-Hub-Signature-256 over the raw bytes before anything parses them (the JSON body parser
 * skips /api/hooks/), and answers 200 only after the events are stored, so Meta redelivers what failed.
 */
export function whatsappHooksRouter(deps: AppDeps) {
  const router = new Router();
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
    let raw: Buffer;
    try {
      raw = await getRawBody(ctx.req, { limit: '3mb' });
    } catch {
      throw errors.badRequest('Corpo inválido.');
    }
    if (!validSignature(raw, ctx.get('x-hub-signature-256') || undefined, found.line.appSecret)) throw errors.authentication('Assinatura inválida.');
    let payload: CloudPayload;
    try {
      payload = JSON.parse(raw.toString('utf8')) as CloudPayload;
    } catch {
      throw errors.badRequest('JSON inválido.');
    }
    await handleCloudWebhook(deps, found.channel, found.line, payload);
    ctx.body = { data: { received: true } };
  });
  return router;
}
