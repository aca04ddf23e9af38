import { can, type Actor } from '../policy/policy';
import type { Segment } from '../models/Segment';

/**
 * SPEC §6: a saved filter may be edited or deleted when it lives in the 'me' inbox, by its own operator,
 * or at level 6+. Visibility (private filters only for their creator) is checked before, as a 404.
 */
export function canEditSegment(actor: Actor, segment: Pick<Segment, 'inbox' | 'operatorId'>): boolean {
  return segment.inbox === 'me' || segment.operatorId === actor.operatorId || can(actor, 'segments.manageAny');
}
