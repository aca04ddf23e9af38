import { z } from 'zod';
import { ANNUAL_MONTHS, MAX_UNITS, PURCHASABLE_LICENSES } from './plans';
import { QUOTE_MESSAGES } from './pricing';
import { DOCUMENT_MESSAGES, documentDigits, documentProblem } from './document';

/**
 * The bodies of the billing calls (docs/billing-api.md), shared with the change-plan and subscribe forms
 * (ui/src/settings/billing/). Shapes only: what depends on the workspace (usage, the plan in force, the
 * coupon's rules) is checked by quote() and the commands, every failing field at once.
 */

const units = z
  .number({ error: QUOTE_MESSAGES.units })
  .int(QUOTE_MESSAGES.units)
  .min(0, QUOTE_MESSAGES.units)
  .max(MAX_UNITS, QUOTE_MESSAGES.units);

export const PAYMENT_METHOD_MESSAGE = 'Escolha a forma de pagamento: Pix ou Boleto.';

/** POST /payment/quote: the totals wanted (the plan's included units counted in), the billing and a coupon code. */
export const QuoteSchema = z
  .object({
    license: z.enum(PURCHASABLE_LICENSES, { error: QUOTE_MESSAGES.license }),
    agents: units,
    whatsapp: units,
    instagram: units,
    campaign: units,
    months: z.union([z.literal(1), z.literal(ANNUAL_MONTHS)], { error: QUOTE_MESSAGES.months }),
    // An empty field means no coupon.
    coupon: z
      .string({ error: 'Cupom inválido.' })
      .trim()
      .max(40, 'Cupom inválido.')
      .nullish()
      .transform((code) => code || undefined),
  })
  .strict();
export type QuoteReq = z.output<typeof QuoteSchema>;

const method = z.enum(['pix', 'boleto'], { error: PAYMENT_METHOD_MESSAGE });

/** The payer's CPF or CNPJ as typed; kept as digits. */
const document = z
  .string({ error: DOCUMENT_MESSAGES.required })
  .max(32, DOCUMENT_MESSAGES.length)
  .superRefine((value, ctx) => {
    const problem = documentProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(documentDigits);

/** POST /payment/subscribe: the quote's fields, how to pay, and the payer's CPF/CNPJ (required by the first subscription). */
export const SubscribeSchema = QuoteSchema.extend({ method, document: document.optional() }).strict();
export type SubscribeReq = z.output<typeof SubscribeSchema>;

/** POST /payment/{subscriptionId}/change: as subscribe; the payer is the one already on file (a new document replaces it). */
export const ChangePlanSchema = SubscribeSchema;
export type ChangePlanReq = SubscribeReq;
