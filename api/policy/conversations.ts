import type { Knex } from 'knex';
import { AccessLevel, type AccessLevelValue } from './levels';
import type { Actor } from './policy';

/**
 * Which conversations an operator may see (SPEC §6, docs/visibility.md). This is the only implementation:
 * list pages, counters, single-conversation lookups, message pages and realtime fan-out all ask it, so a
 * conversation that cannot be opened through the API never reaches anyone another way.
 */

type Db = Knex | Knex.Transaction;

/** An actor plus the groups they belong to: everything the rule needs. */
export interface ConversationViewer {
  workspaceId: number;
  operatorId: number;
  accessLevel: AccessLevelValue;
  groupIds: number[];
}

/** The columns of a conversation (customer_platforms row) the rule reads. */
export interface VisibilityFacts {
  workspaceId: number;
  operatorId: number | null;
  groupId: number | null;
}

/** A WHERE fragment over a customer_platforms alias, with its bindings. */
export interface SqlCondition {
  sql: string;
  bindings: Knex.Value[];
}

type Tier = 'all' | 'master' | 'operator' | 'restricted';

function tierOf(level: number): Tier {
  if (level >= AccessLevel.ADMIN) return 'all';
  if (level >= AccessLevel.MASTER) return 'master';
  if (level >= AccessLevel.OPERATOR) return 'operator';
  return 'restricted';
}

export async function loadViewer(db: Db, actor: Pick<Actor, 'workspaceId' | 'operatorId' | 'accessLevel'>): Promise<ConversationViewer> {
  const rows: { groupId: number }[] = await db('group_members')
    .where({ workspaceId: actor.workspaceId, operatorId: actor.operatorId })
    .select('group_id');
  return { workspaceId: actor.workspaceId, operatorId: actor.operatorId, accessLevel: actor.accessLevel, groupIds: rows.map((r) => r.groupId) };
}

export function canSeeConversation(viewer: ConversationViewer, row: VisibilityFacts): boolean {
  if (row.workspaceId !== viewer.workspaceId) return false;
  if (row.operatorId === viewer.operatorId) return true;
  const inMyGroup = row.groupId !== null && viewer.groupIds.includes(row.groupId);
  switch (tierOf(viewer.accessLevel)) {
    case 'all':
      return true;
    case 'master':
      return row.groupId === null || inMyGroup;
    case 'operator':
      return inMyGroup || (row.operatorId === null && row.groupId === null);
    case 'restricted':
      return row.operatorId === null && (row.groupId === null || inMyGroup);
  }
}

/**
 * The rule as disjoint conditions whose union is what the viewer sees, or null for "everything in the
 * workspace". Each arm is shaped to walk one of the customer_platforms keyset indexes (assignee_idx for
 * operator_id = / IS NULL, group_idx for one group), so a list page can be a UNION ALL of arms that each
 * stop after n rows (docs/data-model.md "Operator visibility with keyset pages"). Disjoint arms mean the
 * union needs no de-duplication.
 */
export function visibilityArms(viewer: ConversationViewer, alias = 'customer_platforms'): SqlCondition[] | null {
  const op = `${alias}.operator_id`;
  const group = `${alias}.group_id`;
  const me = viewer.operatorId;
  const groups = viewer.groupIds;
  switch (tierOf(viewer.accessLevel)) {
    case 'all':
      return null;
    case 'master':
      return [
        { sql: `${op} = ?`, bindings: [me] },
        { sql: `${op} IS DISTINCT FROM ? AND (${group} IS NULL OR ${group} = ANY(?))`, bindings: [me, groups] },
      ];
    case 'operator':
      return [
        { sql: `${op} = ? AND (${group} IS NULL OR ${group} <> ALL(?))`, bindings: [me, groups] },
        ...groups.map((g) => ({ sql: `${group} = ?`, bindings: [g] })),
        { sql: `${op} IS NULL AND ${group} IS NULL`, bindings: [] },
      ];
    case 'restricted':
      return [
        { sql: `${op} = ?`, bindings: [me] },
        { sql: `${op} IS NULL AND (${group} IS NULL OR ${group} = ANY(?))`, bindings: [groups] },
      ];
  }
}

/** The whole rule as one condition (TRUE for those who see everything). */
export function visibilityCondition(viewer: ConversationViewer, alias = 'customer_platforms'): SqlCondition {
  const arms = visibilityArms(viewer, alias);
  if (!arms) return { sql: 'TRUE', bindings: [] };
  return { sql: arms.map((a) => `(${a.sql})`).join(' OR '), bindings: arms.flatMap((a) => a.bindings) };
}

/** Adds the visibility condition to a knex or Objection query on customer_platforms (by alias). */
export function applyVisibility<Q extends { whereRaw(sql: string, bindings: readonly Knex.Value[]): unknown }>(
  qb: Q,
  viewer: ConversationViewer,
  alias = 'customer_platforms',
): Q {
  const c = visibilityCondition(viewer, alias);
  if (c.sql !== 'TRUE') qb.whereRaw(`(${c.sql})`, c.bindings);
  return qb;
}

/**
 * Active members of the workspace who may see this conversation, in one query: who receives its realtime
 * events. Written from the same rule as canSeeConversation (the tests hold the two against each other).
 */
export async function operatorsWhoCanSee(db: Db, workspaceId: number, conversation: Pick<VisibilityFacts, 'operatorId' | 'groupId'>): Promise<number[]> {
  const { operatorId, groupId } = conversation;
  const member = 'EXISTS (SELECT 1 FROM group_members gm WHERE gm.workspace_id = m.workspace_id AND gm.group_id = ? AND gm.operator_id = m.operator_id)';
  const parts: SqlCondition[] = [{ sql: 'm.access_level >= ?', bindings: [AccessLevel.ADMIN] }];
  if (operatorId !== null) parts.push({ sql: 'm.operator_id = ?', bindings: [operatorId] });
  const master = 'm.access_level >= ? AND m.access_level < ?';
  const operator = 'm.access_level >= ? AND m.access_level < ?';
  if (groupId === null) {
    parts.push({ sql: master, bindings: [AccessLevel.MASTER, AccessLevel.ADMIN] });
    if (operatorId === null) parts.push({ sql: 'm.access_level < ?', bindings: [AccessLevel.MASTER] });
  } else {
    parts.push({ sql: `${master} AND ${member}`, bindings: [AccessLevel.MASTER, AccessLevel.ADMIN, groupId] });
    parts.push({ sql: `${operator} AND ${member}`, bindings: [AccessLevel.OPERATOR, AccessLevel.MASTER, groupId] });
    if (operatorId === null) parts.push({ sql: `m.access_level < ? AND ${member}`, bindings: [AccessLevel.OPERATOR, groupId] });
  }
  const rows: { operatorId: number }[] = await db('workspace_members as m')
    .where('m.workspace_id', workspaceId)
    .where('m.is_active', true)
    // The outer parentheses keep the OR'd arms inside the workspace and active conditions above.
    .whereRaw(
      `(${parts.map((p) => `(${p.sql})`).join(' OR ')})`,
      parts.flatMap((p) => p.bindings),
    )
    .orderBy('m.operator_id')
    .select('m.operator_id');
  return rows.map((r) => r.operatorId);
}

/**
 * operatorsWhoCanSee as one condition on a workspace_members row `m`, for a conversation whose operator and
 * group are SQL expressions (columns of a row the same statement wrote: the inbound statement, api/inbound/
 * ingestStatement.ts, names its recipients in the statement that stores the message). The same rule as
 * canSeeConversation, arm by arm (the tests hold the three against each other).
 */
export function memberSeesConversationSql(conversation: { operatorId: string; groupId: string }): SqlCondition {
  const op = conversation.operatorId;
  const group = conversation.groupId;
  const member = `EXISTS (SELECT 1 FROM group_members gm WHERE gm.workspace_id = m.workspace_id AND gm.group_id = ${group} AND gm.operator_id = m.operator_id)`;
  return {
    sql: [
      'm.access_level >= ?',
      `m.operator_id = ${op}`,
      `(m.access_level >= ? AND m.access_level < ? AND (${group} IS NULL OR ${member}))`,
      `(m.access_level >= ? AND m.access_level < ? AND (${member} OR (${op} IS NULL AND ${group} IS NULL)))`,
      `(m.access_level < ? AND ${op} IS NULL AND (${group} IS NULL OR ${member}))`,
    ].join(' OR '),
    bindings: [AccessLevel.ADMIN, AccessLevel.MASTER, AccessLevel.ADMIN, AccessLevel.OPERATOR, AccessLevel.MASTER, AccessLevel.OPERATOR],
  };
}
