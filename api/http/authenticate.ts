import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { errors } from './errors';
import { verifyAccessToken } from '../auth/tokens';
import type { Actor } from '../policy/policy';
import { AccessLevel, isAccessLevel } from '../policy/levels';
import { isApiToken } from '../apiTokens/tokens';
import { findActiveByToken } from '../apiTokens/queries';

export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  const m = /^Bearer\s+([A-Za-z0-9._~+/=-]{10,4096})$/.exec(header);
  return m?.[1];
}

/**
 * Resolves the bearer token to an Actor. The membership row is read on every request so that a password
 * change, a deactivation or a level change invalidates older tokens at once.
 */
export async function resolveActor(deps: Pick<AppDeps, 'config' | 'knex'>, token: string): Promise<Actor | undefined> {
  const claims = await verifyAccessToken(deps.config.jwtSecret, token);
  if (!claims) return undefined;
  const row = await deps.knex('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where({ 'm.workspace_id': claims.workspaceId, 'm.operator_id': claims.operatorId })
    .first('m.access_level', 'm.is_active', 'm.token_version as member_version', 'o.token_version as operator_version');
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
