import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseQuery } from '../http/validate';
import { authorize } from '../policy/policy';
import { verifyCoupon } from './coupons';
import { CouponVerifyQuerySchema } from './couponsSchema';

/** Guessing codes is slowed down per workspace: a person mistypes a few, a script would try thousands. */
const VERIFY_LIMIT = { limit: 30, windowMs: 10 * 60_000 };

/**
 * Billing calls under /api/payment (SPEC §7, docs/billing.md). Changing the subscription is level 9+ (the
 * settings tab; SPEC §6), and the coupon field belongs to that screen. The subscribe, change and cancel
 * calls join this router.
 */
export function billingRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  /** The coupon this workspace may use: {code, percent, charges, billing}, or a pt-BR ValidationError on `code`. */
  router.get('/payment/cupom/verify', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'billing.manage');
    const query = parseQuery(ctx, CouponVerifyQuerySchema);
    // Only refusals count: a code that works gives its attempt back.
    const giveBack = deps.rateLimiter.hit(`coupon-verify:${actor.workspaceId}`, VERIFY_LIMIT.limit, VERIFY_LIMIT.windowMs);
    const coupon = await verifyCoupon(deps.knex, { workspaceId: actor.workspaceId, code: query.code, months: query.months });
    giveBack();
    ctx.body = { data: { code: coupon.code, percent: coupon.percent, charges: coupon.charges, billing: coupon.billing } };
  });

  return router;
}
