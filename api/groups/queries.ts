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
export function membersByGroup(db: Knex | Knex.Transaction, scope: Scope, groupIds: number[]): Promise<Map<number, number[]>> {
  return linkedIds(db, scope, 'groupId', groupIds);
}

/** Group ids of each operator, in one query. */
export function groupsByOperator(db: Knex | Knex.Transaction, scope: Scope, operatorIds: number[]): Promise<Map<number, number[]>> {
  return linkedIds(db, scope, 'operatorId', operatorIds);
}

/** For each id on one side of group_members (`by`), the ids linked to it on the other side, in order. */
async function linkedIds(db: Knex | Knex.Transaction, scope: Scope, by: keyof MemberLink, ids: number[]): Promise<Map<number, number[]>> {
  const other: keyof MemberLink = by === 'groupId' ? 'operatorId' : 'groupId';
  const column = (key: keyof MemberLink) => (key === 'groupId' ? 'group_id' : 'operator_id');
  const linked = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (!ids.length) return linked;
  const rows: MemberLink[] = await links(db, scope).whereIn(column(by), ids).orderBy(column(other)).select('groupId', 'operatorId');
  for (const r of rows) linked.get(r[by])?.push(r[other]);
  return linked;
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
