import type { AppDeps } from '../deps';
import { topics } from '../realtime/publisher';
import type { Availability } from './schema';

/** `member.availability` on `ws/{id}/all`: how the team sees an agent (offline = `online: false`). No conversation content. */
export interface MemberAvailabilityEvent {
  operatorId: number;
  availability: Availability;
  online: boolean;
}

/** Tells the whole workspace an agent's presence or availability changed (after commit; never throws). */
export async function publishMemberAvailability(deps: Pick<AppDeps, 'publisher'>, workspaceId: number, event: MemberAvailabilityEvent): Promise<void> {
  await deps.publisher.publish(topics.workspace(workspaceId), 'member.availability', event);
}
