import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { assignBacklog } from './setOperatorOnline';
import { publishReassigned, redistributeFrom, type Reassigned } from './redistribute';
import type { Availability } from './schema';
import { publishMemberAvailability } from './availabilityEvent';

type AvailabilityDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

/**
 * The caller's availability (docs/assignment.md "Availability"). 'ausente' takes no new auto-assigned calls
 * and hands the agent's unanswered round-robin calls back to the rotation at once (redistribute.ts), in a
 * savepoint so the choice is recorded even if that fails; back to 'online' (while connected) picks up the
 * backlog of their groups' rules like coming online does. Choosing what is already set changes nothing.
 */
export async function setAvailability(
  deps: AvailabilityDeps,
  actor: Pick<Actor, 'workspaceId' | 'operatorId'>,
  availability: Availability,
): Promise<{ availability: Availability; online: boolean; assigned: number[]; redistributed: number[] }> {
  const { workspaceId, operatorId } = actor;
  const result = await deps.knex.transaction(async (trx) => {
    // The member row lock is the order setOperatorOnline and the hand-back sweep take.
    const member = await trx('workspace_members').where({ workspaceId, operatorId }).forUpdate().first('availability', 'is_online');
    const online = Boolean(member?.isOnline);
    if (!member || member.availability === availability) return { changed: false, online, assigned: [] as Reassigned[], redistributed: [] as Reassigned[] };
    await trx('workspace_members').where({ workspaceId, operatorId }).update({ availability });
    if (availability === 'ausente') {
      const redistributed = await trx
        .transaction((sp) => redistributeFrom(sp, workspaceId, operatorId))
        .catch((err: unknown) => {
          deps.logger.error({ err, workspaceId, operatorId }, 'redistribution on going ausente failed');
          return [] as Reassigned[];
        });
      return { changed: true, online, assigned: [] as Reassigned[], redistributed };
    }
    return { changed: true, online, assigned: online ? await assignBacklog(trx, workspaceId, operatorId) : [], redistributed: [] as Reassigned[] };
  });
  await publishReassigned(deps, workspaceId, [...result.assigned, ...result.redistributed]);
  if (result.changed) await publishMemberAvailability(deps, workspaceId, { operatorId, availability, online: result.online });
  return {
    availability,
    online: result.online,
    assigned: result.assigned.map((a) => a.conversationId),
    redistributed: result.redistributed.map((a) => a.conversationId),
  };
}
