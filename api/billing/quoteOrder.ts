import type { Knex } from 'knex';
import { AppError, type FieldError } from '../http/errors';
import { verifyCoupon } from './coupons';
import { loadUsage } from './limits';
import { presentQuote, presentRefusedQuote } from './presenters';
import { quote, validateQuote, type QuoteInput } from './pricing';
import type { QuoteReq } from './schema';
import { currentOf } from './subscribe';
import { workspaceSubscription } from './queries';

/**
 * POST /payment/quote: what the change-plan page shows live as choices change. Priced like the order would be
 * (the plan in force, the usage, the coupon verified but not used); a refusal answers `errors` by field, in
 * pt-BR, for the page to show beside each field, instead of failing the request.
 */
export async function quoteOrder(knex: Knex, workspaceId: number, input: QuoteReq, now = new Date()) {
  const fields: FieldError[] = [];
  let coupon = null;
  if (input.coupon) {
    try {
      coupon = await verifyCoupon(knex, { workspaceId, code: input.coupon, months: input.months, now });
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      fields.push(...err.entries.map((e) => ({ key: 'coupon', descriptions: e.descriptions })));
    }
  }
  const sub = await workspaceSubscription(knex, workspaceId, now);
  const quoteInput: QuoteInput = { ...input, coupon, current: sub ? currentOf(sub) : null, usage: await loadUsage(knex, workspaceId), today: now };
  for (const f of validateQuote(quoteInput)) if (!fields.some((g) => g.key === f.key)) fields.push(f);
  if (fields.length) return presentRefusedQuote(fields);
  return presentQuote(quote(quoteInput));
}
