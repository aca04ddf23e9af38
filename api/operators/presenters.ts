import type { MemberRow, OperatorRow } from '../auth/queries';
import { presentOperatorProfile } from '../auth/presenters';

/** An agent as the members screen shows it (SPEC §3 "Agent"). */
export function presentAgent(op: OperatorRow, member: Pick<MemberRow, 'accessLevel' | 'isActive'>) {
  return { ...presentOperatorProfile(op), accessLevel: member.accessLevel, isActive: member.isActive };
}

/**
 * The answer to an invitation: only what the inviter sent (name, e-mail, level, groups) and the pending
 * member's id in this workspace, the same whether or not the address has a login anywhere.
 */
export function presentInvitation(pendingId: number, input: { name: string; email: string; accessLevel: number }, groups: number[]) {
  return {
    id: pendingId,
    name: input.name,
    email: input.email,
    phone: null,
    avatar: null,
    accessLevel: input.accessLevel,
    isActive: true,
    verificationLevel: 0,
    groups,
    status: 'pending' as const,
  };
}
