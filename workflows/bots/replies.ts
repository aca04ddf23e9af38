/**
 * How the bot reads a contact's reply (docs/bots.md "Actions"). Pure and deterministic: the bot-session
 * workflow runs it, so it lives under workflows/ (DESIGN §5) and imports nothing with side effects (no Node
 * built-ins, no zod, nothing from api/ or activities/ but types); the api imports it from here when it needs it.
 */

import type { ResponseType } from '../../api/bots/schema';

export type ReplyCheck = { ok: true; value: string } | { ok: false };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER = /^-?\d+(?:[.,]\d+)?$/;
const DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

function validCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(digits[i]) * (len + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/**
 * Checks a reply against the input's response type and gives the value to store: text (anything not
 * blank), number (integer or decimal, comma or point), email (lower-cased), phone (8 to 15 digits,
 * optional leading +, separators dropped), date (dd/mm/aaaa, a real calendar day), cpf (11 digits with
 * valid check digits, stored as digits).
 */
export function checkReply(responseType: ResponseType, reply: string): ReplyCheck {
  const text = reply.trim();
  if (!text) return { ok: false };
  switch (responseType) {
    case 'text':
      return { ok: true, value: text.slice(0, 500) };
    case 'number':
      return NUMBER.test(text) ? { ok: true, value: text } : { ok: false };
    case 'email': {
      const email = text.toLowerCase();
      return EMAIL.test(email) && email.length <= 254 ? { ok: true, value: email } : { ok: false };
    }
    case 'phone': {
      if (!/^\+?[\d\s().-]+$/.test(text)) return { ok: false };
      const digits = text.replace(/\D/g, '');
      if (digits.length < 8 || digits.length > 15) return { ok: false };
      return { ok: true, value: (text.startsWith('+') ? '+' : '') + digits };
    }
    case 'date': {
      const m = DATE.exec(text);
      if (!m) return { ok: false };
      const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const d = new Date(Date.UTC(year, month - 1, day));
      if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return { ok: false };
      return { ok: true, value: `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}` };
    }
    case 'cpf': {
      if (!/^[\d.\s-]+$/.test(text)) return { ok: false };
      const digits = text.replace(/\D/g, '');
      return validCpf(digits) ? { ok: true, value: digits } : { ok: false };
    }
    default:
      return { ok: false };
  }
}

interface MenuLike {
  title: string;
  text: string;
  options: { name: string; goTo?: string | null }[];
}

/** The menu as one message: title, text, then one numbered line per option ('1 - Vendas'). */
export function menuText(menu: MenuLike): string {
  const lines = [menu.title.trim(), menu.text.trim()].filter(Boolean);
  menu.options.forEach((o, i) => lines.push(`${i + 1} - ${o.name}`));
  return lines.join('\n');
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

/** The option a reply picks: its number ('2', '2.', '2)') or its name (case and accents ignored); -1 when none. */
export function pickOption(menu: Pick<MenuLike, 'options'>, reply: string): number {
  const n = /^\s*(\d{1,3})\s*[.)-]?\s*$/.exec(reply);
  if (n) {
    const i = Number(n[1]) - 1;
    return i >= 0 && i < menu.options.length ? i : -1;
  }
  const wanted = fold(reply);
  return wanted ? menu.options.findIndex((o) => fold(o.name) === wanted) : -1;
}
