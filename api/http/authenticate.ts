import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { errors } from './errors';
import { decodeJwt } from 'jose';
import { verifyAccessToken, type AccessClaims } from '../auth/tokens';
import type { Actor } from '../policy/policy';
import { AccessLevel, isAccessLevel } from '../policy/levels';
import { isApiToken } from '../apiTokens/tokens';
import { findActiveByToken } from '../apiTokens/queries';
import { membershipCacheFor } from './membershipCache';

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
 * password change, a deactivation or a level change invalidates older tokens at once; they come from the
 * process's membership cache, which drops an entry as soon as the change commits (api/http/membershipCache.ts).
 */
export async function resolveActor(deps: Pick<AppDeps, 'config' | 'knex'>, token: string): Promise<Actor | undefined> {
  const claims = await verifyRemembered(deps.config.jwtSecret, token);
  if (!claims) return undefined;
  const row = await membershipCacheFor(deps.knex).get(claims.workspaceId, claims.operatorId);
  if (!row || !row.isActive) return undefined;
  if (row.memberVersion !== claims.memberVersion || row.operatorVersion !== claims.operatorVersion) return undefined;
  if (!isAccessLevel(row.accessLevel)) return undefined;
  return { operatorId: claims.operatorId, workspaceId: claims.workspaceId, accessLevel: row.accessLevel, kind: 'operator' };
}

/**
 * The workspace API token (docs/api-token.md): an 'api' actor at level ADMIN, acting as the operator who
 * generated it (0 when that person is gone). Regenerating revokes the row, so the old token fails at once.
 * Only the HTTP API accepts it: resolveActor (also the MQTT CONNECT check) stays JWT-only.
 */
export async function resolveApiActor(deps: Pick<AppDeps, 'knex'>, token: string): Promise<Actor | undefined> {
  const row = await findActiveByToken(deps.knex, token);
  if (!row) return undefined;
  return { operatorId: row.createdBy ?? 0, workspaceId: row.workspaceId, accessLevel: AccessLevel.ADMIN, kind: 'api' };
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
