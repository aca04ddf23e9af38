import type { Knex } from 'knex';
import { hashOpaqueToken, newOpaqueToken } from './tokens';
import type { AccountTokenPurpose } from '../models/AccountToken';

/** Single-use opaque tokens (e-mail links, renewal), stored only as their SHA-256 hash. */

export const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  reset_password: 60 * 60 * 1000,
  confirm_email: 7 * 24 * 60 * 60 * 1000,
  invite: 7 * 24 * 60 * 60 * 1000,
  renewal: 30 * 24 * 60 * 60 * 1000,
};

export interface AccountTokenRow {
  id: number;
  purpose: AccountTokenPurpose;
  operatorId: number;
  workspaceId: number | null;
  accessLevel: number | null;
  invitedBy: number | null;
  data: { groups?: number[] };
  expiresAt: Date;
}

export interface NewAccountToken {
  purpose: AccountTokenPurpose;
  operatorId: number;
  workspaceId?: number | null;
  accessLevel?: number | null;
  invitedBy?: number | null;
  data?: Record<string, unknown>;
}

const COLUMNS = ['id', 'purpose', 'operatorId', 'workspaceId', 'accessLevel', 'invitedBy', 'data', 'expiresAt'];

/** Stores the hash and returns the only copy of the token, for the link or the response. */
export async function createAccountToken(db: Knex, t: NewAccountToken): Promise<string> {
  const { token, hash } = newOpaqueToken();
  await db('accountTokens').insert({
    purpose: t.purpose,
    tokenHash: hash,
    operatorId: t.operatorId,
    workspaceId: t.workspaceId ?? null,
    accessLevel: t.accessLevel ?? null,
    invitedBy: t.invitedBy ?? null,
    data: JSON.stringify(t.data ?? {}),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[t.purpose]),
  });
  return token;
}

function valid(db: Knex, purpose: AccountTokenPurpose, token: string) {
  return db('accountTokens')
    .where({ tokenHash: hashOpaqueToken(token), purpose })
    .whereNull('usedAt')
    .where('expiresAt', '>', db.fn.now());
}

/** Reads an unused, unexpired token without spending it (the invitation page shows who invited). */
export async function peekToken(db: Knex, purpose: AccountTokenPurpose, token: string): Promise<AccountTokenRow | undefined> {
  return valid(db, purpose, token).first(COLUMNS);
}

/**
 * Locks an unused, unexpired token inside the caller's transaction; a concurrent use of the same token
 * waits here and then finds it spent.
 */
export async function lockToken(trx: Knex.Transaction, purpose: AccountTokenPurpose, token: string): Promise<AccountTokenRow | undefined> {
  return valid(trx, purpose, token).forUpdate().first(COLUMNS);
}

export async function markTokenUsed(db: Knex, id: number): Promise<void> {
  await db('accountTokens').where({ id }).update({ usedAt: db.fn.now() });
}

/** Spends every open token of a purpose (all renewal tokens after a password change, older reset links...). */
export async function revokeTokens(
  db: Knex,
  operatorId: number,
  purpose: AccountTokenPurpose,
  workspaceId?: number,
): Promise<void> {
  const q = db('accountTokens').where({ operatorId, purpose }).whereNull('usedAt');
  if (workspaceId !== undefined) q.where({ workspaceId });
  await q.update({ usedAt: db.fn.now() });
}

/** An invitation token that is unknown, used, expired or not the invitee's (completing a register or joining). */
export const INVALID_INVITE = 'Convite inválido ou expirado. Peça um novo convite ao administrador do workspace.';
