import type { Knex } from 'knex';
import type { Scope } from '../db/scope';
import type { AccessLevelValue } from '../policy/levels';

/**
 * The two membership changes that must end the member's current sessions in this workspace: each bumps
 * workspace_members.token_version, which authenticate compares on every request. No-ops change nothing.
 */
export async function setMemberLevel(db: Knex, scope: Scope, operatorId: number, accessLevel: AccessLevelValue): Promise<boolean> {
  const n = await db('workspaceMembers')
    .where({ workspaceId: scope.workspaceId, operatorId })
    .whereNot({ accessLevel })
    .update({ accessLevel, tokenVersion: db.raw('token_version + 1') });
  return n > 0;
}

export async function setMemberActive(db: Knex, scope: Scope, operatorId: number, isActive: boolean): Promise<boolean> {
  const n = await db('workspaceMembers')
    .where({ workspaceId: scope.workspaceId, operatorId })
    .whereNot({ isActive })
    .update({ isActive, tokenVersion: db.raw('token_version + 1') });
  return n > 0;
}
