import { z } from 'zod';
import { REQUIRED, opaqueToken } from '../auth/fields';

/**
 * Request bodies of the two-factor calls (docs/two-factor.md), shared by the API and the forms of
 * ui/src/auth/twoFactor. Browser code imports this file: it may import only zod (and the zod-only fields).
 */

export const TOTP_DIGITS = 6;
/** Backup codes: 10 characters shown as two groups of five ("k7m2p-x9q4r"). */
export const BACKUP_CODE_LENGTH = 10;

export const CODE_INVALID = 'Digite os 6 dígitos do aplicativo autenticador ou um código de recuperação.';
export const TOTP_INVALID = 'Digite os 6 dígitos mostrados no aplicativo autenticador.';

/** Spaces and dashes are how people copy codes ("123 456", "k7m2p-x9q4r"); case does not matter. */
const normalized = () =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? REQUIRED : 'Deve ser um texto.') })
    .max(64, { error: CODE_INVALID, abort: true })
    .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
    .pipe(z.string().min(1, { error: REQUIRED, abort: true }));

/** A code from the authenticator app: exactly 6 digits. */
export function totpCode() {
  return normalized().pipe(z.string().regex(/^[0-9]{6}$/, TOTP_INVALID));
}

/** A code from the app or one of the backup codes. */
export function anyCode() {
  return normalized().pipe(z.string().regex(new RegExp(`^([0-9]{${TOTP_DIGITS}}|[a-z0-9]{${BACKUP_CODE_LENGTH}})$`), CODE_INVALID));
}

/** POST /operators/two-factor/setup: no fields (an empty body, or none). */
export const TwoFactorSetupSchema = z.strictObject({});

/** POST /operators/two-factor/enable: the first code of the app, proving it holds the new secret. */
export const TwoFactorEnableSchema = z.strictObject({ code: totpCode() });
export type TwoFactorEnableReq = z.infer<typeof TwoFactorEnableSchema>;

/** POST /operators/two-factor/disable and /backup-codes: a current code (or a backup code). */
export const TwoFactorCodeSchema = z.strictObject({ code: anyCode() });
export type TwoFactorCodeReq = z.infer<typeof TwoFactorCodeSchema>;

/** POST /operators/login/two-factor: the step after the password. */
export const TwoFactorLoginSchema = z.strictObject({ challengeToken: opaqueToken(), code: anyCode() });
export type TwoFactorLoginReq = z.infer<typeof TwoFactorLoginSchema>;

/** POST /operators/login/two-factor/setup: start the setup a workspace requires, during login. */
export const TwoFactorChallengeSchema = z.strictObject({ challengeToken: opaqueToken() });
export type TwoFactorChallengeReq = z.infer<typeof TwoFactorChallengeSchema>;

/** POST /operators/login/two-factor/enable: finish that setup with the app's first code. */
export const TwoFactorLoginEnableSchema = z.strictObject({ challengeToken: opaqueToken(), code: totpCode() });
export type TwoFactorLoginEnableReq = z.infer<typeof TwoFactorLoginEnableSchema>;

/** PUT /workspace/two-factor: the owner requires (or stops requiring) two-factor login of every member. */
export const TwoFactorRequirementSchema = z.strictObject({
  required: z.boolean({ error: (iss) => (iss.input === undefined || iss.input === null ? REQUIRED : 'Deve ser verdadeiro ou falso.') }),
});
export type TwoFactorRequirementReq = z.infer<typeof TwoFactorRequirementSchema>;
