import { expect } from 'chai';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Knex } from 'knex';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import type { PaymentProvider } from '../../api/billing/provider';
import { paymentProvider } from '../../api/billing/providers';
import { AsaasProvider } from '../../api/billing/providers/asaas';
import { PaymentProviderError } from '../../api/billing/providers/errors';
import { TestModeProvider } from '../../api/billing/providers/testMode';
import { withValidation } from '../../api/billing/providers/validateCharge';
import { testDatabase } from '../helpers/db';
import { makeWorkspace } from '../helpers/factories';
import { AsaasFake, boletoPair, factorOf } from '../fakes/asaas';
import { decodePix, pixCrc } from './decoders/pix';
import { decodeDigitableLine } from './decoders/boleto';
import { chargeRequest, dayFromToday, makeInvoiceWithTransaction, statusesOf } from './providersSupport';

const logger = createLogger('silent');

async function refusal(promise: Promise<unknown>): Promise<PaymentProviderError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(PaymentProviderError);
    return err as PaymentProviderError;
  }
  return expect.fail('the call was accepted');
}

function readQr(base64: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('payment providers (PaymentProvider): Asaas against its loopback fake, and the test mode', function () {
  this.timeout(60_000);
  let knex: Knex;
  let workspaceId: number;
  const fake = new AsaasFake();

  before(async () => {
    ({ knex } = await testDatabase());
    workspaceId = (await makeWorkspace(knex)).id;
    await fake.start();
  });
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: '/tmp/balcao-providers-test', JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', PUBLIC_URL: 'https://balcao.exemplo.com.br', ...env });
  const asaas = (options: { apiKey?: string; timeoutMs?: number } = {}): PaymentProvider =>
    withValidation(new AsaasProvider({ apiUrl: fake.baseUrl, apiKey: options.apiKey ?? fake.apiKey, userAgent: 'Balcao (+https://balcao.exemplo.com.br)', timeoutMs: options.timeoutMs }), logger);

  describe('choosing the provider', () => {
    it('is the test mode while ASAAS_API_KEY is unset, and Asaas at ASAAS_API_URL once it is', async () => {
      const test = paymentProvider({ knex, logger, config: config() });
      expect(test).to.include({ name: 'test', testMode: true });
      expect(test.simulatePayment).to.be.a('function');
      const real = paymentProvider({ knex, logger, config: config({ ASAAS_API_KEY: fake.apiKey, ASAAS_API_URL: `${fake.baseUrl}/` }) });
      expect(real).to.include({ name: 'asaas', testMode: false });
      expect(real.simulatePayment).to.equal(undefined);
      const charge = await real.createCharge(chargeRequest(workspaceId));
      expect(charge.providerReference).to.match(/^pay_/);
      expect(fake.calls.every((c) => c.headers['user-agent'] === 'Balcao (+https://balcao.exemplo.com.br)')).to.equal(true);
    });

    it('defaults ASAAS_API_URL to https://api.asaas.com/v3', () => {
      expect(config().asaasApiUrl).to.equal('https://api.asaas.com/v3');
    });
  });

  describe('Asaas', () => {
    it('charges by Pix: creates the customer, the payment in reais with two decimals, and shows the checked BR Code with our own QR', async () => {
      const request = chargeRequest(workspaceId, { amount: 44_900 });
      const charge = await asaas().createCharge(request);
      const [customerCall, listCall, paymentCall, qrCall] = fake.calls;
      expect(customerCall).to.deep.include({ method: 'POST', path: '/customers' });
      expect(customerCall.body).to.deep.equal({ name: 'Empresa Teste Ltda', cpfCnpj: '11444777000161', email: 'financeiro@exemplo.com.br', externalReference: `workspace:${workspaceId}` });
      expect(listCall).to.deep.include({ method: 'GET', path: '/payments' });
      expect(paymentCall).to.deep.include({ method: 'POST', path: '/payments' });
      expect(paymentCall.raw).to.contain('"value":449.00');
      expect(paymentCall.body).to.deep.include({ customer: charge.providerCustomerId, billingType: 'PIX', dueDate: request.dueDate, description: request.description, externalReference: request.orderNumber });
      expect(qrCall).to.deep.include({ method: 'GET', path: `/payments/${charge.providerReference}/pixQrCode` });
      for (const call of fake.calls) {
        expect(call.headers.access_token).to.equal(fake.apiKey);
        expect(call.headers['user-agent']).to.match(/^Balcao/);
      }
      expect(charge).to.deep.include({ status: 'pending', amount: 44_900 });
      if (charge.payment.method !== 'pix') throw new Error('expected Pix');
      expect(decodePix(charge.payment.brCode)).to.include({ amount: 44_900, currency: '986' });
      expect(readQr(charge.payment.qrPngBase64)).to.equal(charge.payment.brCode);
      // Asaas: "The QR Code expires 12 months after the due date" (Brasília time).
      const yearLater = new Date(`${request.dueDate}T00:00:00Z`);
      yearLater.setUTCMonth(yearLater.getUTCMonth() + 12);
      expect(charge.payment.expiresAt).to.equal(new Date(`${yearLater.toISOString().slice(0, 10)}T23:59:59-03:00`).toISOString());
    });

    it('charges by Boleto: the line and barcode of identificationField, due on our date, with the slip URL', async () => {
      const request = chargeRequest(workspaceId, { method: 'boleto', amount: 14_900, dueDate: dayFromToday(7) });
      const charge = await asaas().createCharge(request);
      expect((fake.calls.find((c) => c.method === 'POST' && c.path === '/payments')?.body as { billingType: string }).billingType).to.equal('BOLETO');
      if (charge.payment.method !== 'boleto') throw new Error('expected a boleto');
      const decoded = decodeDigitableLine(charge.payment.digitableLine, request.dueDate);
      expect(decoded).to.include({ barcode: charge.payment.barcode, amount: 14_900, dueDate: request.dueDate });
      expect(charge.payment.slipUrl).to.equal(fake.payments.get(charge.providerReference)?.bankSlipUrl);
    });

    it('reuses a known customer and, asked again for the same invoice, returns the payment it already made', async () => {
      const first = await asaas().createCharge(chargeRequest(workspaceId));
      fake.reset();
      const request = chargeRequest(workspaceId, { providerCustomerId: first.providerCustomerId });
      const a = await asaas().createCharge(request);
      const b = await asaas().createCharge(request);
      expect(a.providerReference).to.equal(b.providerReference);
      expect(fake.calls.filter((c) => c.method === 'POST').map((c) => c.path)).to.deep.equal(['/payments']);
    });

    it('reads a payment back: pending, paid with the payer’s date, and removed once cancelled', async () => {
      const provider = asaas();
      const charge = await provider.createCharge(chargeRequest(workspaceId));
      expect(await provider.getCharge(charge.providerReference)).to.deep.equal({ status: 'pending', paidAt: null, amount: 44_900 });
      fake.pay(charge.providerReference, 'RECEIVED', '2026-11-20');
      expect(await provider.getCharge(charge.providerReference)).to.deep.equal({ status: 'paid', paidAt: '2026-11-20T15:00:00.000Z', amount: 44_900 });

      const other = await provider.createCharge(chargeRequest(workspaceId, { amount: 100_00 }));
      await provider.cancelCharge(other.providerReference);
      expect(fake.calls.at(-1)).to.deep.include({ method: 'DELETE', path: `/payments/${other.providerReference}` });
      expect((await provider.getCharge(other.providerReference)).status).to.equal('deleted');
      await provider.cancelCharge(other.providerReference);
    });

    it('turns Asaas’s error bodies into pt-BR errors: an invalid CPF/CNPJ names the document field', async () => {
      const err = await refusal(asaas().createCharge(chargeRequest(workspaceId, { payer: { workspaceId, name: 'X', email: 'x@exemplo.com.br', document: '11111111111' } })));
      expect(err.status).to.equal(400);
      expect(err.providerCodes).to.deep.equal(['invalid_cpfCnpj']);
      expect(err.entries[0]).to.deep.include({ type: 'ValidationError', key: 'document', descriptions: ['O CPF/CNPJ informado é inválido.'] });
      expect(err.transient).to.equal(false);
    });

    it('refuses to remove a paid payment with Asaas’s own words', async () => {
      const provider = asaas();
      const charge = await provider.createCharge(chargeRequest(workspaceId));
      fake.pay(charge.providerReference);
      const err = await refusal(provider.cancelCharge(charge.providerReference));
      expect(err.providerCodes).to.deep.equal(['invalid_action']);
      expect(err.entries[0].descriptions[0]).to.match(/^Só é possível remover/);
    });

    it('a refused API key is a configuration problem (503, not retried), a 5xx or a hang past the timeout is transient', async () => {
      const badKey = await refusal(asaas({ apiKey: 'errada' }).createCharge(chargeRequest(workspaceId)));
      expect(badKey).to.include({ status: 503, transient: false });
      expect(badKey.entries[0].descriptions[0]).to.contain('credencial');

      fake.inject('POST', /^\/customers$/, 502);
      const down = await refusal(asaas().createCharge(chargeRequest(workspaceId)));
      expect(down).to.include({ status: 503, transient: true });
      expect(down.entries[0].descriptions).to.deep.equal(['Sem contato com o Asaas agora. Tente novamente em instantes.']);

      fake.inject('POST', /^\/customers$/, 200, { id: 'cus_late' }, 1500);
      const slow = await refusal(asaas({ timeoutMs: 300 }).createCharge(chargeRequest(workspaceId)));
      expect(slow).to.include({ status: 503, transient: true });
      expect(slow.providerCodes).to.deep.equal(['TimeoutError']);
    });

    it('an unknown payment is a 404 in pt-BR', async () => {
      const err = await refusal(asaas().getCharge('pay_naoexiste'));
      expect(err).to.include({ status: 404 });
      expect(err.entries[0].descriptions).to.deep.equal(['Cobrança não encontrada no provedor de pagamentos.']);
    });
  });

  describe('what Asaas returns is checked before it is shown', () => {
    const rejected = async (request = chargeRequest(workspaceId)) => {
      const err = await refusal(asaas().createCharge(request));
      expect(err.providerCodes).to.deep.equal(['rejected_charge']);
      // Never shown, and removed at Asaas so nobody pays it.
      const created = fake.calls.find((c) => c.method === 'POST' && c.path === '/payments');
      expect(fake.calls.at(-1)?.method).to.equal('DELETE');
      expect(created).to.not.equal(undefined);
      return err.entries[0].descriptions[0];
    };

    it('refuses a BR Code whose CRC does not match (one character changed)', async () => {
      fake.tamper.pixPayload = (p) => p.replace('JOINVILLE', 'JOINVILLA');
      expect(await rejected()).to.contain('o CRC do código Pix não confere');
    });

    it('refuses a BR Code for another amount, even with a correct CRC', async () => {
      fake.tamper.pixPayload = (p) => {
        const body = p.slice(0, -4).replace('5406449.00', '54044.49');
        return body + pixCrc(body);
      };
      expect(await rejected()).to.contain('o valor do código Pix não é o da fatura');
    });

    it('refuses a BR Code that is not in reais, or has no receiver name', async () => {
      fake.tamper.pixPayload = (p) => {
        const body = p.slice(0, -4).replace('5303986', '5303840');
        return body + pixCrc(body);
      };
      expect(await rejected()).to.contain('o código Pix não é em reais');
      fake.tamper.pixPayload = (p) => {
        const body = p.slice(0, -4).replace('5911ASAAS IP SA', '');
        return body + pixCrc(body);
      };
      expect(await rejected()).to.contain('o código Pix não traz o nome do recebedor');
    });

    it('accepts a dynamic code that leaves the amount to its URL when the payment’s value is ours', async () => {
      fake.pixAmountInCode = false;
      const charge = await asaas().createCharge(chargeRequest(workspaceId));
      if (charge.payment.method !== 'pix') throw new Error('expected Pix');
      expect(decodePix(charge.payment.brCode)).to.include({ amount: null });
    });

    it('refuses a payment whose value is not the invoice’s', async () => {
      fake.tamper.value = (v) => v - 1;
      expect(await rejected()).to.contain('o valor da cobrança não é o da fatura');
    });

    it('refuses a digitable line with a wrong digit, or one that is not the barcode’s', async () => {
      const boleto = () => chargeRequest(workspaceId, { method: 'boleto', dueDate: dayFromToday(4) });
      fake.tamper.identificationField = (line) => line.slice(0, 12) + String((Number(line[12]) + 1) % 10) + line.slice(13);
      expect(await rejected(boleto())).to.contain('dígito verificador da linha digitável');
      fake.tamper.identificationField = undefined;
      fake.tamper.barCode = (barcode) => barcode.slice(0, 43) + String((Number(barcode[43]) + 1) % 10);
      expect(await rejected(boleto())).to.match(/código de barras/);
    });

    it('refuses a boleto for another amount or due date, even with consistent digits', async () => {
      const request = () => chargeRequest(workspaceId, { method: 'boleto', amount: 20_000, dueDate: dayFromToday(4) });
      const reissue = (change: { amount?: number; dueDate?: string }) => {
        const pair = (barcode: string) => boletoPair(barcode.slice(0, 3), change.dueDate ? factorOf(change.dueDate) : barcode.slice(5, 9), change.amount ?? Number(barcode.slice(9, 19)), barcode.slice(19));
        fake.tamper.barCode = (barcode) => pair(barcode).barCode;
        fake.tamper.identificationField = (line) => pair(decodeDigitableLine(line, dayFromToday(4)).barcode).line;
      };
      reissue({ amount: 2_000 });
      expect(await rejected(request())).to.contain('o valor do boleto não é o da fatura');
      reissue({ dueDate: dayFromToday(5) });
      expect(await rejected(request())).to.contain('o vencimento do boleto não é o da fatura');
    });
  });

  describe('the test mode', () => {
    let provider: PaymentProvider;
    before(() => {
      provider = paymentProvider({ knex, logger, config: config() });
    });

    it('keeps its charges in the database: pending, overdue once the due date passed, deleted when cancelled', async () => {
      const charge = await provider.createCharge(chargeRequest(workspaceId, { method: 'boleto' }));
      expect(await provider.getCharge(charge.providerReference)).to.deep.equal({ status: 'pending', paidAt: null, amount: 44_900 });
      await knex('test_mode_charges').where({ providerReference: charge.providerReference }).update({ dueDate: dayFromToday(-1) });
      expect((await provider.getCharge(charge.providerReference)).status).to.equal('overdue');
      await provider.cancelCharge(charge.providerReference);
      expect((await provider.getCharge(charge.providerReference)).status).to.equal('deleted');
      await provider.cancelCharge(charge.providerReference);
    });

    it('gives a retried request the charge it already made', async () => {
      const request = chargeRequest(workspaceId);
      const [a, b] = [await provider.createCharge(request), await provider.createCharge(request)];
      expect(a.providerReference).to.equal(b.providerReference);
    });

    it('refuses what Asaas would: no amount, a due date in the past', async () => {
      const err = await refusal(provider.createCharge(chargeRequest(workspaceId, { amount: 0, dueDate: dayFromToday(-2) })));
      expect(err.providerCodes).to.deep.equal(['invalid_value', 'invalid_dueDate']);
      expect(err.entries[0].descriptions).to.deep.equal(['O valor da cobrança deve ser maior que zero.', 'A data de vencimento não pode ser anterior a hoje.']);
    });

    it('simulatePayment pays the charge and hands billing the webhook’s event: transaction and invoice paid, once', async () => {
      const charge = await provider.createCharge(chargeRequest(workspaceId));
      const ids = await makeInvoiceWithTransaction(knex, workspaceId, charge.providerReference);
      const event = await provider.simulatePayment!(charge.providerReference);
      expect(event).to.deep.include({ providerReference: charge.providerReference, status: 'paid' });
      const after = await statusesOf(knex, ids);
      expect(after).to.deep.include({ invoice: 'paid', transaction: 'paid', paymentMethod: 'pix' });
      expect((await provider.getCharge(charge.providerReference)).status).to.equal('paid');

      const again = await provider.simulatePayment!(charge.providerReference);
      expect(again).to.deep.equal(event);
      expect(await knex('payment_events').where({ providerReference: charge.providerReference })).to.have.length(1);
      expect((await statusesOf(knex, ids)).invoicePaidAt?.toISOString()).to.equal(after.invoicePaidAt?.toISOString());
    });

    it('simulatePayment refuses a cancelled charge in pt-BR', async () => {
      const charge = await provider.createCharge(chargeRequest(workspaceId));
      await provider.cancelCharge(charge.providerReference);
      const err = await refusal(provider.simulatePayment!(charge.providerReference));
      expect(err.entries[0].descriptions).to.deep.equal(['Esta cobrança foi cancelada ou estornada e não pode ser paga.']);
    });

    it('is labelled as the test mode, whatever the key-less config', () => {
      expect(new TestModeProvider({ knex, logger }).testMode).to.equal(true);
    });
  });
});
