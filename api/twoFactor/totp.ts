import { generateSecret, generateURI, verify } from 'otplib';

/**
 * TOTP (RFC 6238) through otplib: SHA-1, 6 digits, 30-second steps — what every authenticator app reads
 * from the QR code. One step of clock drift is tolerated either way.
 */
export const ISSUER = 'Balcão';
const PERIOD_SECONDS = 30;
const DRIFT_SECONDS = PERIOD_SECONDS;

/** A new 160-bit secret, base32 (what the app is given by the QR code or typed by hand). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI the QR code carries: the app lists it as "Balcão (e-mail)". */
export function otpauthUri(secret: string, email: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret, period: PERIOD_SECONDS });
}

/**
 * The time step the code belongs to, or undefined when it matches none of the steps around now. Whether
 * that step was already used is the caller's check (it keeps the last one per operator).
 */
export async function totpStep(secret: string, code: string, epochSeconds = Math.floor(Date.now() / 1000)): Promise<number | undefined> {
  const result = await verify({ secret, token: code, period: PERIOD_SECONDS, epoch: epochSeconds, epochTolerance: DRIFT_SECONDS });
  // The result type also covers HOTP, which has no time step.
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
