import { AppError, type ErrorType } from '../../http/errors';

/**
 * Why a payment provider call failed, as billing and the payer see it (pt-BR, the error shape of DESIGN §3):
 * - `refused`: the provider refused what we sent (Asaas's `{errors: [{code, description}]}` of a 400, its
 *   descriptions already in Portuguese); 400 with the field it names when we know it (the payer's CPF/CNPJ...);
 * - `unavailable`: no answer in time, a network failure, a 429 or 5xx: `transient`, worth another try;
 * - `misconfigured`: the provider refused our credential (401/403): nothing a retry or the payer can fix;
 * - `notFound`: the provider does not know the payment;
 * - `rejectedCharge`: the provider answered, but what it returned does not match our invoice
 *   (validateCharge.ts): never shown.
 */
export class PaymentProviderError extends AppError {
  constructor(
    type: ErrorType,
    descriptions: string[],
    /** The provider's error codes (Asaas `invalid_cpfCnpj`...), for the logs and the tests. */
    readonly providerCodes: string[],
    /** A later try may work (timeouts, 429, 5xx). */
    readonly transient: boolean,
    key?: string,
  ) {
    super(type, [{ type, title: TITLES[type] ?? 'Erro no pagamento', ...(key ? { key } : {}), descriptions }]);
  }
}

const TITLES: Partial<Record<ErrorType, string>> = {
  ValidationError: 'Pagamento recusado',
  NotFoundError: 'Cobrança não encontrada',
  ServiceUnavailableError: 'Pagamento indisponível',
};

/** Provider error codes that name one of the payer's fields (Asaas's codes), by the field of our request. */
const FIELD_OF_CODE: Record<string, string> = {
  invalid_cpfCnpj: 'document',
  invalid_email: 'email',
  invalid_name: 'name',
  invalid_value: 'amount',
  invalid_dueDate: 'dueDate',
};

export const providerErrors = {
  refused(errors: { code: string; description: string }[]): PaymentProviderError {
    const codes = errors.map((e) => e.code);
    const descriptions = errors.map((e) => e.description).filter(Boolean);
    const key = codes.map((c) => FIELD_OF_CODE[c]).find(Boolean);
    return new PaymentProviderError('ValidationError', descriptions.length ? descriptions : ['O provedor de pagamentos recusou a cobrança.'], codes, false, key);
  },
  unavailable(provider: string, code: string): PaymentProviderError {
    return new PaymentProviderError('ServiceUnavailableError', [`Sem contato com o ${provider} agora. Tente novamente em instantes.`], [code], true);
  },
  misconfigured(provider: string, status: number): PaymentProviderError {
    return new PaymentProviderError('ServiceUnavailableError', [`O ${provider} recusou a credencial do Balcão. Avise o suporte: a cobrança não foi criada.`], [`http_${status}`], false);
  },
  notFound(providerReference: string): PaymentProviderError {
    return new PaymentProviderError('NotFoundError', ['Cobrança não encontrada no provedor de pagamentos.'], [`not_found:${providerReference}`], false);
  },
  rejectedCharge(reason: string): PaymentProviderError {
    return new PaymentProviderError('ServiceUnavailableError', [`A cobrança recebida do provedor de pagamentos não confere com a fatura (${reason}) e não foi exibida. Tente novamente.`], ['rejected_charge'], false);
  },
  /** The test mode refuses a simulation on a charge that cannot be paid any more. */
  notPayable(): PaymentProviderError {
    return new PaymentProviderError('ValidationError', ['Esta cobrança foi cancelada ou estornada e não pode ser paga.'], ['not_payable'], false);
  },
};
