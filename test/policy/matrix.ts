import type { AppDeps } from '../../api/deps';
import type { AccessLevelValue } from '../../api/policy/levels';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, makeGroup, type TestChannel } from '../inbox/factories';

export const LEVELS: AccessLevelValue[] = [10, 9, 6, 3, 2];

export interface Viewer extends TestOperator {
  member: boolean;
  label: string;
}

export interface MatrixConversation {
  id: number;
  visitor: string;
  operatorId: number | null;
  groupId: number | null;
  label: string;
}

export interface Matrix {
  ws: TestWorkspace;
  channel: TestChannel;
  groupId: number;
  viewers: Viewer[];
  /** An assignee who is none of the viewers ("assigned to someone else" for everyone). */
  other: TestOperator;
  /** An owner whose membership is inactive: never a recipient. */
  inactive: TestOperator;
  conversations: MatrixConversation[];
}

/**
 * SPEC §6 as docs/api/inbox.md states it, written out independently of api/policy/conversations.ts so
 * the tests compare the implementation with the rule, not with itself.
 */
export function expectedVisible(viewer: { id: number; accessLevel: number; member: boolean }, c: { operatorId: number | null; groupId: number | null }): boolean {
  const own = c.operatorId === viewer.id;
  const unassigned = c.operatorId === null;
  const noGroup = c.groupId === null;
  const myGroup = !noGroup && viewer.member;
  switch (viewer.accessLevel) {
    case 10:
    case 9:
      return true;
    case 6:
      return own || noGroup || myGroup;
    case 3:
      return own || myGroup || (unassigned && noGroup);
    case 2:
      return own || (unassigned && (noGroup || myGroup));
    default:
      throw new Error(`level ${viewer.accessLevel}`);
  }
}

/**
 * 5 levels × member of the group or not = 10 viewers; conversations assigned to each viewer, to someone
 * else and to nobody, each in the group and in no group: 24 conversations, all unread and open.
 */
export async function buildMatrix(deps: AppDeps): Promise<Matrix> {
  const { knex } = deps;
  const secret = deps.config.jwtSecret;
  const ws = await makeWorkspace(knex);
  const channel = await makeChannel(knex, ws);
  const viewers: Viewer[] = [];
  for (const level of LEVELS) {
    for (const member of [true, false]) {
      const op = await makeOperator(knex, secret, ws, level);
      viewers.push({ ...op, member, label: `nível ${level} ${member ? 'membro' : 'não membro'}` });
    }
  }
  const other = await makeOperator(knex, secret, ws, 3);
  const inactive = await makeOperator(knex, secret, ws, 10, { isActive: false });
  const groupId = await makeGroup(knex, ws, [...viewers.filter((v) => v.member).map((v) => v.id), inactive.id]);

  const assignees: { id: number | null; label: string }[] = [...viewers.map((v) => ({ id: v.id, label: `atribuída a ${v.label}` })), { id: other.id, label: 'atribuída a outro' }, { id: null, label: 'sem atribuição' }];
  const conversations: MatrixConversation[] = [];
  for (const a of assignees) {
    for (const g of [groupId, null]) {
      const c = await makeConversation(deps, channel, { operatorId: a.id, groupId: g });
      conversations.push({ id: c.conversationId, visitor: c.visitor, operatorId: a.id, groupId: g, label: `${a.label}, ${g ? 'no grupo' : 'sem grupo'}` });
    }
  }
  return { ws, channel, groupId, viewers, other, inactive, conversations };
}

export function visibleIds(m: Matrix, viewer: Viewer): number[] {
  return m.conversations.filter((c) => expectedVisible(viewer, c)).map((c) => c.id).sort((a, b) => a - b);
}
