/**
 * The bank boleto's numbers (FEBRABAN's "Especificações Técnicas do Código de Barras", cobrança bancária):
 * - barcode, 44 digits: bank (3) · currency 9 (1) · general check digit (1, modulo 11 over the other 43) ·
 *   due-date factor (4) · amount in centavos (10) · free field (25, the bank's: agency, nosso número...);
 * - digitable line, 47 digits in five fields: bank + currency + free[0..5) + DV · free[5..15) + DV ·
 *   free[15..25) + DV (each DV modulo 10) · the barcode's check digit · factor + amount.
 * The due-date factor counts days from 1997-10-07; it reached 9999 on 2025-02-21 and restarted at 1000 on
 * 2025-02-22 (FEBRABAN), so from then on it is 1000 + days since 2025-02-22, modulo 9000.
 */

const DAY_MS = 86_400_000;
const FACTOR_BASE = Date.UTC(1997, 9, 7);
const FACTOR_RESTART = Date.UTC(2025, 1, 22);
/** Factor 1000, the first one ever printed (2000-07-03). */
const FIRST_FACTOR_DAY = Date.UTC(2000, 6, 3);

function utcDay(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(t).toISOString().slice(0, 10) !== date) throw new Error(`not a calendar date: ${date}`);
  return t;
}

/** The 4-digit due-date factor of a YYYY-MM-DD due date. */
export function dueDateFactor(date: string): string {
  const day = utcDay(date);
  if (day < FIRST_FACTOR_DAY) throw new Error('boleto due dates start on 2000-07-03');
  if (day < FACTOR_RESTART) return String(Math.round((day - FACTOR_BASE) / DAY_MS));
  return String(1000 + (Math.round((day - FACTOR_RESTART) / DAY_MS) % 9000));
}

/** Modulo 10 check digit of a digitable-line field: weights 2,1,2,1… from the right, products' digits summed. */
export function mod10(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = weight === 2 ? 1 : 2) {
    const p = Number(digits[i]) * weight;
    sum += p > 9 ? p - 9 : p;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Modulo 11 general check digit of the barcode's other 43 digits: weights 2…9 from the right; 0, 10 and 11 become 1. */
export function mod11(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) sum += Number(digits[i]) * weight;
  const dv = 11 - (sum % 11);
  return String(dv === 0 || dv === 10 || dv === 11 ? 1 : dv);
}

export interface BoletoInput {
  /** The bank's 3-digit COMPE code. */
  bank: string;
  /** Centavos, 1 to 99 999 999 99. */
  amount: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The bank's 25 digits. */
  freeField: string;
}

export interface BoletoNumbers {
  barcode: string;
  digitableLine: string;
}

export function boletoNumbers(input: BoletoInput): BoletoNumbers {
  if (!/^\d{3}$/.test(input.bank)) throw new Error('boleto bank code must be 3 digits');
  if (!/^\d{25}$/.test(input.freeField)) throw new Error('boleto free field must be 25 digits');
  if (!Number.isInteger(input.amount) || input.amount <= 0 || input.amount > 99_999_999_99) throw new Error('boleto amount out of range');
  const tail = dueDateFactor(input.dueDate) + String(input.amount).padStart(10, '0');
  const head = `${input.bank}9`;
  const dv = mod11(head + tail + input.freeField);
  const barcode = head + dv + tail + input.freeField;
  return { barcode, digitableLine: digitableLineOf(barcode) };
}

/** The digitable line of a 44-digit barcode. */
export function digitableLineOf(barcode: string): string {
  const withDv = (f: string) => f + mod10(f);
  const free = barcode.slice(19);
  return withDv(barcode.slice(0, 4) + free.slice(0, 5)) + withDv(free.slice(5, 15)) + withDv(free.slice(15, 25)) + barcode[4] + barcode.slice(5, 19);
}

/** Why a digitable line and barcode are not one valid boleto (field check digits, general digit, the two agreeing), or undefined. */
export function boletoProblem(digitableLine: string, barcode: string): string | undefined {
  if (!/^\d{47}$/.test(digitableLine)) return 'a linha digitável não tem 47 dígitos';
  if (!/^\d{44}$/.test(barcode)) return 'o código de barras não tem 44 dígitos';
  if (barcode[3] !== '9') return 'a moeda do boleto não é o real';
  const fields: [string, string][] = [
    [digitableLine.slice(0, 9), digitableLine[9]],
    [digitableLine.slice(10, 20), digitableLine[20]],
    [digitableLine.slice(21, 31), digitableLine[31]],
  ];
  if (fields.some(([digits, dv]) => mod10(digits) !== dv)) return 'um dígito verificador da linha digitável não confere';
  if (mod11(barcode.slice(0, 4) + barcode.slice(5)) !== barcode[4]) return 'o dígito verificador do código de barras não confere';
  if (digitableLineOf(barcode) !== digitableLine) return 'a linha digitável não corresponde ao código de barras';
  return undefined;
}
