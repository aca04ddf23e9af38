import { expect } from 'chai';
import fc from 'fast-check';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { brCodeAmount, crc16, pixBrCode } from '../../api/billing/providers/brCode';
import { TEST_MODE, type TestModeProvider } from '../../api/billing/providers/testMode';
import { decodePix, pixCrc, PixDecodeError } from './decoders/pix';
import { chargeRequest, testModeFixture } from './providersSupport';

/** The text a QR PNG (base64) holds, read by jsQR (not the library that drew it). */
function readQr(base64: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('Pix BR Code: what the test mode issues, read back by a decoder written apart from the encoder', function () {
  describe('the decoder itself', () => {
    it("reads the BCB manual's static example and agrees with its CRC 1D3D", () => {
      const example = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
      const decoded = decodePix(example);
      expect(decoded).to.include({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', txid: '***', amount: null, crc: '1D3D' });
    });

    it('refuses a code whose CRC does not cover it, a missing field or a wrong currency', () => {
      const example = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
      expect(() => decodePix(example.replace('Fulano', 'Fulana'))).to.throw(PixDecodeError, /CRC/);
      const noCity = example.slice(0, -4).replace('6008BRASILIA', '');
      expect(() => decodePix(noCity + pixCrc(noCity))).to.throw(PixDecodeError, /field 60 missing/);
      const dollars = example.slice(0, -4).replace('5303986', '5303840');
      expect(() => decodePix(dollars + pixCrc(dollars))).to.throw(PixDecodeError, /986/);
    });
  });

  describe('the encoder against the decoder', () => {
    it('writes any amount and txid so that the decoder reads them back, with a CRC over the string including 6304', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 99_999_999_99 }), fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), (amount, txid) => {
          const code = pixBrCode({ key: TEST_MODE.pixKey, merchantName: 'Balcão Teste', merchantCity: 'São Paulo', amount, txid });
          const decoded = decodePix(code);
          expect(decoded.amount).to.equal(amount);
          expect(decoded.txid).to.equal(txid);
          expect(code.slice(-8, -4)).to.equal('6304');
          expect(crc16(code.slice(0, -4))).to.equal(pixCrc(code.slice(0, -4)));
        }),
        { numRuns: 300 },
      );
    });

    it('writes R$ 0,01, R$ 449,00 and R$ 1.234,50 as 0.01, 449.00 and 1234.50', () => {
      expect([1, 44_900, 123_450].map(brCodeAmount)).to.deep.equal(['0.01', '449.00', '1234.50']);
    });

    it('writes names and cities without accents or punctuation, cut at 25 and 15 characters', () => {
      const code = pixBrCode({ key: TEST_MODE.pixKey, merchantName: 'Açaí & Cia. do João Comércio Ltda', merchantCity: 'São José dos Campos', amount: 100, txid: 'abc' });
      const decoded = decodePix(code);
      expect(decoded.merchantName).to.equal('ACAI CIA DO JOAO COMERCIO');
      expect(decoded.merchantCity).to.equal('SAO JOSE DOS CA');
    });
  });

  describe('test-mode charges', () => {
    let provider: TestModeProvider;
    let workspaceId: number;

    before(async () => {
      ({ provider, workspaceId } = await testModeFixture());
    });

    it('issues a single-use BR Code to the test key with MCC 0000, currency 986, the amount, BR, name, city, txid and a valid CRC', async () => {
      const request = chargeRequest(workspaceId, { amount: 123_456 });
      const charge = await provider.createCharge(request);
      expect(charge.payment.method).to.equal('pix');
      if (charge.payment.method !== 'pix') return;
      const decoded = decodePix(charge.payment.brCode);
      expect(decoded).to.deep.include({
        pointOfInitiation: '12',
        gui: 'br.gov.bcb.pix',
        key: TEST_MODE.pixKey,
        url: null,
        mcc: '0000',
        currency: '986',
        amount: 123_456,
        country: 'BR',
        merchantName: TEST_MODE.merchantName,
        merchantCity: TEST_MODE.merchantCity,
        txid: charge.providerReference.replace(/_/g, ''),
      });
      expect(Date.parse(charge.payment.expiresAt)).to.equal(Date.parse(`${request.dueDate}T23:59:59-03:00`));
    });

    it('draws a QR PNG that a QR reader decodes to exactly the BR Code', async () => {
      const charge = await provider.createCharge(chargeRequest(workspaceId, { amount: 9_990 }));
      if (charge.payment.method !== 'pix') throw new Error('expected Pix');
      expect(readQr(charge.payment.qrPngBase64)).to.equal(charge.payment.brCode);
    });

    it('gives every charge its own txid', async () => {
      const codes = await Promise.all([1, 2, 3].map(async (n) => provider.createCharge(chargeRequest(workspaceId, { amount: 1000 + n }))));
      const txids = codes.map((c) => (c.payment.method === 'pix' ? decodePix(c.payment.brCode).txid : ''));
      expect(new Set(txids).size).to.equal(3);
    });
  });
});
