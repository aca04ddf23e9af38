import type { Knex } from 'knex';
import type { Scope } from '../db/scope';
import type { AccessLevelValue } from '../policy/levels';

/**
 * The two membership changes that must end the member's current sessions in this workspace: each bumps
 * workspace_members.token_version, which authenticate compares on every request. No-ops change nothing.
 */
export function setMemberLevel(db: Knex, scope: Scope, operatorId: number, accessLevel: AccessLevelValue): Promise<boolean> {
  return changeMember(db, scope, operatorId, { accessLevel });
}

export function setMemberActive(db: Knex, scope: Scope, operatorId: number, isActive: boolean): Promise<boolean> {
  return changeMember(db, scope, operatorId, { isActive });
}

/** Writes the one field when it differs, bumping the token version with it; true when it changed. */
async function changeMember(db: Knex, scope: Scope, operatorId: number, change: { accessLevel: AccessLevelValue } | { isActive: boolean }): Promise<boolean> {
  const n = await db('workspaceMembers')
    .where({ workspaceId: scope.workspaceId, operatorId })
    .whereNot(change)
    .update({ ...change, tokenVersion: db.raw('token_version + 1') });
  return n > 0;
}
