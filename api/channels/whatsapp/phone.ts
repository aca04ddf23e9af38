/**
 * Phone and WhatsApp id normalisation shared by both transports (QR and Cloud). A line's phone is kept as
 * digits; the screen shows it with the 19-character mask `+55 (11) 91234-5678` (SPEC §5, §9).
 */
export const PHONE_MASK_LENGTH = 19;
export const INVALID_LINE_PHONE = 'Número inválido. O número precisa incluir: DDI, DDD e o 9 extra';

export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** DDI (2), DDD (2), the extra 9 and 8 digits: 13 digits, whether sent masked or bare. */
export function isValidLinePhone(value: string): boolean {
  if (value.length > PHONE_MASK_LENGTH) return false;
  return /^\d{4}9\d{8}$/.test(digitsOf(value));
}

/** The 19-character mask of a 13-digit line phone; other lengths come back as digits. */
export function maskLinePhone(value: string): string {
  const d = digitsOf(value);
  if (d.length !== 13) return d;
  return `+${d.slice(0, 2)} (${d.slice(2, 4)}) ${d.slice(4, 9)}-${d.slice(9)}`;
}

/** A WhatsApp user id (Cloud `wa_id`, digits) as the Web JID the QR transport uses, and back. */
export function waIdToJid(waId: string): string {
  return `${digitsOf(waId)}@s.whatsapp.net`;
}

export function jidToWaId(jid: string): string | null {
  const m = /^(\d+)(?::\d+)?@s\.whatsapp\.net$/.exec(jid);
  return m ? m[1] : null;
}
