import type { Knex } from 'knex';
import { hashOpaqueToken, newOpaqueToken } from './tokens';
import type { ChallengeStep } from './twoFactorViews';

/**
 * The step between a right password and a session (api/auth/twoFactorGate.ts): an opaque token, stored as
 * its SHA-256 hash, bound to the operator and the workspace being entered.
 */
export type { ChallengeStep };

/** Long enough to find the phone; the setup also needs time to install an app and scan. */
export const CHALLENGE_TTL_MS: Record<ChallengeStep, number> = { code: 10 * 60_000, setup: 30 * 60_000 };
/** Wrong codes one challenge takes before it is spent (then the password is asked again). */
export const CHALLENGE_MAX_FAILURES = 5;

export interface ChallengeRow {
  id: number;
  workspaceId: number;
  operatorId: number;
  step: ChallengeStep;
  failedAttempts: number;
  expiresAt: Date;
}

const COLUMNS = ['id', 'workspaceId', 'operatorId', 'step', 'failedAttempts', 'expiresAt'];

export async function createChallenge(db: Knex, c: { operatorId: number; workspaceId: number; step: ChallengeStep }): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newOpaqueToken();
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS[c.step]);
  await db('twoFactorChallenges').insert({ tokenHash: hash, operatorId: c.operatorId, workspaceId: c.workspaceId, step: c.step, expiresAt });
  return { token, expiresAt };
}

/**
 * Locks a live challenge of that step inside the caller's transaction: a concurrent use of the same token
 * waits here and then finds it spent.
 */
export async function lockChallenge(trx: Knex.Transaction, step: ChallengeStep, token: string): Promise<ChallengeRow | undefined> {
  return trx('twoFactorChallenges')
    .where({ tokenHash: hashOpaqueToken(token), step })
    .whereNull('usedAt')
    .where('expiresAt', '>', trx.fn.now())
    .where('failedAttempts', '<', CHALLENGE_MAX_FAILURES)
    .forUpdate()
    .first(COLUMNS);
}

export async function spendChallenge(db: Knex, id: number): Promise<void> {
  await db('twoFactorChallenges').where({ id }).update({ usedAt: db.fn.now() });
}

/** Counts a wrong code on the challenge (outside the failed transaction, so it sticks). */
export async function countChallengeFailure(db: Knex, id: number): Promise<void> {
  await db('twoFactorChallenges').where({ id }).increment('failedAttempts', 1);
}
