import type { MemberRow, OperatorRow } from '../auth/queries';

/** An agent as the members screen shows it (SPEC §3 "Agent"). */
export function presentAgent(op: OperatorRow, member: Pick<MemberRow, 'accessLevel' | 'isActive'>) {
  return {
    id: op.id,
    name: op.name,
    email: op.email,
    phone: op.phone,
    avatar: op.avatar,
    accessLevel: member.accessLevel,
    isActive: member.isActive,
    verificationLevel: op.verificationLevel,
  };
}
