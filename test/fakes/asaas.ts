import type http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { LoopbackFake } from './loopbackFake';
import { pixCrc } from '../billing/decoders/pix';
import { fieldDigit, generalDigit } from '../billing/decoders/boleto';

/**
 * A loopback stand-in for the Asaas API v3 as its public documentation describes it (docs.asaas.com), not as
 * our code calls it. Base `${url}/v3`. Every call needs the account's key in the `access_token` header (401
 * otherwise); a GET with a body is refused with 403 ("You should not send any information in the body in GET
 * type calls"). Refusals are 400 `{errors: [{code, description}]}`; unknown objects 404.
 * - `POST /customers` {name, cpfCnpj, email, externalReference} → the customer (`cus_…`); the CPF/CNPJ is
 *   checked by its digits (`invalid_cpfCnpj`).
 * - `POST /payments` {customer, billingType: BOLETO | CREDIT_CARD | PIX | UNDEFINED, value (reais), dueDate
 *   (not before today: `invalid_dueDate`), description, externalReference} → the payment (`pay_…`, status
 *   PENDING, `bankSlipUrl` for a boleto); `GET /payments?customer&externalReference&billingType&status` → a list
 *   `{object: 'list', hasMore, totalCount, limit, offset, data}` (deleted ones left out).
 * - `GET /payments/{id}/pixQrCode` → {encodedImage (PNG base64), payload (a dynamic BR Code: the PSP's URL in
 *   26.25), expirationDate (12 months after the due date), success}; `GET /payments/{id}/identificationField`
 *   → {identificationField (the 47-digit line), nossoNumero, barCode (44 digits)}.
 * - `GET /payments/{id}` → the payment; `DELETE /payments/{id}` → {deleted: true, id}, only for PENDING or
 *   OVERDUE payments.
 * Webhooks: `POST` of `{id: 'evt_…', event, dateCreated, payment}` with the webhook's token in
 * `asaas-access-token`; delivered at least once, so the same event may come again (`deliver(…, {times})`).
 */

export interface FakeCustomer {
  object: 'customer';
  id: string;
  dateCreated: string;
  name: string;
  email: string | null;
  cpfCnpj: string;
  personType: 'FISICA' | 'JURIDICA';
  externalReference: string | null;
  deleted: boolean;
}

export interface FakePayment {
  object: 'payment';
  id: string;
  dateCreated: string;
  customer: string;
  dueDate: string;
  originalDueDate: string;
  value: number;
  netValue: number;
  description: string | null;
  externalReference: string | null;
  billingType: string;
  status: string;
  confirmedDate: string | null;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  invoiceUrl: string;
  invoiceNumber: string;
  bankSlipUrl: string | null;
  nossoNumero: string | null;
  deleted: boolean;
}

export interface AsaasCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The JSON text as sent (to see how `value` was written). */
  raw: string;
}

export interface AsaasWebhookBody {
  id: string;
  event: string;
  dateCreated: string;
  payment: FakePayment;
}

/** What a misbehaving provider could return, for the tests of our checks (validateCharge.ts). */
export interface AsaasTamper {
  pixPayload?: (payload: string) => string;
  identificationField?: (line: string) => string;
  barCode?: (barcode: string) => string;
  /** The `value` the payment answers with, in reais. */
  value?: (value: number) => number;
}

const err = (status: number, code: string, description: string) => ({ status, body: { errors: [{ code, description }] } });

function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
}

function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/** CPF (11) or CNPJ (14) with valid check digits, by the Receita Federal rule. */
export function validCpfCnpj(value: string): boolean {
  const d = [...value].map(Number);
  if (!/^(\d{11}|\d{14})$/.test(value) || new Set(value).size === 1) return false;
  const check = (len: number, weights: number[]) => {
    const sum = weights.reduce((s, w, i) => s + d[i] * w, 0);
    const r = sum % 11;
    return (len === 11 ? (r * 10) % 11 % 10 : r < 2 ? 0 : 11 - r) === d[weights.length];
  };
  if (value.length === 11) return check(11, [10, 9, 8, 7, 6, 5, 4, 3, 2]) && check(11, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return check(14, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) && check(14, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
}

function tlv(id: string, value: string): string {
  return id + String(value.length).padStart(2, '0') + value;
}

/** The due-date factor: days from 2025-02-22 (factor 1000) — the fake only issues boletos due after the restart. */
export function factorOf(date: string): string {
  const days = Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse('2025-02-22T00:00:00Z')) / 86_400_000);
  return String(1000 + (days % 9000));
}

/** A boleto's barcode and digitable line from its parts (bank, factor, centavos, 25-digit free field). */
export function boletoPair(bank: string, factor: string, amount: number, free: string): { barCode: string; line: string } {
  const rest = factor + String(amount).padStart(10, '0') + free;
  const barCode = `${bank}9${generalDigit(`${bank}9${rest}`)}${rest}`;
  const withDv = (f: string) => f + fieldDigit(f);
  const line = withDv(barCode.slice(0, 4) + free.slice(0, 5)) + withDv(free.slice(5, 15)) + withDv(free.slice(15, 25)) + barCode[4] + barCode.slice(5, 19);
  return { barCode, line };
}

export class AsaasFake extends LoopbackFake {
  readonly apiKey = `$aact_fake_${randomBytes(12).toString('hex')}`;
  readonly customers = new Map<string, FakeCustomer>();
  readonly payments = new Map<string, FakePayment>();
  readonly calls: AsaasCall[] = [];
  tamper: AsaasTamper = {};
  /** Dynamic codes may leave the amount to the URL's payload; Asaas's carry it here by default. */
  pixAmountInCode = true;
  /** Answers queued for the next calls matching `method path` (regex on the path after /v3), e.g. a 500 or a hang. */
  private readonly injected: { method: string; path: RegExp; status: number; body?: unknown; delayMs?: number }[] = [];
  private seq = 0;

  get baseUrl(): string {
    return `${this.url}/v3`;
  }

  /** The next call matching answers `status` with `body` (after `delayMs`: a hang beyond the client's timeout). */
  inject(method: string, path: RegExp, status: number, body?: unknown, delayMs?: number): void {
    this.injected.push({ method, path, status, body, delayMs });
  }

  reset(): void {
    this.tamper = {};
    this.pixAmountInCode = true;
    this.calls.length = 0;
    this.injected.length = 0;
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const text = raw.toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const path = url.pathname.replace(/^\/v3/, '');
    const method = req.method ?? 'GET';
    this.calls.push({ method, path, query: url.searchParams, headers: req.headers, body, raw: text });
    const answer = await this.route(method, path, url.searchParams, req.headers, body, raw.length);
    res.writeHead(answer.status, answer.body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  }

  private async route(method: string, path: string, query: URLSearchParams, headers: http.IncomingHttpHeaders, body: unknown, size: number): Promise<{ status: number; body?: unknown }> {
    const i = this.injected.findIndex((x) => x.method === method && x.path.test(path));
    if (i >= 0) {
      const [hit] = this.injected.splice(i, 1);
      if (hit.delayMs) await new Promise((r) => setTimeout(r, hit.delayMs));
      return { status: hit.status, body: hit.body };
    }
    if (method === 'GET' && size > 0) return { status: 403 };
    if (headers.access_token !== this.apiKey) return err(401, 'invalid_access_token', 'A chave de API fornecida é inválida');
    const b = (body ?? {}) as Record<string, unknown>;
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/customers') return this.createCustomer(b);
    if (method === 'POST' && path === '/payments') return this.createPayment(b);
    if (method === 'GET' && path === '/payments') return this.listPayments(query);
    if ((m = /^\/payments\/([^/]+)(\/pixQrCode|\/identificationField)?$/.exec(path))) {
      const payment = this.payments.get(decodeURIComponent(m[1]));
      if (!payment || (payment.deleted && method !== 'GET')) return { status: 404 };
      if (method === 'GET' && !m[2]) return { status: 200, body: this.shown(payment) };
      if (method === 'GET' && m[2] === '/pixQrCode') return this.pixQrCode(payment);
      if (method === 'GET' && m[2] === '/identificationField') return this.identificationField(payment);
      if (method === 'DELETE' && !m[2]) return this.deletePayment(payment);
    }
    return { status: 404 };
  }

  private createCustomer(b: Record<string, unknown>) {
    const errors: { code: string; description: string }[] = [];
    if (typeof b.name !== 'string' || !b.name.trim()) errors.push({ code: 'invalid_name', description: 'O campo nome deve ser informado.' });
    const cpfCnpj = String(b.cpfCnpj ?? '').replace(/\D/g, '');
    if (!validCpfCnpj(cpfCnpj)) errors.push({ code: 'invalid_cpfCnpj', description: 'O CPF/CNPJ informado é inválido.' });
    if (errors.length) return { status: 400, body: { errors } };
    const customer: FakeCustomer = {
      object: 'customer',
      id: `cus_${String(++this.seq).padStart(12, '0')}`,
      dateCreated: today(),
      name: String(b.name),
      email: typeof b.email === 'string' ? b.email : null,
      cpfCnpj,
      personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
      externalReference: typeof b.externalReference === 'string' ? b.externalReference : null,
      deleted: false,
    };
    this.customers.set(customer.id, customer);
    return { status: 200, body: customer };
  }

  private createPayment(b: Record<string, unknown>) {
    const errors: { code: string; description: string }[] = [];
    if (typeof b.customer !== 'string' || !this.customers.has(b.customer)) errors.push({ code: 'invalid_customer', description: 'Cliente inválido ou não informado.' });
    if (!['BOLETO', 'CREDIT_CARD', 'PIX', 'UNDEFINED'].includes(String(b.billingType))) errors.push({ code: 'invalid_billingType', description: 'Forma de pagamento inválida.' });
    if (typeof b.value !== 'number' || !(b.value > 0)) errors.push({ code: 'invalid_value', description: 'O campo value deve ser informado' });
    if (typeof b.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(b.dueDate)) errors.push({ code: 'invalid_dueDate', description: 'O campo dueDate deve ser informado.' });
    else if (b.dueDate < today()) errors.push({ code: 'invalid_dueDate', description: 'A data de vencimento não pode ser inferior à hoje' });
    if (errors.length) return { status: 400, body: { errors } };
    const number = String(++this.seq).padStart(12, '0');
    const boleto = b.billingType === 'BOLETO' || b.billingType === 'UNDEFINED';
    const payment: FakePayment = {
      object: 'payment',
      id: `pay_${randomBytes(8).toString('hex')}`,
      dateCreated: today(),
      customer: String(b.customer),
      dueDate: String(b.dueDate),
      originalDueDate: String(b.dueDate),
      value: Number(b.value),
      netValue: Math.round(Number(b.value) * 100 - 99) / 100,
      description: typeof b.description === 'string' ? b.description : null,
      externalReference: typeof b.externalReference === 'string' ? b.externalReference : null,
      billingType: String(b.billingType),
      status: 'PENDING',
      confirmedDate: null,
      paymentDate: null,
      clientPaymentDate: null,
      invoiceUrl: `https://sandbox.asaas.com/i/${number}`,
      invoiceNumber: number.slice(-8),
      bankSlipUrl: boleto ? `https://sandbox.asaas.com/b/pdf/${number}` : null,
      nossoNumero: boleto ? number.slice(-10) : null,
      deleted: false,
    };
    this.payments.set(payment.id, payment);
    return { status: 200, body: this.shown(payment) };
  }

  private listPayments(query: URLSearchParams) {
    const filters = ['customer', 'externalReference', 'billingType', 'status'] as const;
    const data = [...this.payments.values()].filter((p) => !p.deleted && filters.every((f) => !query.get(f) || String(p[f]) === query.get(f))).map((p) => this.shown(p));
    return { status: 200, body: { object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data } };
  }

  private async pixQrCode(payment: FakePayment) {
    const body =
      tlv('00', '01') +
      tlv('01', '12') +
      tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', `pix.asaas.com/qr/cobv/${randomUUID()}`)) +
      tlv('52', '0000') +
      tlv('53', '986') +
      (this.pixAmountInCode ? tlv('54', payment.value.toFixed(2)) : '') +
      tlv('58', 'BR') +
      tlv('59', 'ASAAS IP SA') +
      tlv('60', 'JOINVILLE') +
      tlv('62', tlv('05', '***')) +
      '6304';
    const real = body + pixCrc(body);
    const payload = this.tamper.pixPayload ? this.tamper.pixPayload(real) : real;
    const encodedImage = (await QRCode.toBuffer(payload, { type: 'png' })).toString('base64');
    return { status: 200, body: { encodedImage, payload, expirationDate: `${addMonths(payment.dueDate, 12)} 23:59:59`, description: null, success: true } };
  }

  private identificationField(payment: FakePayment) {
    if (!payment.nossoNumero) return err(400, 'invalid_billingType', 'Esta cobrança não possui linha digitável.');
    const free = `0001${payment.nossoNumero}00000000009`;
    const { barCode, line } = boletoPair('461', factorOf(payment.dueDate), Math.round(payment.value * 100), free);
    return {
      status: 200,
      body: {
        identificationField: this.tamper.identificationField ? this.tamper.identificationField(line) : line,
        nossoNumero: payment.nossoNumero,
        barCode: this.tamper.barCode ? this.tamper.barCode(barCode) : barCode,
      },
    };
  }

  private deletePayment(payment: FakePayment) {
    if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE') return err(400, 'invalid_action', 'Só é possível remover cobranças aguardando pagamento ou vencidas.');
    payment.deleted = true;
    return { status: 200, body: { deleted: true, id: payment.id } };
  }

  private shown(payment: FakePayment): FakePayment {
    return this.tamper.value ? { ...payment, value: this.tamper.value(payment.value) } : { ...payment };
  }

  /** The payer pays: the payment becomes RECEIVED (Pix, boleto after clearing) or CONFIRMED; the event's body. */
  pay(paymentId: string, status: 'RECEIVED' | 'CONFIRMED' = 'RECEIVED', date = today()): AsaasWebhookBody {
    const payment = this.payments.get(paymentId) ?? assertNever(paymentId);
    Object.assign(payment, { status, clientPaymentDate: date, confirmedDate: date, paymentDate: status === 'RECEIVED' ? date : null });
    return this.event(paymentId, `PAYMENT_${status}`);
  }

  /** The payment as an event `event` would carry it now, with a fresh event id. */
  event(paymentId: string, event: string): AsaasWebhookBody {
    const payment = this.payments.get(paymentId) ?? assertNever(paymentId);
    const now = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'medium' }).format(new Date());
    return { id: `evt_${randomBytes(16).toString('hex')}&${++this.seq}`, event, dateCreated: now, payment: { ...payment } };
  }

  /** Delivers `body` to `url` as Asaas does, `times` times (concurrently when `concurrent`); the statuses answered. */
  async deliver(url: string, body: unknown, options: { token: string | null; times?: number; concurrent?: boolean }): Promise<number[]> {
    const send = async () => {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Asaas_Hmlg/3.0' };
      if (options.token !== null) headers['asaas-access-token'] = options.token;
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return res.status;
    };
    const times = options.times ?? 1;
    if (options.concurrent) return Promise.all(Array.from({ length: times }, send));
    const statuses: number[] = [];
    for (let n = 0; n < times; n++) statuses.push(await send());
    return statuses;
  }
}

function assertNever(id: string): never {
  throw new Error(`the fake has no payment ${id}`);
}
