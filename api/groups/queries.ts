import type { Knex } from 'knex';
import { scoped, type Scope } from '../db/scope';
import { errors } from '../http/errors';
import { WorkspaceMember } from '../models/WorkspaceMember';

/** Reads and writes on group_members, always inside one workspace. */

interface MemberLink {
  groupId: number;
  operatorId: number;
}

function links(db: Knex | Knex.Transaction, scope: Scope) {
  return db('groupMembers').where('group_members.workspace_id', scope.workspaceId);
}

/** Operator ids of each group, in one query. */
export async function membersByGroup(db: Knex | Knex.Transaction, scope: Scope, groupIds: number[]): Promise<Map<number, number[]>> {
  const byGroup = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return byGroup;
  const rows: MemberLink[] = await links(db, scope).whereIn('group_id', groupIds).orderBy('operator_id').select('groupId', 'operatorId');
  for (const r of rows) byGroup.get(r.groupId)?.push(r.operatorId);
  return byGroup;
}

/** Group ids of each operator, in one query. */
export async function groupsByOperator(db: Knex | Knex.Transaction, scope: Scope, operatorIds: number[]): Promise<Map<number, number[]>> {
  const byOperator = new Map<number, number[]>(operatorIds.map((id) => [id, []]));
  if (!operatorIds.length) return byOperator;
  const rows: MemberLink[] = await links(db, scope).whereIn('operator_id', operatorIds).orderBy('group_id').select('groupId', 'operatorId');
  for (const r of rows) byOperator.get(r.operatorId)?.push(r.groupId);
  return byOperator;
}

/** A field error on `members` unless every id is a member of the workspace (the FK would only say "bad reference"). */
export async function assertWorkspaceMembers(trx: Knex.Transaction, scope: Scope, operatorIds: number[]): Promise<void> {
  if (!operatorIds.length) return;
  const found = await scoped(WorkspaceMember, scope, trx).whereIn('workspace_members.operator_id', operatorIds).select('workspace_members.operator_id');
  if (found.length !== operatorIds.length) throw errors.field('members', 'Agente não encontrado neste espaço de trabalho.');
}

/** The saved set replaces the previous one; answers who joined and who left (for the engine, api/assignment/memberChanges.ts). */
export async function replaceMembers(trx: Knex.Transaction, scope: Scope, groupId: number, operatorIds: number[]): Promise<{ added: number[]; removed: number[] }> {
  const before: number[] = (await links(trx, scope).where('group_id', groupId).forUpdate().select('operator_id')).map((r: { operatorId: number }) => r.operatorId);
  await links(trx, scope).where('group_id', groupId).delete();
  if (operatorIds.length) {
    await trx('groupMembers').insert(operatorIds.map((operatorId) => ({ workspaceId: scope.workspaceId, groupId, operatorId })));
  }
  return { added: operatorIds.filter((id) => !before.includes(id)), removed: before.filter((id) => !operatorIds.includes(id)) };
}
