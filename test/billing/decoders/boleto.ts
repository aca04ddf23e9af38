/**
 * A FEBRABAN bank-boleto reader written for the tests, without the product's encoder
 * (api/billing/providers/boleto.ts). Barcode (44): bank 1-3, currency 4, general check digit 5 (modulo 11 of
 * the other 43 digits, weights 2-9 from the right; results 0, 10 and 11 written as 1), due-date factor 6-9,
 * amount 10-19 (centavos), free field 20-44. Digitable line (47): field 1 = barcode 1-4 + 20-24 + DV, field 2
 * = 25-34 + DV, field 3 = 35-44 + DV (each DV modulo 10: weights 2,1,2… from the right, two-digit products
 * added digit by digit, 10 minus the remainder, 10 written 0), field 4 = barcode 5, field 5 = barcode 6-19.
 * The factor counted days from 1997-10-07 up to 9999 on 2025-02-21 and restarted at 1000 on 2025-02-22.
 */

export class BoletoDecodeError extends Error {}

function fail(reason: string): never {
  throw new BoletoDecodeError(reason);
}

const digitsOf = (s: string) => [...s].map(Number);

/** Modulo 10 digit of one field of the line. */
export function fieldDigit(field: string): number {
  const total = digitsOf(field)
    .reverse()
    .map((d, i) => d * (i % 2 === 0 ? 2 : 1))
    .reduce((sum, p) => sum + Math.floor(p / 10) + (p % 10), 0);
  const r = total % 10;
  return r === 0 ? 0 : 10 - r;
}

/** Modulo 11 general digit of the barcode without it (43 digits). */
export function generalDigit(digits43: string): number {
  const total = digitsOf(digits43)
    .reverse()
    .reduce((sum, d, i) => sum + d * (2 + (i % 8)), 0);
  const dv = 11 - (total % 11);
  return dv >= 10 || dv === 0 ? 1 : dv;
}

const DAY = 24 * 60 * 60 * 1000;
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/**
 * The due date a factor names. A factor repeats every 9000 days since the restart, so it is read as the date
 * nearest to `near` (YYYY-MM-DD) among the 1997 count and the cycles after 2025-02-22.
 */
export function dateOfFactor(factor: number, near: string): string {
  if (factor < 1000 || factor > 9999) fail(`factor ${factor} outside 1000-9999`);
  const candidates: string[] = [];
  const old = addDays('1997-10-07', factor);
  if (old <= '2025-02-21') candidates.push(old);
  for (let cycle = 0; cycle < 4; cycle++) candidates.push(addDays('2025-02-22', factor - 1000 + cycle * 9000));
  const distance = (d: string) => Math.abs(Date.parse(d) - Date.parse(near));
  return candidates.sort((a, b) => distance(a) - distance(b))[0];
}

export interface DecodedBoleto {
  bank: string;
  currency: string;
  generalDigit: string;
  factor: number;
  /** Read near the `near` date given to the decoder. */
  dueDate: string;
  /** Centavos. */
  amount: number;
  freeField: string;
  barcode: string;
}

export function decodeBarcode(barcode: string, near: string): DecodedBoleto {
  if (!/^\d{44}$/.test(barcode)) fail('a barcode has 44 digits');
  const dv = barcode.charAt(4);
  if (String(generalDigit(barcode.slice(0, 4) + barcode.slice(5))) !== dv) fail(`general check digit ${dv} is wrong`);
  const currency = barcode.charAt(3);
  if (currency !== '9') fail(`currency ${currency} is not 9 (real)`);
  const factor = Number(barcode.slice(5, 9));
  return { bank: barcode.slice(0, 3), currency, generalDigit: dv, factor, dueDate: dateOfFactor(factor, near), amount: Number(barcode.slice(9, 19)), freeField: barcode.slice(19), barcode };
}

/** Checks the three field digits and rebuilds the barcode, then reads it. */
export function decodeDigitableLine(line: string, near: string): DecodedBoleto {
  const digits = line.replace(/[ .]/g, '');
  if (!/^\d{47}$/.test(digits)) fail('a digitable line has 47 digits');
  const fields = [digits.slice(0, 10), digits.slice(10, 21), digits.slice(21, 32)];
  fields.forEach((f, i) => {
    if (fieldDigit(f.slice(0, -1)) !== Number(f.slice(-1))) fail(`field ${i + 1} check digit is wrong`);
  });
  const barcode = fields[0].slice(0, 4) + digits.charAt(32) + digits.slice(33) + fields[0].slice(4, 9) + fields[1].slice(0, 10) + fields[2].slice(0, 10);
  return decodeBarcode(barcode, near);
}
