import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A campaign number as WhatsApp wants it: E.164 digits without '+' (docs/campaigns.md).
 * - With a country code (a leading '+', or 12+ digits) it is read as international; 10 or 11 digits are a
 *   Brazilian number without the 55 (DDD + number).
 * - Brazilian mobiles written without the extra 9 (DDD + 8 digits starting 6–9) get it: WhatsApp
 *   answers both, and one form keeps the same person from being sent twice.
 * Answers null for anything libphonenumber does not hold valid.
 */
export function normalizeCampaignPhone(raw: string): string | null {
  const text = raw.trim();
  if (!text || text.length > 40 || /[a-z]/i.test(text.replace(/^tel:/i, ''))) return null;
  let digits = text.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length < 8 || digits.length > 15) return null;
  const international = text.startsWith('+') || text.startsWith('00') || digits.length >= 12;
  let e164 = international ? `+${digits}` : `+55${digits}`;
  // 55 + DDD (2) + 8 digits of a mobile: add the extra 9.
  const br = /^\+55(\d{2})([6-9]\d{7})$/.exec(e164);
  if (br) e164 = `+55${br[1]}9${br[2]}`;
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number.slice(1);
}
