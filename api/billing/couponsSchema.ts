import { z } from 'zod';

/** GET /payment/cupom/verify?code=&months=: the code typed, and optionally the billing chosen (1 or 12). */
export const CouponVerifyQuerySchema = z.object({
  code: z.string().trim().min(1, 'Informe o código do cupom.').max(40, 'Cupom inválido.'),
  months: z.union([z.literal('1'), z.literal('12')], { error: 'Escolha a cobrança mensal (1) ou anual (12).' }).transform(Number).optional(),
});
export type CouponVerifyQuery = z.output<typeof CouponVerifyQuerySchema>;
