import { randomBytes } from 'node:crypto';
import type { Charge, ChargeRequest, ChargeState, ChargeStatus, PaymentData, PaymentEvent, PaymentProvider } from '../provider';
import type { PaymentEventDeps } from '../paymentEvents';
import { acceptPaymentEvent } from '../webhookEvents';
import { boletoNumbers } from './boleto';
import { pixBrCode } from './brCode';
import { providerErrors } from './errors';
import { qrPngBase64 } from './qrPng';

/**
 * The embedded test mode (issue 29; the default while ASAAS_API_KEY is unset; every billing page says 'Modo
 * de teste'): charges are real-looking but payable by nobody — a valid single-use Pix BR Code to a key no bank
 * holds, and a valid FEBRABAN boleto of bank 999 (no such COMPE code) — kept in `test_mode_charges`, our stand-in
 * for the provider's records. getCharge answers from there; simulatePayment pays one and hands billing the same
 * PaymentEvent the Asaas webhook would, through the same path (webhookEvents.ts).
 */
export const TEST_MODE = {
  /** An EVP (random) key registered nowhere. */
  pixKey: '5f0c7a1e-9b2d-4c3e-8a6f-0d1e2f3a4b5c',
  merchantName: 'BALCAO MODO DE TESTE',
  merchantCity: 'SAO PAULO',
  bank: '999',
  agency: '0001',
} as const;

interface TestChargeRow {
  id: number;
  workspaceId: number;
  providerReference: string;
  customerReference: string;
  method: 'pix' | 'boleto';
  amount: number;
  dueDate: string | Date;
  status: 'pending' | 'paid' | 'refunded' | 'deleted';
  payment: { brCode?: string; expiresAt?: string; digitableLine?: string; barcode?: string; nossoNumero?: string };
  paidAt: Date | null;
}

const COLUMNS = ['id', 'workspaceId', 'providerReference', 'customerReference', 'method', 'amount', 'dueDate', 'status', 'payment', 'paidAt'];

function saoPauloToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(now);
}

/** A pg `date` as YYYY-MM-DD whichever way the driver hands it back. */
function isoDate(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;
}

function requestProblems(request: ChargeRequest): { code: string; description: string }[] {
  const problems: { code: string; description: string }[] = [];
  if (!Number.isInteger(request.amount) || request.amount <= 0 || request.amount > 99_999_999_99) problems.push({ code: 'invalid_value', description: 'O valor da cobrança deve ser maior que zero.' });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(request.dueDate) || Number.isNaN(Date.parse(request.dueDate))) problems.push({ code: 'invalid_dueDate', description: 'Informe a data de vencimento no formato AAAA-MM-DD.' });
  else if (request.dueDate < saoPauloToday()) problems.push({ code: 'invalid_dueDate', description: 'A data de vencimento não pode ser anterior a hoje.' });
  return problems;
}

export class TestModeProvider implements PaymentProvider {
  readonly name = 'test' as const;
  readonly testMode = true;

  constructor(private readonly deps: PaymentEventDeps) {}

  async createCharge(request: ChargeRequest): Promise<Charge> {
    const problems = requestProblems(request);
    if (problems.length) throw providerErrors.refused(problems);
    // A retried call (an activity's retry, a double click) gets the charge it already made.
    const existing: TestChargeRow | undefined = await this.deps
      .knex('test_mode_charges')
      .where({ workspaceId: request.payer.workspaceId, orderNumber: request.orderNumber, method: request.method, amount: request.amount, dueDate: request.dueDate, status: 'pending' })
      .orderBy('id', 'desc')
      .first(COLUMNS);
    if (existing) return this.chargeOf(existing);

    const providerReference = `test_pay_${randomBytes(8).toString('hex')}`;
    const customerReference = request.providerCustomerId?.startsWith('test_cus_') ? request.providerCustomerId : `test_cus_${request.payer.workspaceId}`;
    const payment = request.method === 'pix' ? this.pix(providerReference, request) : this.boleto(providerReference, request);
    const [row]: TestChargeRow[] = await this.deps
      .knex('test_mode_charges')
      .insert({
        workspaceId: request.payer.workspaceId,
        providerReference,
        customerReference,
        orderNumber: request.orderNumber,
        method: request.method,
        amount: request.amount,
        dueDate: request.dueDate,
        description: request.description.slice(0, 500),
        payment: JSON.stringify(payment),
      })
      .returning(COLUMNS);
    return this.chargeOf(row);
  }

  async getCharge(providerReference: string): Promise<ChargeState> {
    const row = await this.row(providerReference);
    return { status: this.statusOf(row), paidAt: row.paidAt ? row.paidAt.toISOString() : null, amount: row.amount };
  }

  async cancelCharge(providerReference: string): Promise<void> {
    const row = await this.row(providerReference);
    if (row.status === 'deleted') return;
    if (row.status !== 'pending') throw providerErrors.refused([{ code: 'invalid_action', description: 'Só é possível cancelar cobranças pendentes ou vencidas.' }]);
    await this.deps.knex('test_mode_charges').where({ id: row.id, status: 'pending' }).update({ status: 'deleted', updatedAt: this.deps.knex.fn.now() });
  }

  async simulatePayment(providerReference: string): Promise<PaymentEvent> {
    let row = await this.row(providerReference);
    if (row.status === 'deleted' || row.status === 'refunded') throw providerErrors.notPayable();
    if (row.status === 'pending') {
      await this.deps.knex('test_mode_charges').where({ id: row.id, status: 'pending' }).update({ status: 'paid', paidAt: this.deps.knex.fn.now(), updatedAt: this.deps.knex.fn.now() });
      row = await this.row(providerReference);
    }
    const event: PaymentEvent = {
      // One event per charge: simulating twice is the same notification delivered twice.
      eventId: `test_evt_${providerReference}_paid`,
      providerReference,
      status: 'paid',
      paidAt: (row.paidAt ?? new Date()).toISOString(),
    };
    await acceptPaymentEvent(this.deps, { provider: 'test', type: 'PAYMENT_SIMULATED', event });
    return event;
  }

  private async row(providerReference: string): Promise<TestChargeRow> {
    const row: TestChargeRow | undefined = await this.deps.knex('test_mode_charges').where({ providerReference }).first(COLUMNS);
    if (!row) throw providerErrors.notFound(providerReference);
    return row;
  }

  /** Like Asaas, a pending charge whose due date has passed reads as overdue. */
  private statusOf(row: TestChargeRow): ChargeStatus {
    return row.status === 'pending' && isoDate(row.dueDate) < saoPauloToday() ? 'overdue' : row.status;
  }

  private pix(providerReference: string, request: ChargeRequest): TestChargeRow['payment'] {
    const brCode = pixBrCode({
      key: TEST_MODE.pixKey,
      merchantName: TEST_MODE.merchantName,
      merchantCity: TEST_MODE.merchantCity,
      amount: request.amount,
      txid: providerReference.replace(/[^A-Za-z0-9]/g, ''),
    });
    // Payable until the end of the due date in Brasília time (no daylight saving since 2019).
    return { brCode, expiresAt: new Date(`${request.dueDate}T23:59:59-03:00`).toISOString() };
  }

  private boleto(providerReference: string, request: ChargeRequest): TestChargeRow['payment'] {
    const nossoNumero = (BigInt(`0x${providerReference.slice(-16)}`) % 10n ** 13n).toString().padStart(13, '0');
    const numbers = boletoNumbers({ bank: TEST_MODE.bank, amount: request.amount, dueDate: request.dueDate, freeField: `${TEST_MODE.agency}${nossoNumero}${'0'.repeat(8)}` });
    return { ...numbers, nossoNumero };
  }

  private async chargeOf(row: TestChargeRow): Promise<Charge> {
    const p = row.payment;
    const payment: PaymentData =
      row.method === 'pix'
        ? { method: 'pix', brCode: p.brCode!, qrPngBase64: await qrPngBase64(p.brCode!), expiresAt: p.expiresAt! }
        : { method: 'boleto', digitableLine: p.digitableLine!, barcode: p.barcode!, dueDate: isoDate(row.dueDate), slipUrl: null };
    return { providerReference: row.providerReference, providerCustomerId: row.customerReference, status: this.statusOf(row), amount: row.amount, payment };
  }
}
