/**
 * The payer's CPF or CNPJ (Receita Federal's check digits), pure: the subscribe form and the api check it with
 * the same code before any provider sees it.
 */

export const DOCUMENT_MESSAGES = {
  required: 'Informe o CPF ou o CNPJ de quem paga a assinatura.',
  length: 'Informe um CPF (11 dígitos) ou um CNPJ (14 dígitos).',
  cpf: 'CPF inválido: confira os dígitos.',
  cnpj: 'CNPJ inválido: confira os dígitos.',
} as const;

/** The digits of a document as typed ('123.456.789-09', '11.444.777/0001-61'). */
export const documentDigits = (value: string) => value.replace(/\D/g, '');

/** A check digit of the mod-11 rule over `digits` with `weights`. */
function checkDigit(digits: number[], weights: number[]): number {
  const rest = weights.reduce((sum, w, i) => sum + digits[i]! * w, 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function validCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  return checkDigit(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[9] && checkDigit(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[10];
}

export function validCnpj(digits: string): boolean {
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  return checkDigit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[12] && checkDigit(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[13];
}

/** Why a typed document is refused, or null (digits only are judged: punctuation is allowed). */
export function documentProblem(value: string): string | null {
  const digits = documentDigits(value);
  if (!digits) return DOCUMENT_MESSAGES.required;
  if (digits.length === 11) return validCpf(digits) ? null : DOCUMENT_MESSAGES.cpf;
  if (digits.length === 14) return validCnpj(digits) ? null : DOCUMENT_MESSAGES.cnpj;
  return DOCUMENT_MESSAGES.length;
}
