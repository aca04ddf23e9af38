/**
 * The Pix BR Code (BCB's "Manual de Padrões para Iniciação do Pix", EMV® QRCPS Merchant Presented Mode): a
 * string of fields `ID(2) length(2) value`, the Pix account under ID 26 (GUI `br.gov.bcb.pix` with the key in
 * 01, or the PSP's URL in 25 for a dynamic code), ending with the CRC in 63: CRC-16/CCITT-FALSE (poly 0x1021,
 * init 0xFFFF) over the whole string up to and including `6304`, four upper-case hex digits.
 */

export const PIX_GUI = 'br.gov.bcb.pix';

/** CRC-16/CCITT-FALSE of `text` (its UTF-8 bytes), as the BR Code writes it. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Centavos as the BR Code's amount (ID 54): reais with a dot and two decimals. */
export function brCodeAmount(centavos: number): string {
  return `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
}

/** What the manual allows in names and city: ASCII letters, digits and spaces (accents dropped, not mangled). */
function plain(text: string, max: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  const out = ascii.slice(0, max).trim();
  if (!out) throw new Error('BR Code name and city need letters or digits');
  return out;
}

export interface StaticPixCode {
  /** The receiver's Pix key (an EVP, e-mail, +55 phone, CPF or CNPJ). */
  key: string;
  /** At most 25 characters once plain. */
  merchantName: string;
  /** At most 15 characters once plain. */
  merchantCity: string;
  /** Centavos, > 0. */
  amount: number;
  /** The charge's txid: 1-25 letters and digits. */
  txid: string;
}

/** A single-use BR Code with the amount and txid (ID 01 = 12: the payer's app may not reuse it). */
export function pixBrCode(code: StaticPixCode): string {
  if (!Number.isInteger(code.amount) || code.amount <= 0) throw new Error('BR Code amount must be a positive number of centavos');
  if (!/^[A-Za-z0-9]{1,25}$/.test(code.txid)) throw new Error('BR Code txid must be 1-25 letters and digits');
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', PIX_GUI) + field('01', code.key)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', brCodeAmount(code.amount)) +
    field('58', 'BR') +
    field('59', plain(code.merchantName, 25)) +
    field('60', plain(code.merchantCity, 15)) +
    field('62', field('05', code.txid)) +
    '6304';
  return body + crc16(body);
}

/** A BR Code's fields by ID (the templates 26 and 62 with their own sub-fields); throws on a malformed string. */
export interface ParsedBrCode {
  fields: Map<string, string>;
  account: Map<string, string>;
  additional: Map<string, string>;
  crcOk: boolean;
}

function tlv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const len = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(text.slice(i + 2, i + 4)) || i + 4 + len > text.length) throw new Error('malformed BR Code field');
    if (out.has(id)) throw new Error(`repeated BR Code field ${id}`);
    out.set(id, text.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

export function parseBrCode(code: string): ParsedBrCode {
  const fields = tlv(code);
  const crc = fields.get('63');
  if (crc === undefined || !code.endsWith(`6304${crc}`)) throw new Error('BR Code does not end with its CRC (63)');
  const crcOk = /^[0-9A-F]{4}$/.test(crc) && crc16(code.slice(0, -4)) === crc;
  return { fields, account: tlv(fields.get('26') ?? ''), additional: tlv(fields.get('62') ?? ''), crcOk };
}
