/** SPEC §5/§9: the phone mask is at most 19 characters: "+55 (11) 91234-5678" holds 13 digits. */
export const PHONE_MASK_LENGTH = 19;
export const PHONE_MAX_DIGITS = 13;

export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
}

/** Formats as typed: DDI, DDD, then the local number split 4-4 (landline) or 5-4 (mobile, extra 9). */
export function maskPhone(value: string): string {
  const d = phoneDigits(value);
  if (d.length === 0) return '';
  if (d.length <= 2) return `+${d}`;
  if (d.length <= 4) return `+${d.slice(0, 2)} (${d.slice(2)}`;
  const local = d.slice(4);
  const head = `+${d.slice(0, 2)} (${d.slice(2, 4)}) `;
  if (local.length <= 4) return head + local;
  const split = d.length === PHONE_MAX_DIGITS ? 5 : 4;
  return `${head}${local.slice(0, split)}-${local.slice(split)}`;
}
