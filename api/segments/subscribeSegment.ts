import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { findVisibleSegment, type SegmentWithSubscription } from './queries';

/**
 * Puts a visible segment in (or takes it out of) the caller's sidebar. Anyone may subscribe to a public
 * segment (SPEC §6); subscribing twice or unsubscribing a segment never subscribed changes nothing.
 */
export async function setSegmentSubscription(
  deps: Pick<AppDeps, 'knex'>,
  actor: Actor,
  id: number,
  subscribed: boolean,
): Promise<SegmentWithSubscription> {
  return deps.knex.transaction(async (trx) => {
    const segment = await findVisibleSegment(deps.knex, actor, id, trx);
    const key = { workspaceId: actor.workspaceId, segmentId: segment.id, operatorId: actor.operatorId };
    if (subscribed) await trx('segment_subscriptions').insert(key).onConflict(['segment_id', 'operator_id']).ignore();
    else await trx('segment_subscriptions').where(key).delete();
    return { ...segment, subscribed } as SegmentWithSubscription;
  });
}
