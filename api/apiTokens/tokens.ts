import { randomBytes } from 'node:crypto';
import { hashOpaqueToken } from '../auth/tokens';

/** API tokens carry this prefix, so authentication tells them from workspace JWTs without trying both. */
export const API_TOKEN_PREFIX = 'blc_';

export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

export function newApiCredentials(): { apiSecret: string; apiToken: string; tokenHash: string; tokenHint: string } {
  const apiToken = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { apiSecret: randomBytes(16).toString('hex'), apiToken, tokenHash: hashOpaqueToken(apiToken), tokenHint: apiToken.slice(-4) };
}

/** What settings shows after the one time the token is given out: only its last characters. */
export function maskedToken(hint: string | null): string | null {
  return hint ? `${API_TOKEN_PREFIX}${'•'.repeat(12)}${hint}` : null;
}
