import { expect } from 'chai';
import fc from 'fast-check';
import { boletoNumbers, dueDateFactor } from '../../api/billing/providers/boleto';
import { TEST_MODE, type TestModeProvider } from '../../api/billing/providers/testMode';
import { BoletoDecodeError, dateOfFactor, decodeBarcode, decodeDigitableLine } from './decoders/boleto';
import { chargeRequest, dayFromToday, testModeFixture } from './providersSupport';

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('Boleto: what the test mode issues, read back by a decoder written apart from the encoder', function () {
  describe('the decoder itself', () => {
    it('reads published FEBRABAN examples: line digits, general digit, line → barcode', () => {
      const first = decodeDigitableLine('39991.11119 22222.500542 66666.660015 8 10010000031155', '2000-07-15');
      expect(first).to.include({ barcode: '39998100100000311551111122222500546666666001', bank: '399', factor: 1001, dueDate: '2000-07-04', amount: 31_155 });
      const second = decodeDigitableLine('99997.77213 30530.150082 18975.000003 1 10120000035000', '2000-07-15');
      expect(second).to.include({ barcode: '99991101200000350007772130530150081897500000', amount: 35_000 });
    });

    it('refuses a line with a wrong field digit and a barcode with a wrong general digit', () => {
      expect(() => decodeDigitableLine('39991.11118 22222.500542 66666.660015 8 10010000031155', '2000-07-15')).to.throw(BoletoDecodeError, /field 1/);
      expect(() => decodeDigitableLine('39991.11119 22222.500542 66666.660015 8 10010000031156', '2000-07-15')).to.throw(BoletoDecodeError, /general/);
      expect(() => decodeBarcode('39997100100000311551111122222500546666666001', '2000-07-15')).to.throw(BoletoDecodeError, /general/);
    });

    it('reads factors across the 2025-02-22 restart: 9999 is 2025-02-21, 1000 is 2025-02-22 (and 2000-07-03 in the old count)', () => {
      expect(dateOfFactor(9999, '2025-02-01')).to.equal('2025-02-21');
      expect(dateOfFactor(1000, '2025-03-01')).to.equal('2025-02-22');
      expect(dateOfFactor(1000, '2000-07-01')).to.equal('2000-07-03');
    });
  });

  describe('the encoder against the decoder', () => {
    it('writes the due-date factor FEBRABAN publishes: 2000-07-03 → 1000, 2025-02-21 → 9999, 2025-02-22 → 1000, 2049-10-13 → 9999, 2049-10-14 → 1000', () => {
      expect(['2000-07-03', '2025-02-21', '2025-02-22', '2025-02-23', '2049-10-13', '2049-10-14'].map(dueDateFactor)).to.deep.equal(['1000', '9999', '1000', '1001', '9999', '1000']);
    });

    it('writes any amount and due date so that the decoder reads back the same bank, amount and due date from the line', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 99_999_999_99 }), fc.integer({ min: 0, max: 3650 }), fc.stringMatching(/^\d{25}$/), (amount, days, freeField) => {
          const dueDate = addDays('2025-02-22', days);
          const numbers = boletoNumbers({ bank: '237', amount, dueDate, freeField });
          const decoded = decodeDigitableLine(numbers.digitableLine, dueDate);
          expect(decoded).to.include({ barcode: numbers.barcode, bank: '237', amount, dueDate, freeField });
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('test-mode charges', () => {
    let provider: TestModeProvider;
    let workspaceId: number;

    before(async () => {
      ({ provider, workspaceId } = await testModeFixture());
    });

    it('issues a boleto of bank 999 whose 47-digit line and 44-digit barcode decode to the invoice amount and due date', async () => {
      const dueDate = dayFromToday(5);
      const charge = await provider.createCharge(chargeRequest(workspaceId, { method: 'boleto', amount: 74_850, dueDate }));
      if (charge.payment.method !== 'boleto') throw new Error('expected a boleto');
      expect(charge.payment.digitableLine).to.match(/^\d{47}$/);
      expect(charge.payment.barcode).to.match(/^\d{44}$/);
      const decoded = decodeDigitableLine(charge.payment.digitableLine, dueDate);
      expect(decoded).to.include({ barcode: charge.payment.barcode, bank: TEST_MODE.bank, currency: '9', amount: 74_850, dueDate });
      expect(charge.payment).to.include({ dueDate, slipUrl: null });
    });

    it('gives each boleto its own nosso número', async () => {
      const lines = await Promise.all([1, 2].map(async () => provider.createCharge(chargeRequest(workspaceId, { method: 'boleto' }))));
      const free = lines.map((c) => (c.payment.method === 'boleto' ? decodeBarcode(c.payment.barcode, dayFromToday(3)).freeField : ''));
      expect(free[0]).to.not.equal(free[1]);
    });
  });
});
