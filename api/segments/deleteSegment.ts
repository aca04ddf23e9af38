import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { Segment } from '../models/Segment';
import type { Actor } from '../policy/policy';
import { canEditSegment } from './permissions';
import { findVisibleSegment, type SegmentWithSubscription } from './queries';

/** Deletes a saved filter; its subscriptions go with it (FK cascade). */
export async function deleteSegment(deps: Pick<AppDeps, 'knex'>, actor: Actor, id: number): Promise<SegmentWithSubscription> {
  return deps.knex.transaction(async (trx) => {
    const existing = await findVisibleSegment(deps.knex, actor, id, trx, true);
    if (!canEditSegment(actor, existing)) throw errors.forbidden();
    await Segment.query(trx).findById(existing.id).delete();
    return existing;
  });
}
