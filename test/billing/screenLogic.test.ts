import { expect } from 'chai';
import { boletoNumbers } from '../../api/billing/providers/boleto';
import { itfBars, itfWidths } from '../../ui/src/settings/billing/itf';
import { formatDigitableLine } from '../../ui/src/settings/billing/boletoLine';
import { maskDocument } from '../../ui/src/settings/billing/document';
import { formatMoney } from '../../ui/src/settings/billing/format';
import { readItf, widthsFromBars } from '../e2e/billingItf';

/** The billing screens' own drawing and formatting (no browser): the boleto barcode, its line, the CPF/CNPJ mask, money. */
describe('billing screens: ITF barcode, digitable line, document mask, money', () => {
  const boleto = boletoNumbers({ bank: '001', amount: 437_60, dueDate: '2026-12-10', freeField: '0000001234567890123456789' });

  it('draws a boleto barcode an independent ITF reader reads back digit for digit', () => {
    expect(readItf(itfWidths(boleto.barcode))).to.equal(boleto.barcode);
    // The bars alone (what the SVG holds) carry the same symbol.
    expect(readItf(widthsFromBars(itfBars(boleto.barcode).bars))).to.equal(boleto.barcode);
    for (const digits of ['00', '1234567890', '9'.repeat(44)]) expect(readItf(itfWidths(digits))).to.equal(digits);
  });

  it('refuses an odd number of digits or a non-digit (ITF encodes pairs)', () => {
    expect(() => itfWidths('123')).to.throw();
    expect(() => itfWidths('12a4')).to.throw();
  });

  it('prints the 47-digit line in the five groups banks use, and leaves anything else as it came', () => {
    const formatted = formatDigitableLine(boleto.digitableLine);
    expect(formatted).to.match(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(formatted.replace(/\D/g, '')).to.equal(boleto.digitableLine);
    expect(formatDigitableLine('123')).to.equal('123');
  });

  it('masks a CPF up to 11 digits and a CNPJ beyond, dropping what is not a digit', () => {
    expect(maskDocument('52998224725')).to.equal('529.982.247-25');
    expect(maskDocument('5299')).to.equal('529.9');
    expect(maskDocument('11444777000161')).to.equal('11.444.777/0001-61');
    expect(maskDocument('11.444.777/0001-6199')).to.equal('11.444.777/0001-61');
    expect(maskDocument('abc')).to.equal('');
  });

  it('writes centavos as reais the Brazilian way', () => {
    expect(formatMoney(43760).replace(/\s/g, ' ')).to.equal('R$ 437,60');
    expect(formatMoney(1076760).replace(/\s/g, ' ')).to.equal('R$ 10.767,60');
  });
});
