import type { Charge, ChargeRequest, ChargeState, ChargeStatus, PaymentData, PaymentProvider } from '../provider';
import { PaymentProviderError, providerErrors } from './errors';
import { qrPngBase64 } from './qrPng';

/**
 * Asaas, from its public v3 documentation (docs.asaas.com): every call carries the account's API key in the
 * `access_token` header and a `User-Agent` (required of accounts created since 2024-06-13); GET calls go
 * without a body (Asaas answers 403 to one). Customers `POST /customers`; payments `POST /payments` with
 * `billingType` PIX or BOLETO and `value` in reais; the Pix copy-and-paste code at
 * `GET /payments/{id}/pixQrCode` (`encodedImage`, `payload`, `expirationDate`), the boleto's line at
 * `GET /payments/{id}/identificationField` (`identificationField`, `nossoNumero`, `barCode`); `GET` and
 * `DELETE /payments/{id}`. A 400 carries `{errors: [{code, description}]}` (descriptions in Portuguese).
 * Dates are Brasília time (`YYYY-MM-DD`, `YYYY-MM-DD HH:mm:ss`).
 */
const TIMEOUT_MS = 15_000;
const NAME = 'Asaas';

export interface AsaasOptions {
  /** ASAAS_API_URL, e.g. https://api.asaas.com/v3 (no trailing slash). */
  apiUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs?: number;
}

/** The fields of an Asaas payment object we read (the webhook's `payment` is the same object). */
export interface AsaasPayment {
  id: string;
  customer: string;
  value: number;
  status: string;
  billingType: string;
  dueDate: string;
  deleted?: boolean;
  externalReference?: string | null;
  paymentDate?: string | null;
  clientPaymentDate?: string | null;
  confirmedDate?: string | null;
  bankSlipUrl?: string | null;
}

interface AsaasList<T> {
  data: T[];
}

/** Asaas's payment status as ours. Refund and chargeback requests leave a payment paid until Asaas says REFUNDED. */
export function asaasChargeStatus(payment: Pick<AsaasPayment, 'status' | 'deleted'>): ChargeStatus {
  if (payment.deleted) return 'deleted';
  switch (payment.status) {
    case 'RECEIVED':
    case 'CONFIRMED':
    case 'RECEIVED_IN_CASH':
    case 'DUNNING_RECEIVED':
    case 'REFUND_REQUESTED':
    case 'REFUND_IN_PROGRESS':
    case 'CHARGEBACK_REQUESTED':
    case 'CHARGEBACK_DISPUTE':
    case 'AWAITING_CHARGEBACK_REVERSAL':
      return 'paid';
    case 'OVERDUE':
    case 'DUNNING_REQUESTED':
      return 'overdue';
    case 'REFUNDED':
      return 'refunded';
    default:
      return 'pending';
  }
}

/** An Asaas date or date-time (Brasília time) as ISO; a bare date reads as midday, the same day in every Brazilian zone. */
export function asaasTime(value: string, bareDateTime = '12:00:00'): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2}))?$/.exec(value);
  const t = m ? Date.parse(`${m[1]}T${m[2] ?? bareDateTime}-03:00`) : Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

/** When the payer paid: the client's payment date, else the date Asaas credited or confirmed it. */
export function asaasPaidAt(payment: Pick<AsaasPayment, 'clientPaymentDate' | 'paymentDate' | 'confirmedDate'>): string | null {
  const date = payment.clientPaymentDate ?? payment.paymentDate ?? payment.confirmedDate;
  return date ? asaasTime(date) : null;
}

const centavos = (reais: number) => Math.round(reais * 100);

/** Centavos as the reais Asaas reads, with two decimals ("449.00"). */
const reais = (amount: number) => `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

export class AsaasProvider implements PaymentProvider {
  readonly name = 'asaas' as const;
  readonly testMode = false;

  constructor(private readonly options: AsaasOptions) {}

  async createCharge(request: ChargeRequest): Promise<Charge> {
    const customer = request.providerCustomerId || (await this.createCustomer(request)).id;
    const billingType = request.method === 'pix' ? 'PIX' : 'BOLETO';
    const payment = (await this.pendingPaymentFor(request, customer, billingType)) ?? (await this.createPayment(request, customer, billingType));
    let data: PaymentData;
    if (request.method === 'pix') {
      const qr = await this.call<{ payload: string; expirationDate: string }>('GET', `/payments/${encodeURIComponent(payment.id)}/pixQrCode`);
      // The picture is drawn from the code we check, not taken from `encodedImage` (validateCharge.ts).
      data = { method: 'pix', brCode: qr.payload, qrPngBase64: await qrPngBase64(qr.payload), expiresAt: asaasTime(qr.expirationDate, '23:59:59') ?? qr.expirationDate };
    } else {
      const field = await this.call<{ identificationField: string; nossoNumero: string; barCode: string }>('GET', `/payments/${encodeURIComponent(payment.id)}/identificationField`);
      data = {
        method: 'boleto',
        digitableLine: String(field.identificationField ?? '').replace(/\D/g, ''),
        barcode: String(field.barCode ?? '').replace(/\D/g, ''),
        dueDate: payment.dueDate,
        slipUrl: payment.bankSlipUrl ?? null,
      };
    }
    return { providerReference: payment.id, providerCustomerId: customer, status: asaasChargeStatus(payment), amount: centavos(payment.value), payment: data };
  }

  async getCharge(providerReference: string): Promise<ChargeState> {
    const payment = await this.call<AsaasPayment>('GET', `/payments/${encodeURIComponent(providerReference)}`);
    const status = asaasChargeStatus(payment);
    return { status, paidAt: status === 'paid' || status === 'refunded' ? asaasPaidAt(payment) : null, amount: centavos(payment.value) };
  }

  async cancelCharge(providerReference: string): Promise<void> {
    try {
      await this.call('DELETE', `/payments/${encodeURIComponent(providerReference)}`);
    } catch (err) {
      // Already removed: what we wanted.
      if (err instanceof PaymentProviderError && err.status === 404) return;
      throw err;
    }
  }

  private createCustomer(request: ChargeRequest): Promise<{ id: string }> {
    const { payer } = request;
    return this.call('POST', '/customers', { name: payer.name, cpfCnpj: payer.document, email: payer.email, externalReference: `workspace:${payer.workspaceId}` });
  }

  /** A retried createCharge (an activity's retry) finds the payment its first try made instead of charging twice. */
  private async pendingPaymentFor(request: ChargeRequest, customer: string, billingType: string): Promise<AsaasPayment | undefined> {
    const query = new URLSearchParams({ customer, externalReference: request.orderNumber, billingType, status: 'PENDING' });
    const list = await this.call<AsaasList<AsaasPayment>>('GET', `/payments?${query}`);
    return (list.data ?? []).find((p) => !p.deleted && centavos(p.value) === request.amount && p.dueDate === request.dueDate);
  }

  private createPayment(request: ChargeRequest, customer: string, billingType: string): Promise<AsaasPayment> {
    const body = JSON.stringify({ customer, billingType, value: 0, dueDate: request.dueDate, description: request.description, externalReference: request.orderNumber });
    return this.call('POST', '/payments', body.replace('"value":0', `"value":${reais(request.amount)}`));
  }

  /** One call with its timeout; Asaas's refusals become PaymentProviderError (providers/errors.ts). */
  private async call<T>(method: string, path: string, body?: string | Record<string, unknown>): Promise<T> {
    const headers: Record<string, string> = { access_token: this.options.apiKey, 'User-Agent': this.options.userAgent, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.options.apiUrl}${path}`, {
        method,
        headers,
        body: typeof body === 'string' || body === undefined ? body : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS),
      });
    } catch (err) {
      throw providerErrors.unavailable(NAME, (err as Error).name || 'network');
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.ok) {
      if (parsed === undefined) throw providerErrors.unavailable(NAME, 'invalid_json');
      return parsed as T;
    }
    if (res.status === 400) {
      const errors = (parsed as { errors?: { code?: unknown; description?: unknown }[] } | undefined)?.errors;
      throw providerErrors.refused((Array.isArray(errors) ? errors : []).map((e) => ({ code: String(e?.code ?? ''), description: String(e?.description ?? '') })));
    }
    if (res.status === 401 || res.status === 403) throw providerErrors.misconfigured(NAME, res.status);
    if (res.status === 404) throw providerErrors.notFound(path);
    throw providerErrors.unavailable(NAME, `http_${res.status}`);
  }
}
