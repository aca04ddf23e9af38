import QRCode from 'qrcode';

/**
 * The QR image of a BR Code, PNG as base64 without the `data:` prefix (PixPayment.qrPngBase64). Drawn by us
 * from the code billing checked (validateCharge.ts), so the picture a payer scans is always that code, whatever
 * image a provider sent. Error correction M, 4-module quiet zone.
 */
export async function qrPngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 6 });
  return png.toString('base64');
}
