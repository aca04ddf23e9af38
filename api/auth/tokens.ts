import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { AccessLevelValue } from '../policy/levels';

/** Access tokens are short-lived; the UI renews them with the renewal token before they expire. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const RENEWAL_TOKEN_TTL_DAYS = 30;

export interface AccessClaims {
  operatorId: number;
  workspaceId: number;
  accessLevel: AccessLevelValue;
  /** operators.token_version at signing time (password change bumps it). */
  operatorVersion: number;
  /** workspace_members.token_version at signing time (deactivation, level change bump it). */
  memberVersion: number;
}

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ ws: claims.workspaceId, lvl: claims.accessLevel, ov: claims.operatorVersion, mv: claims.memberVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.operatorId))
    .setIssuedAt()
    .setIssuer('balcao')
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(key(secret));
}

/** Returns the claims, or undefined for a token that is malformed, forged or expired. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: 'balcao', algorithms: ['HS256'] });
    const operatorId = Number(payload.sub);
    const { ws, lvl, ov, mv } = payload as Record<string, unknown>;
    if (!Number.isInteger(operatorId) || typeof ws !== 'number' || typeof lvl !== 'number' || typeof ov !== 'number' || typeof mv !== 'number') {
      return undefined;
    }
    return { operatorId, workspaceId: ws, accessLevel: lvl as AccessLevelValue, operatorVersion: ov, memberVersion: mv };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return undefined;
    throw err;
  }
}

/** High-entropy opaque tokens (e-mail links, renewal): 256 bits, stored only as a SHA-256 hash. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
