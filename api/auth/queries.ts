import type { Knex } from 'knex';
import type { Operator } from '../models/Operator';
import type { Workspace } from '../models/Workspace';
import type { WorkspaceMember } from '../models/WorkspaceMember';
import type { Subscription } from '../models/Subscription';

/** Reads and small writes on operators, memberships and workspaces used by the account commands. */

export type OperatorRow = Pick<
  Operator,
  'id' | 'name' | 'email' | 'phone' | 'avatar' | 'passwordHash' | 'verificationLevel' | 'tokenVersion'
>;
export type MemberRow = Pick<WorkspaceMember, 'workspaceId' | 'operatorId' | 'accessLevel' | 'isActive' | 'tokenVersion' | 'invitedBy'>;
export type WorkspaceRow = Pick<Workspace, 'id' | 'name' | 'avatar' | 'customerIdentifier' | 'timeZone' | 'powerUps' | 'assignOnManualReply' | 'awayAfterMinutes'>;
export type SubscriptionRow = Pick<Subscription, 'id' | 'expiresAt' | 'license' | 'status'> & { graceEndsAt: Date | null };
export interface WorkspaceListItem {
  workspaceId: number;
  name: string;
  avatar: string | null;
}

const OPERATOR_COLUMNS = ['id', 'name', 'email', 'phone', 'avatar', 'passwordHash', 'verificationLevel', 'tokenVersion'];
const MEMBER_COLUMNS = ['workspaceId', 'operatorId', 'accessLevel', 'isActive', 'tokenVersion', 'invitedBy'];

/** The insert or update collided with a registered operator's address (operators_email_unique). */
export function isEmailUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'operators_email_unique';
}

/**
 * The registered operator (verificationLevel 1 or 2) who owns the address. Pending invitations
 * (verificationLevel 0, one row per inviting workspace) own no address: login, signup and password reset
 * never see them (docs/auth.md "Invitations").
 */
export async function findOperatorByEmail(db: Knex, email: string): Promise<OperatorRow | undefined> {
  return db('operators').whereRaw('lower(email) = ?', [email.toLowerCase()]).where('verificationLevel', '>', 0).first(OPERATOR_COLUMNS);
}

export async function findOperator(db: Knex, id: number): Promise<OperatorRow | undefined> {
  return db('operators').where({ id }).first(OPERATOR_COLUMNS);
}

export async function findMembership(db: Knex, workspaceId: number, operatorId: number): Promise<MemberRow | undefined> {
  return db('workspaceMembers').where({ workspaceId, operatorId }).first(MEMBER_COLUMNS);
}

/** Workspaces where the operator is an active member, oldest membership first ("first workspace" at login). */
export async function activeWorkspaces(db: Knex, operatorId: number): Promise<WorkspaceListItem[]> {
  return db('workspaceMembers as m')
    .join('workspaces as w', 'w.id', 'm.workspace_id')
    .where({ 'm.operator_id': operatorId, 'm.is_active': true })
    .orderBy([{ column: 'm.created_at' }, { column: 'm.workspace_id' }])
    .select('w.id as workspaceId', 'w.name', 'w.avatar');
}

export async function findWorkspace(db: Knex, id: number): Promise<WorkspaceRow | undefined> {
  return db('workspaces').where({ id }).first('id', 'name', 'avatar', 'customerIdentifier', 'timeZone', 'powerUps', 'assignOnManualReply', 'awayAfterMinutes');
}

export async function latestSubscription(db: Knex, workspaceId: number): Promise<SubscriptionRow | undefined> {
  return db('subscriptions')
    .where({ workspaceId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('id', 'expiresAt', 'graceEndsAt', 'license', 'status');
}

/** Every access token signed before this call stops working (authenticate compares versions). */
export async function bumpOperatorVersion(db: Knex, operatorId: number, changes: Record<string, unknown> = {}): Promise<void> {
  await db('operators')
    .where({ id: operatorId })
    .update({ ...changes, tokenVersion: db.raw('token_version + 1'), updatedAt: db.fn.now() });
}
