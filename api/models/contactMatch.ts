/**
 * The one rule of "this contact matches the search text", for every place that searches contacts (the inbox
 * list, `/inbox/search`, Contatos, the contact pickers): the name contains the text with case and accents
 * folded (`joao` finds `João`, `JOÃO` finds `joão`), or the phone or the e-mail contains it, or the phone
 * contains the digits of a phone-like text (`(11) 98765-4321` finds `5511987654321`). Served by the trigram
 * indexes customers_name_unaccent_trgm_idx (on `balcao_unaccent(name)`), customers_phone_trgm_idx and
 * customers_email_trgm_idx where pg_trgm exists (migrations 20261122100300 and 20261128190000).
 */
import { likePattern } from '../http/listQuery';

export interface SqlFragment {
  sql: string;
  bindings: string[];
}

/** Digits of a phone-like text ("(11) 9 8765-4321"), when they are not the text itself; otherwise null. */
export function phoneDigits(text: string): string | null {
  if (!/^[\d\s()+\-.]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  return digits.length >= 3 && digits !== text ? digits : null;
}

/** The condition, parenthesised, on the customers table under `alias`. */
export function contactMatch(alias: string, text: string): SqlFragment {
  const p = likePattern(text);
  const arms = [`balcao_unaccent(${alias}.name) ILIKE balcao_unaccent(?)`, `${alias}.phone ILIKE ?`, `${alias}.email ILIKE ?`];
  const bindings = [p, p, p];
  const digits = phoneDigits(text);
  if (digits) {
    arms.push(`${alias}.phone LIKE ?`);
    bindings.push(likePattern(digits));
  }
  return { sql: `(${arms.join(' OR ')})`, bindings };
}
