import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { parseListQuery, writeList } from '../http/listQuery';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { authorize } from '../policy/policy';
import { cancelSubscription } from './cancelSubscription';
import { changePlan } from './changePlan';
import { verifyCoupon } from './coupons';
import { CouponVerifyQuerySchema } from './couponsSchema';
import { invoiceDetail, INVOICE_NOT_FOUND, listInvoices } from './invoices';
import { loadUsage } from './limits';
import { ANNUAL_MONTHS, EXTRA_PRICES, PLANS, PURCHASABLE_LICENSES } from './plans';
import { presentSubscription } from './presenters';
import { paymentProvider } from './providers';
import { openInvoice, workspaceSubscription } from './queries';
import { quoteOrder } from './quoteOrder';
import { ChangePlanSchema, QuoteSchema, SubscribeSchema } from './schema';
import { placeOrder } from './subscribe';

/** Guessing codes is slowed down per workspace: a person mistypes a few, a script would try thousands. */
const VERIFY_LIMIT = { limit: 30, windowMs: 10 * 60_000 };
/** SPEC §9: the invoices table fetches 999 at once. */
const INVOICE_PAGE = 999;

/** json-server's `_start`/`_end` (docs/billing-api.md) as the list parser's `range`. */
function startEndAsRange(ctx: Context): boolean {
  const { _start: start, _end: end } = ctx.query;
  if (start === undefined && end === undefined) return false;
  const from = Number(start ?? 0);
  const to = Number(end ?? from + INVOICE_PAGE);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from) throw errors.field('_end', 'Intervalo inválido.');
  const { _start: _s, _end: _e, ...rest } = ctx.query;
  ctx.query = { ...rest, range: JSON.stringify([from, to - 1]) };
  return true;
}

/**
 * Billing calls under /api/payment (SPEC §7, docs/billing-api.md, docs/billing.md). Reading the subscription,
 * its usage and the invoices is level 6+ (the user menu's 'Assinatura'); changing anything is level 9+ (the
 * settings tab; SPEC §6 keeps both readings). Every row is looked up inside the caller's workspace.
 */
export function billingRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/payment/plans', auth, (ctx) => {
    authorize(actorOf(ctx), 'billing.view');
    ctx.body = {
      data: {
        plans: PURCHASABLE_LICENSES.map((license) => ({ license, name: PLANS[license].name, price: PLANS[license].monthlyPrice, included: PLANS[license].included })),
        extras: EXTRA_PRICES,
        annualMonths: ANNUAL_MONTHS,
        testMode: paymentProvider(deps).testMode,
        contact: { phones: deps.config.supportPhones, email: deps.config.supportEmail },
      },
    };
  });

  router.get('/payment/subscription', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.view');
    const [sub, usage, open] = await Promise.all([
      workspaceSubscription(deps.knex, actor.workspaceId),
      loadUsage(deps.knex, actor.workspaceId),
      openInvoice(deps.knex, actor.workspaceId),
    ]);
    ctx.body = {
      data: {
        subscription: sub ? presentSubscription(sub) : null,
        usage,
        openInvoice: open ? { id: open.invoice.id, transactionId: open.transaction?.id ?? null, amount: open.invoice.amount, dueAt: open.invoice.dueAt ? new Date(open.invoice.dueAt).toISOString() : null } : null,
        testMode: paymentProvider(deps).testMode,
      },
    };
  });

  router.post('/payment/quote', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    ctx.body = { data: await quoteOrder(deps.knex, actor.workspaceId, parseBody(ctx, QuoteSchema)) };
  });

  router.post('/payment/subscribe', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    const { invoiceId, transactionId } = await placeOrder(deps, actor, parseBody(ctx, SubscribeSchema));
    ctx.status = 201;
    ctx.body = { data: { invoiceId, transactionId } };
  });

  router.post('/payment/:subscriptionId/change', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    const subscriptionId = parseId(ctx.params.subscriptionId);
    ctx.body = { data: await changePlan(deps, actor, subscriptionId, parseBody(ctx, ChangePlanSchema)) };
  });

  router.delete('/payment/:subscriptionId', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    ctx.body = { data: presentSubscription(await cancelSubscription(deps, actor, parseId(ctx.params.subscriptionId))) };
  });

  router.get('/payment/invoices', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.view');
    const startEnd = startEndAsRange(ctx);
    const q = parseListQuery(ctx, { sortable: ['createdAt'], defaultSort: { field: 'createdAt', order: 'desc' }, defaultLimit: INVOICE_PAGE, maxLimit: INVOICE_PAGE });
    const result = await listInvoices(deps.knex, actor.workspaceId, q);
    writeList(ctx, 'invoices', q, result);
    if (startEnd) {
      ctx.set('X-Total-Count', String(result.totalCount));
      ctx.set('Access-Control-Expose-Headers', 'Content-Range, X-Total-Count');
    }
  });

  router.get('/payment/invoices/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.view');
    ctx.body = { data: await invoiceDetail(deps.knex, actor.workspaceId, parseId(ctx.params.id), paymentProvider(deps).testMode) };
  });

  /** 'Simular pagamento' (test mode only): the same path as the provider's webhook (webhookEvents.ts). */
  router.post('/payment/invoices/:id/transactions/:transactionId/simulate', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    const invoiceId = parseId(ctx.params.id);
    const transactionId = parseId(ctx.params.transactionId);
    const tx: { providerReference: string | null } | undefined = await deps
      .knex('invoiceTransactions')
      .where({ id: transactionId, invoiceId, workspaceId: actor.workspaceId })
      .first('providerReference');
    const provider = paymentProvider(deps);
    if (!tx || !provider.simulatePayment) throw errors.notFound(INVOICE_NOT_FOUND);
    if (!tx.providerReference) throw errors.conflict('Esta cobrança não chegou a ser criada: gere um novo pagamento em Assinatura.');
    await provider.simulatePayment(tx.providerReference);
    const after: { status: string } = await deps.knex('invoiceTransactions').where({ id: transactionId, workspaceId: actor.workspaceId }).first('status');
    ctx.body = { data: { invoiceId, transactionId, status: after.status } };
  });

  /** The coupon this workspace may use: {code, percent, charges, billing}, or a pt-BR ValidationError on `code`. */
  router.get('/payment/cupom/verify', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    const query = parseQuery(ctx, CouponVerifyQuerySchema);
    // Only refusals count: a code that works gives its attempt back.
    const giveBack = await deps.rateLimiter.hit(`coupon-verify:${actor.workspaceId}`, VERIFY_LIMIT.limit, VERIFY_LIMIT.windowMs);
    const coupon = await verifyCoupon(deps.knex, { workspaceId: actor.workspaceId, code: query.code, months: query.months });
    await giveBack();
    ctx.body = { data: { code: coupon.code, percent: coupon.percent, charges: coupon.charges, billing: coupon.billing } };
  });

  return router;
}
