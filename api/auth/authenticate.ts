import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { decodeJwt } from 'jose';
import { verifyAccessToken, type AccessClaims } from './tokens';
import type { Actor } from '../policy/policy';
import { AccessLevel, isAccessLevel, type AccessLevelValue } from '../policy/levels';
import { isApiToken } from '../apiTokens/tokens';
import { findActiveByToken } from '../apiTokens/queries';
import { membershipCacheFor, type MembershipFacts } from './membershipCache';

/** Facts a caller's `accepts` let through: among them, a known access level. */
type AcceptedFacts = MembershipFacts & { accessLevel: AccessLevelValue };

export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  const m = /^Bearer\s+([A-Za-z0-9._~+/=-]{10,4096})$/.exec(header);
  return m?.[1];
}

const VERIFIED_MAX = 10_000;
const VERIFIED_TTL_MS = 5 * 60_000;
const verified = new Map<string, Map<string, { claims: AccessClaims; until: number }>>();

/**
 * verifyAccessToken, remembered per secret for a few minutes (never past the token's expiry): a client
 * sends the same token on every request, and the signature check is the costliest step of the floor
 * (bench/README.md). Only the signature and expiry are remembered; the membership is checked every time.
 */
async function verifyRemembered(secret: string, token: string): Promise<AccessClaims | undefined> {
  let bySecret = verified.get(secret);
  if (!bySecret) verified.set(secret, (bySecret = new Map()));
  const now = Date.now();
  const hit = bySecret.get(token);
  if (hit && now < hit.until) return hit.claims;
  const claims = await verifyAccessToken(secret, token);
  if (!claims) return undefined;
  const exp = decodeJwt(token).exp;
  if (bySecret.size >= VERIFIED_MAX) bySecret.clear();
  bySecret.set(token, { claims, until: Math.min(now + VERIFIED_TTL_MS, exp === undefined ? now : exp * 1000) });
  return claims;
}

/**
 * Resolves the bearer token to an Actor. The membership facts are checked on every request so that a
 * password change, a deactivation or a level change invalidates older tokens (api/http/membershipCache.ts:
 * at once on the process that made the change, within MEMBERSHIP_MAX_AGE_MS on the others). Facts that
 * would refuse the token are re-read from the database first, so a stale entry never refuses a new token.
 * The MQTT CONNECT check uses this too (api/realtime/access.ts).
 */
export async function resolveActor(deps: Pick<AppDeps, 'config' | 'knex'>, token: string): Promise<Actor | undefined> {
  const claims = await verifyRemembered(deps.config.jwtSecret, token);
  if (!claims) return undefined;
  // An unnamed arrow: tsx names every named closure with a call of its own, per request here.
  const row = await membershipCacheFor(deps.knex).get(claims.workspaceId, claims.operatorId, (facts) => sessionAccepts(claims, facts));
  if (!row || !sessionAccepts(claims, row)) return undefined;
  return { operatorId: claims.operatorId, workspaceId: claims.workspaceId, accessLevel: row.accessLevel, kind: 'operator' };
}

/** The membership still backs the session token: active, same versions, a known level. */
function sessionAccepts(claims: AccessClaims, row: MembershipFacts): row is AcceptedFacts {
  return row.isActive && row.memberVersion === claims.memberVersion && row.operatorVersion === claims.operatorVersion && isAccessLevel(row.accessLevel);
}

/** The level the API token's holder needs: the one that shows and generates it (POST /api/workspace/secrets). */
export const API_TOKEN_MIN_LEVEL = AccessLevel.MASTER;

/**
 * The workspace API token (docs/api-token.md) acts as the member who generated it, with that member's
 * current level and visibility, re-checked on every use like a session token: never above what they may
 * do themselves. A holder deactivated, removed, demoted below API_TOKEN_MIN_LEVEL or deleted makes it fail
 * (401). Regenerating revokes the row, so the old token fails at once. Only the HTTP API accepts it:
 * resolveActor (also the MQTT CONNECT check) stays JWT-only.
 */
export async function resolveApiActor(deps: Pick<AppDeps, 'knex'>, token: string): Promise<Actor | undefined> {
  const row = await findActiveByToken(deps.knex, token);
  if (!row || row.createdBy === null) return undefined;
  const holder = await membershipCacheFor(deps.knex).get(row.workspaceId, row.createdBy, holderAccepts);
  if (!holder || !holderAccepts(holder)) return undefined;
  return { operatorId: row.createdBy, workspaceId: row.workspaceId, accessLevel: holder.accessLevel, kind: 'api' };
}

function holderAccepts(facts: MembershipFacts): facts is AcceptedFacts {
  return facts.isActive && isAccessLevel(facts.accessLevel) && facts.accessLevel >= API_TOKEN_MIN_LEVEL;
}

/** Requires a valid workspace token; sets ctx.state.actor. */
export function authenticate(deps: AppDeps) {
  return async function requireActor(ctx: Context, next: Next): Promise<void> {
    const token = bearerToken(ctx);
    if (!token) throw errors.authentication('Token de acesso ausente.');
    const actor = isApiToken(token) ? await resolveApiActor(deps, token) : await resolveActor(deps, token);
    if (!actor) throw errors.authentication();
    ctx.state.actor = actor;
    await next();
  };
}

export function actorOf(ctx: Context): Actor {
  const actor = ctx.state.actor as Actor | undefined;
  if (!actor) throw errors.authentication();
  return actor;
}
