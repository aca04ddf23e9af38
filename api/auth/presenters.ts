import type { MemberRow, OperatorRow, SubscriptionRow, WorkspaceListItem, WorkspaceRow } from './queries';

/** The user object of DESIGN.md §3 (login, signup, profile, session). */
export interface UserView {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  avatar: string | null;
  verificationLevel: number;
  isActive: boolean;
  accessLevel: number;
  workspaces: { workspaceId: number; workspace: string; avatar: string | null }[];
}

/** The workspace session of DESIGN.md §3: what the UI needs to act inside one workspace. */
export interface WorkspaceSessionView {
  workspaceId: number;
  workspace: string;
  accessLevel: number;
  token: string;
  renewalToken: string;
  customerIdentifier: string;
  avatar: string | null;
  powerUps: unknown[];
  /** `graceEndsAt`: an unpaid renewal keeps the plan working until then (docs/billing.md "Grace period"). */
  subscription: { id: number; expiresAt: string; graceEndsAt: string | null; license: string; status: string } | null;
}

/** Every call that opens a session answers this (login, signup, renew-token, password changes, new workspace). */
export interface LoginView {
  user: UserView;
  workspace: WorkspaceSessionView;
}

/** An operator's own fields, as the user object and the members screen both show them. */
export function presentOperatorProfile(op: OperatorRow) {
  return { id: op.id, name: op.name, email: op.email, phone: op.phone, avatar: op.avatar, verificationLevel: op.verificationLevel };
}

export function presentUser(op: OperatorRow, member: Pick<MemberRow, 'accessLevel' | 'isActive'>, workspaces: WorkspaceListItem[]): UserView {
  return {
    ...presentOperatorProfile(op),
    isActive: member.isActive,
    accessLevel: member.accessLevel,
    workspaces: workspaces.map((w) => ({ workspaceId: w.workspaceId, workspace: w.name, avatar: w.avatar })),
  };
}

export function presentWorkspaceSession(
  ws: WorkspaceRow,
  member: Pick<MemberRow, 'accessLevel'>,
  subscription: SubscriptionRow | undefined,
  tokens: { token: string; renewalToken: string },
): WorkspaceSessionView {
  return {
    workspaceId: ws.id,
    workspace: ws.name,
    accessLevel: member.accessLevel,
    token: tokens.token,
    renewalToken: tokens.renewalToken,
    customerIdentifier: ws.customerIdentifier,
    avatar: ws.avatar,
    powerUps: ws.powerUps ?? [],
    subscription: subscription
      ? {
          id: subscription.id,
          expiresAt: new Date(subscription.expiresAt).toISOString(),
          graceEndsAt: subscription.graceEndsAt ? new Date(subscription.graceEndsAt).toISOString() : null,
          license: subscription.license,
          status: subscription.status,
        }
      : null,
  };
}
