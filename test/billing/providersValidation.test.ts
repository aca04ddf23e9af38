import { expect } from 'chai';
import type { BoletoPayment, Charge, ChargeRequest, PixPayment } from '../../api/billing/provider';
import { boletoNumbers } from '../../api/billing/providers/boleto';
import { pixBrCode } from '../../api/billing/providers/brCode';
import { PaymentProviderError } from '../../api/billing/providers/errors';
import { chargeProblem, validateCharge } from '../../api/billing/providers/validateCharge';
import { pixCrc } from './decoders/pix';
import { chargeRequest, dayFromToday } from './providersSupport';

/** validateCharge on hand-made charges: each field it checks, one at a time (the Asaas cases run against the fake in providers.test.ts). */
describe('validateCharge: a charge is shown only when it matches the invoice', () => {
  const pixRequest = chargeRequest(1, { amount: 44_900 });
  const boletoRequest: ChargeRequest = { ...pixRequest, method: 'boleto', dueDate: dayFromToday(5) };
  const code = (amount = 44_900) => pixBrCode({ key: 'chave@exemplo.com.br', merchantName: 'Loja', merchantCity: 'Recife', amount, txid: 'abc123' });
  const pix = (payment: Partial<PixPayment> = {}, charge: Partial<Charge> = {}): Charge => ({
    providerReference: 'pay_1',
    providerCustomerId: 'cus_1',
    status: 'pending',
    amount: 44_900,
    payment: { method: 'pix', brCode: code(), qrPngBase64: 'iVBORw0KGgo=', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), ...payment },
    ...charge,
  });
  const numbers = boletoNumbers({ bank: '341', amount: 44_900, dueDate: boletoRequest.dueDate, freeField: '1'.repeat(25) });
  const boleto = (payment: Partial<BoletoPayment> = {}): Charge => ({
    providerReference: 'pay_2',
    providerCustomerId: 'cus_1',
    status: 'pending',
    amount: 44_900,
    payment: { method: 'boleto', ...numbers, dueDate: boletoRequest.dueDate, slipUrl: null, ...payment },
  });
  /** A BR Code with one field replaced and its CRC recomputed. */
  const recoded = (from: string, to: string) => {
    const body = code().slice(0, -4).replace(from, to);
    return body + pixCrc(body);
  };

  it('accepts a matching Pix charge and a matching boleto', () => {
    expect(chargeProblem(pixRequest, pix())).to.equal(undefined);
    expect(chargeProblem(boletoRequest, boleto())).to.equal(undefined);
  });

  it('refuses a Pix code with a wrong CRC, a foreign GUI, no amount in a static code, another amount, or already expired', () => {
    const crcOff = `${code().slice(0, -1)}${code().endsWith('0') ? '1' : '0'}`;
    expect(chargeProblem(pixRequest, pix({ brCode: crcOff }))).to.equal('o CRC do código Pix não confere');
    expect(chargeProblem(pixRequest, pix({ brCode: recoded('br.gov.bcb.pix', 'br.gov.bcb.pox') }))).to.equal('o código Pix não é de uma conta Pix');
    expect(chargeProblem(pixRequest, pix({ brCode: recoded('5406449.00', '') }))).to.equal('o código Pix não traz o valor');
    expect(chargeProblem(pixRequest, pix({ brCode: code(44_990) }))).to.equal('o valor do código Pix não é o da fatura');
    expect(chargeProblem(pixRequest, pix({ expiresAt: new Date(Date.now() - 1000).toISOString() }))).to.equal('o código Pix já venceu');
    expect(chargeProblem(pixRequest, pix({ brCode: 'not a code' }))).to.equal('o código Pix está malformado');
  });

  it('refuses a charge for another amount, method or state', () => {
    expect(chargeProblem(pixRequest, pix({}, { amount: 45_000 }))).to.equal('o valor da cobrança não é o da fatura');
    expect(chargeProblem(boletoRequest, pix())).to.equal('a forma de pagamento não é a pedida');
    expect(chargeProblem(pixRequest, pix({}, { status: 'paid' }))).to.equal('a cobrança nova não está pendente');
  });

  it('refuses a boleto whose line, barcode, currency, amount or due date do not hold', () => {
    const line = numbers.digitableLine;
    expect(chargeProblem(boletoRequest, boleto({ digitableLine: line.slice(0, 46) }))).to.equal('a linha digitável não tem 47 dígitos');
    expect(chargeProblem(boletoRequest, boleto({ digitableLine: `${line.slice(0, 20)}${(Number(line[20]) + 1) % 10}${line.slice(21)}` }))).to.match(/dígito verificador da linha/);
    const other = boletoNumbers({ bank: '341', amount: 44_900, dueDate: boletoRequest.dueDate, freeField: '2'.repeat(25) });
    expect(chargeProblem(boletoRequest, boleto({ barcode: other.barcode }))).to.equal('a linha digitável não corresponde ao código de barras');
    const cheaper = boletoNumbers({ bank: '341', amount: 4_490, dueDate: boletoRequest.dueDate, freeField: '1'.repeat(25) });
    expect(chargeProblem(boletoRequest, boleto(cheaper))).to.equal('o valor do boleto não é o da fatura');
    const later = boletoNumbers({ bank: '341', amount: 44_900, dueDate: dayFromToday(6), freeField: '1'.repeat(25) });
    expect(chargeProblem(boletoRequest, boleto(later))).to.equal('o vencimento do boleto não é o da fatura');
  });

  it('throws the pt-BR refusal, a 503 that is not worth retrying as is', () => {
    try {
      validateCharge(pixRequest, pix({ brCode: code(1) }));
      expect.fail('accepted');
    } catch (err) {
      expect(err).to.be.instanceOf(PaymentProviderError);
      expect(err).to.include({ status: 503, transient: false });
      expect((err as PaymentProviderError).entries[0].descriptions).to.deep.equal([
        'A cobrança recebida do provedor de pagamentos não confere com a fatura (o valor do código Pix não é o da fatura) e não foi exibida. Tente novamente.',
      ]);
    }
  });
});
