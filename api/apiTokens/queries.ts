import type { Knex } from 'knex';
import { scoped, type Scope } from '../db/scope';
import { ApiSecret } from '../models/ApiSecret';
import { hashOpaqueToken } from '../auth/tokens';

/** The workspace's current (not revoked) credentials, if any were generated. */
export async function currentApiSecret(_knex: Knex, scope: Scope): Promise<ApiSecret | undefined> {
  const row = await scoped(ApiSecret, scope, undefined).modify('active').orderBy('api_secrets.created_at', 'desc').orderBy('api_secrets.id', 'desc').first();
  return row as ApiSecret | undefined;
}

/** Revokes every active credential of the workspace and stores the new one, in one transaction. */
export async function replaceApiSecret(
  knex: Knex,
  scope: Scope,
  values: { secret: string; tokenHash: string; tokenHint: string; createdBy: number | null },
): Promise<ApiSecret> {
  return ApiSecret.transaction(knex, async (trx) => {
    await scoped(ApiSecret, scope, trx).modify('active').patch({ revokedAt: new Date() } as never);
    return ApiSecret.query(trx).insert({ ...values, workspaceId: scope.workspaceId } as never);
  });
}

/**
 * Not workspace-scoped on purpose: the token is what names the workspace. Only the hash is compared, and
 * a revoked row never matches.
 */
export async function findActiveByToken(knex: Knex, token: string): Promise<{ workspaceId: number; createdBy: number | null } | undefined> {
  return knex('api_secrets')
    .where({ token_hash: hashOpaqueToken(token) })
    .whereNull('revoked_at')
    .first('workspace_id as workspaceId', 'created_by as createdBy');
}
