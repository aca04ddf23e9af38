import type { Logger } from '../../logger';
import type { BoletoPayment, Charge, ChargeRequest, PaymentProvider, PixPayment } from '../provider';
import { boletoProblem, dueDateFactor } from './boleto';
import { parseBrCode, PIX_GUI, type ParsedBrCode } from './brCode';
import { providerErrors } from './errors';

/**
 * What a provider returns is checked against our invoice before anyone sees it (issue 29): a Pix code with a
 * wrong CRC, a missing field or another amount, a boleto whose digits, barcode, amount or due date do not match,
 * is refused (pt-BR, providerErrors.rejectedCharge) and never shown. The reasons are pt-BR fragments.
 */

/** The BR Code's amount (ID 54) in centavos, or undefined when it is not a number with at most two decimals. */
function centavosOf(amount: string): number | undefined {
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(amount)) return undefined;
  const [reais, cents = ''] = amount.split('.');
  return Number(reais) * 100 + Number(cents.padEnd(2, '0'));
}

function pixFieldsProblem(code: ParsedBrCode, amount: number): string | undefined {
  const { fields, account, additional } = code;
  if (fields.get('00') !== '01') return 'o código Pix não começa pelo formato 01';
  if (account.get('00')?.toLowerCase() !== PIX_GUI) return 'o código Pix não é de uma conta Pix';
  const dynamic = Boolean(account.get('25'));
  if (!account.get('01') && !dynamic) return 'o código Pix não traz a chave do recebedor';
  if (!/^\d{4}$/.test(fields.get('52') ?? '')) return 'o código Pix não traz a categoria do recebedor';
  if (fields.get('53') !== '986') return 'o código Pix não é em reais';
  if (fields.get('58') !== 'BR') return 'o código Pix não é do Brasil';
  const name = fields.get('59') ?? '';
  const city = fields.get('60') ?? '';
  if (name.length < 1 || name.length > 25) return 'o código Pix não traz o nome do recebedor';
  if (city.length < 1 || city.length > 15) return 'o código Pix não traz a cidade do recebedor';
  const txid = additional.get('05') ?? '';
  if (!/^([A-Za-z0-9]{1,25}|\*\*\*)$/.test(txid)) return 'o código Pix não traz o identificador da cobrança';
  const written = fields.get('54');
  // A dynamic code's amount lives behind its URL; the provider's `value` (checked below) is then what we have.
  if (written === undefined) return dynamic ? undefined : 'o código Pix não traz o valor';
  if (centavosOf(written) !== amount) return 'o valor do código Pix não é o da fatura';
  return undefined;
}

function pixProblem(payment: PixPayment, request: ChargeRequest, now: Date): string | undefined {
  let parsed: ParsedBrCode;
  try {
    parsed = parseBrCode(payment.brCode);
  } catch {
    return 'o código Pix está malformado';
  }
  if (!parsed.crcOk) return 'o CRC do código Pix não confere';
  const fields = pixFieldsProblem(parsed, request.amount);
  if (fields) return fields;
  const expires = Date.parse(payment.expiresAt);
  if (!Number.isFinite(expires) || expires <= now.getTime()) return 'o código Pix já venceu';
  if (!payment.qrPngBase64) return 'o QR do código Pix está vazio';
  return undefined;
}

function boletoProblemFor(payment: BoletoPayment, request: ChargeRequest): string | undefined {
  const numbers = boletoProblem(payment.digitableLine, payment.barcode);
  if (numbers) return numbers;
  if (payment.barcode.slice(9, 19) !== String(request.amount).padStart(10, '0')) return 'o valor do boleto não é o da fatura';
  if (payment.dueDate !== request.dueDate || payment.barcode.slice(5, 9) !== dueDateFactor(request.dueDate)) return 'o vencimento do boleto não é o da fatura';
  return undefined;
}

/** Why `charge` cannot be shown for `request`, or undefined when it matches. */
export function chargeProblem(request: ChargeRequest, charge: Charge, now = new Date()): string | undefined {
  if (!charge.providerReference) return 'a cobrança não tem identificador';
  if (charge.amount !== request.amount) return 'o valor da cobrança não é o da fatura';
  if (charge.payment.method !== request.method) return 'a forma de pagamento não é a pedida';
  if (charge.status !== 'pending') return 'a cobrança nova não está pendente';
  return charge.payment.method === 'pix' ? pixProblem(charge.payment, request, now) : boletoProblemFor(charge.payment, request);
}

/** Throws the pt-BR refusal when `charge` does not match `request`. */
export function validateCharge(request: ChargeRequest, charge: Charge, now = new Date()): void {
  const problem = chargeProblem(request, charge, now);
  if (problem) throw providerErrors.rejectedCharge(problem);
}

/**
 * The provider billing uses (providers/index.ts): every charge created is validated before it is returned; a
 * refused one is cancelled at the provider (best effort), so nobody can pay what we never showed.
 */
export function withValidation(provider: PaymentProvider, logger: Pick<Logger, 'warn' | 'error'>): PaymentProvider {
  const simulate = provider.simulatePayment?.bind(provider);
  return {
    name: provider.name,
    testMode: provider.testMode,
    async createCharge(request: ChargeRequest): Promise<Charge> {
      const charge = await provider.createCharge(request);
      const problem = chargeProblem(request, charge);
      if (!problem) return charge;
      logger.error({ provider: provider.name, providerReference: charge.providerReference, orderNumber: request.orderNumber, problem }, 'payment provider returned a charge that does not match the invoice');
      await provider.cancelCharge(charge.providerReference).catch((err: unknown) => logger.warn({ err, providerReference: charge.providerReference }, 'refused charge not cancelled at the provider'));
      throw providerErrors.rejectedCharge(problem);
    },
    getCharge: (providerReference) => provider.getCharge(providerReference),
    cancelCharge: (providerReference) => provider.cancelCharge(providerReference),
    ...(simulate ? { simulatePayment: simulate } : {}),
  };
}
