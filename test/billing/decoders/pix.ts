/**
 * A Pix BR Code reader written for the tests from BCB's "Manual de Padrões para Iniciação do Pix" and EMV®
 * QRCPS-MPM, without the product's encoder (api/billing/providers/brCode.ts): it must catch what the encoder
 * gets wrong, so it shares nothing with it. TLV fields `ID(2) len(2) value`; 00 first ("01"), 63 last (CRC-16/
 * CCITT-FALSE over everything before its value, "6304" included, 4 upper-case hex digits); the Pix account in
 * 26 (00 = GUI "br.gov.bcb.pix", 01 = key or 25 = URL); 52 MCC, 53 "986", 54 amount (optional, at most 13
 * characters), 58 "BR", 59 name (≤ 25), 60 city (≤ 15), 62 additional data with 05 = txid (≤ 25).
 */

/** CRC-16/CCITT-FALSE by a 256-entry table (the encoder computes it bit by bit). */
const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
  return c & 0xffff;
});

export function pixCrc(text: string): string {
  let crc = 0xffff;
  for (const b of new TextEncoder().encode(text)) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ b) & 0xff];
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export interface DecodedPix {
  pointOfInitiation: string | null;
  gui: string;
  key: string | null;
  url: string | null;
  mcc: string;
  currency: string;
  /** Centavos, null when the code carries no amount. */
  amount: number | null;
  country: string;
  merchantName: string;
  merchantCity: string;
  txid: string;
  crc: string;
}

export class PixDecodeError extends Error {}

function fail(reason: string): never {
  throw new PixDecodeError(reason);
}

/** The fields of a TLV string in order, as [id, value] pairs. */
function readFields(text: string): [string, string][] {
  const out: [string, string][] = [];
  let rest = text;
  while (rest.length) {
    const m = /^(\d\d)(\d\d)/.exec(rest) ?? fail(`no field header at "${rest.slice(0, 8)}"`);
    const size = Number(m[2]);
    if (rest.length < 4 + size) fail(`field ${m[1]} runs past the end`);
    out.push([m[1], rest.substring(4, 4 + size)]);
    rest = rest.substring(4 + size);
  }
  return out;
}

function only(fields: [string, string][], id: string, required: true): string;
function only(fields: [string, string][], id: string, required: false): string | null;
function only(fields: [string, string][], id: string, required: boolean): string | null {
  const found = fields.filter(([f]) => f === id);
  if (found.length > 1) fail(`field ${id} repeated`);
  if (!found.length) return required ? fail(`field ${id} missing`) : null;
  return found[0][1];
}

export function decodePix(code: string): DecodedPix {
  const fields = readFields(code);
  if (fields[0]?.[0] !== '00' || fields[0][1] !== '01') fail('payload format indicator 00 must come first and be 01');
  const last = fields[fields.length - 1];
  if (last[0] !== '63' || last[1].length !== 4) fail('the CRC (63, 4 characters) must come last');
  if (pixCrc(code.slice(0, -4)) !== last[1]) fail(`CRC ${last[1]} does not match ${pixCrc(code.slice(0, -4))}`);

  const account = readFields(only(fields, '26', true));
  const gui = only(account, '00', true);
  if (gui.toLowerCase() !== 'br.gov.bcb.pix') fail(`GUI ${gui} is not Pix's`);
  const key = only(account, '01', false);
  const url = only(account, '25', false);
  if (!key && !url) fail('the Pix account has neither key (01) nor URL (25)');

  const mcc = only(fields, '52', true);
  if (!/^\d{4}$/.test(mcc)) fail('MCC must be 4 digits');
  const currency = only(fields, '53', true);
  if (currency !== '986') fail('currency must be 986 (BRL)');
  const amountText = only(fields, '54', false);
  let amount: number | null = null;
  if (amountText !== null) {
    if (amountText.length > 13 || !/^\d+(\.\d{1,2})?$/.test(amountText)) fail(`amount ${amountText} is not a decimal with a dot`);
    amount = Math.round(Number(amountText) * 100);
  }
  const country = only(fields, '58', true);
  if (country !== 'BR') fail('country must be BR');
  const merchantName = only(fields, '59', true);
  if (merchantName.length < 1 || merchantName.length > 25) fail('merchant name must have 1-25 characters');
  const merchantCity = only(fields, '60', true);
  if (merchantCity.length < 1 || merchantCity.length > 15) fail('merchant city must have 1-15 characters');
  const txid = only(readFields(only(fields, '62', true)), '05', true);
  if (!/^([A-Za-z0-9]{1,25}|\*\*\*)$/.test(txid)) fail(`txid ${txid} is not 1-25 letters and digits (or ***)`);

  return { pointOfInitiation: only(fields, '01', false), gui, key, url, mcc, currency, amount, country, merchantName, merchantCity, txid, crc: last[1] };
}
