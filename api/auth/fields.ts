import { z } from 'zod';

/**
 * Field builders shared by the account and workspace schemas. Browser code imports these through the
 * schemas, so this file may import only zod.
 */
export const REQUIRED = 'Campo obrigatório.';
export const PASSWORD_MIN_5 = 'Sua senha deve ter no mínimo 5 caracteres';
export const PASSWORD_MIN_6 = 'Sua senha deve ter no mínimo 6 caracteres';
export const PASSWORDS_DIFFER = 'Suas senhas estão diferentes';

export const NAME_MAX = 120;
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 128;
export const TOKEN_MAX = 200;

const maxText = (n: number) => `Deve ter no máximo ${n} caracteres.`;
// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** "Campo obrigatório." when absent, a type message when present but not text. */
function text(typeMessage = 'Deve ser um texto.') {
  return z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? REQUIRED : typeMessage) });
}

/** A required one-line name (person, company, workspace): trimmed, at most 120 characters. */
export function requiredName(max = NAME_MAX) {
  return text()
    .trim()
    .min(1, { error: REQUIRED, abort: true })
    .max(max, maxText(max))
    .regex(NO_CONTROL, 'Contém caracteres inválidos.');
}

/** Stored and compared lowercased, so one person cannot register twice with different capitalisation. */
export function email() {
  return text()
    .trim()
    .toLowerCase()
    .min(1, { error: REQUIRED, abort: true })
    .max(EMAIL_MAX, { error: maxText(EMAIL_MAX), abort: true })
    .regex(z.regexes.email, 'E-mail inválido.');
}

/** A new password: SPEC §5 gives the minimum (5 on reset, 6 elsewhere) and its message. */
export function newPassword(min: 5 | 6) {
  return text()
    .min(1, { error: REQUIRED, abort: true })
    .min(min, min === 5 ? PASSWORD_MIN_5 : PASSWORD_MIN_6)
    .max(PASSWORD_MAX, maxText(PASSWORD_MAX));
}

/** A password being checked (login): no minimum, an old password may be shorter than today's rule. */
export function currentPassword() {
  return text().min(1, { error: REQUIRED, abort: true }).max(PASSWORD_MAX, maxText(PASSWORD_MAX));
}

/** Opaque tokens from e-mail links and renewal: base64url, bounded. */
export function opaqueToken() {
  return text()
    .trim()
    .min(1, { error: REQUIRED, abort: true })
    .max(TOKEN_MAX, { error: 'Token inválido.', abort: true })
    .regex(/^[A-Za-z0-9_-]+$/, 'Token inválido.');
}

/** A row id; links carry ids as query-string text, so digit strings are accepted too. */
export function id() {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^[1-9][0-9]{0,9}$/.test(v) ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input === undefined || iss.input === null ? REQUIRED : 'Identificador inválido.') })
      .int('Identificador inválido.')
      .positive('Identificador inválido.')
      .max(2147483647, 'Identificador inválido.'),
  );
}

/** Avatar: an uploaded file name or an http(s) URL; never a script or data URL. */
export function avatar() {
  return z
    .string({ error: 'Deve ser um texto.' })
    .trim()
    .max(500, maxText(500))
    .regex(/^(https?:\/\/[^\s"'<>]+|[A-Za-z0-9][A-Za-z0-9._/-]*)?$/, 'Avatar inválido.')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
}

/** Phone as typed in the mask (digits, +, spaces, parentheses, dashes). */
export function phone() {
  return z
    .string({ error: 'Deve ser um texto.' })
    .trim()
    .max(32, maxText(32))
    .regex(/^[0-9+()\s-]*$/, 'Telefone inválido.')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
}
