import { createHash, timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { processStoredHook, registerHookProcessor, storeHook } from '../channels/hooks/store';
import type { VerifiedHook } from '../channels/inbound';
import type { ChargeStatus, PaymentEvent } from './provider';
import { asaasPaidAt, asaasTime } from './providers/asaas';
import { acceptPaymentEvent, type ReceivedPaymentEvent } from './webhookEvents';

/**
 * Asaas's payment webhook, `POST /api/hooks/asaas` (issue 29, docs/billing-providers.md), as Asaas documents it: a POST
 * of `{id, event, dateCreated, payment: {…the payment object}}` carrying the webhook's authentication token in
 * `asaas-access-token`; delivered at least once (dedupe by the event `id`); anything but a 200 counts as a
 * failure, and 15 failures in a row pause the account's queue. So: the token is checked (constant time, 401
 * otherwise, nothing read further), the five events billing follows are stored in the hook store (one insert,
 * source 'asaas') and answered 200 at once, then applied after the answer — or by the store's sweep when that
 * failed — through acceptPaymentEvent (webhookEvents.ts). Other events are answered 200 and ignored.
 * The api's JSON parser skips /api/hooks/, so the body is read here, raw.
 */

export const ASAAS_EVENTS: Record<string, ChargeStatus> = {
  PAYMENT_CONFIRMED: 'paid',
  PAYMENT_RECEIVED: 'paid',
  PAYMENT_OVERDUE: 'overdue',
  PAYMENT_REFUNDED: 'refunded',
  PAYMENT_DELETED: 'deleted',
};

const BODY_LIMIT = '256kb';

const AsaasHookSchema = z.object({
  id: z.string().min(1).max(200),
  event: z.string().min(1).max(100),
  dateCreated: z.string().max(40).nullish(),
  payment: z
    .object({
      id: z.string().min(1).max(120),
      paymentDate: z.string().max(40).nullish(),
      clientPaymentDate: z.string().max(40).nullish(),
      confirmedDate: z.string().max(40).nullish(),
    })
    .optional(),
});

/** What a stored row of source 'asaas' holds: the normalised event and, to look into later, Asaas's body. */
interface StoredAsaasEvent {
  type: string;
  event: PaymentEvent;
  body: unknown;
}

/** `asaas-access-token` equals ASAAS_WEBHOOK_TOKEN (both hashed, so the comparison is constant-time whatever their lengths); no token configured: nothing matches. */
export function asaasTokenMatches(header: string | undefined, configured: string | undefined): boolean {
  if (!header || !configured) return false;
  return timingSafeEqual(createHash('sha256').update(header).digest(), createHash('sha256').update(configured).digest());
}

async function readJson(ctx: Context): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: BODY_LIMIT });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw errors.payloadTooLarge('O corpo do webhook excede 256 KB.');
    throw errors.badRequest('Não foi possível ler o corpo do webhook.');
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw errors.badRequest('JSON inválido.');
  }
}

/** Verifies, stores and answers one delivery; the answer's JSON body (status 200). */
export async function receiveAsaasHook(deps: AppDeps, ctx: Context): Promise<Record<string, unknown>> {
  if (!asaasTokenMatches(ctx.get('asaas-access-token') || undefined, deps.config.asaasWebhookToken)) {
    throw errors.authentication('Token de autenticação do webhook inválido.');
  }
  const json = await readJson(ctx);
  const parsed = AsaasHookSchema.safeParse(json);
  if (!parsed.success) throw errors.badRequest('O corpo deve ser um evento do Asaas (id e event).');
  const hook = parsed.data;
  const status = ASAAS_EVENTS[hook.event];
  if (!status) return { data: { received: true, ignored: true } };
  if (!hook.payment) throw errors.badRequest('Evento de cobrança sem o objeto payment.');
  const paidAt = status === 'paid' || status === 'refunded' ? (asaasPaidAt(hook.payment) ?? (hook.dateCreated ? asaasTime(hook.dateCreated) : null)) : null;
  const stored: StoredAsaasEvent = { type: hook.event, event: { eventId: hook.id, providerReference: hook.payment.id, status, paidAt }, body: json };
  const verified: VerifiedHook = { channelIds: [], payload: stored };
  const id = await storeHook(deps, 'asaas', hook.event, verified);
  setImmediate(() => void processStoredHook(deps, id, { source: 'asaas', verified }));
  return { data: { received: true } };
}

registerHookProcessor('asaas', async (deps, verified) => {
  const stored = verified.payload as StoredAsaasEvent;
  const received: ReceivedPaymentEvent = { provider: 'asaas', type: stored.type, event: stored.event };
  await acceptPaymentEvent(deps, received);
});

/** Mounted before the channels' hooks router (api/app.ts): `asaas` is the payment provider, no channel type. */
export function asaasWebhookRouter(deps: AppDeps): Router {
  const router = new Router();
  router.post('/hooks/asaas', async (ctx) => {
    ctx.body = await receiveAsaasHook(deps, ctx);
  });
  return router;
}
