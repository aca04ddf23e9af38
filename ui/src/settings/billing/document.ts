import { documentDigits } from '../../../../api/billing/document';

/**
 * The payer's CPF or CNPJ masked as it is typed; its check digits are judged by api/billing/document.ts, the
 * code the subscribe call runs too.
 */

/** "123.456.789-09" while 11 digits or fewer, "12.345.678/0001-95" beyond. */
export function maskDocument(value: string): string {
  const d = documentDigits(value).slice(0, 14);
  if (d.length <= 11) {
    return d.replace(/^(\d{3})(\d)/, '$1.$2').replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3').replace(/\.(\d{3})(\d{1,2})$/, '.$1-$2');
  }
  return d
    .replace(/^(\d{2})(\d)/, '$1.$2')
    .replace(/^(\d{2})\.(\d{3})(\d)/, '$1.$2.$3')
    .replace(/\.(\d{3})(\d)/, '.$1/$2')
    .replace(/(\d{4})(\d{1,2})$/, '$1-$2');
}
