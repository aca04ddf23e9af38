import type { Session } from '../../providers/session';
import type { Segment } from './types';

/** SPEC §6: MASTER and above manage every saved filter. */
const MANAGE_ANY_LEVEL = 6;

/**
 * SPEC §6: a saved filter may be edited or deleted when it lives in the 'me' inbox, by its own
 * operator, or at level 6+. The API enforces the same rule; this only hides what would be refused.
 */
export function canManageSegment(segment: Pick<Segment, 'inbox' | 'operatorId'>, session: Session | null): boolean {
  if (!session) return false;
  return segment.inbox === 'me' || segment.operatorId === session.user.id || session.workspace.accessLevel >= MANAGE_ANY_LEVEL;
}
