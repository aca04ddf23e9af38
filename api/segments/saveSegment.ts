import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { Segment } from '../models/Segment';
import type { Actor } from '../policy/policy';
import { canEditSegment } from './permissions';
import { checkFilterReferences, findVisibleSegment, nextSegmentSort, type SegmentWithSubscription } from './queries';
import type { SegmentSaveReq } from './schema';

/** Creates a saved filter owned by the caller, or updates one when `id` is sent (SPEC "save"). */
export async function saveSegment(deps: Pick<AppDeps, 'knex'>, actor: Actor, input: SegmentSaveReq): Promise<SegmentWithSubscription> {
  return deps.knex.transaction(async (trx) => {
    const existing = input.id === undefined ? undefined : await findVisibleSegment(deps.knex, actor, input.id, trx, true);
    if (existing && !canEditSegment(actor, existing)) throw errors.forbidden();
    const fieldErrors = await checkFilterReferences(actor, input.filters, trx);
    if (fieldErrors.length) throw errors.validation(fieldErrors);
    const columns = { name: input.name, icon: input.icon, isPublic: input.isPublic, inbox: input.inbox, filters: input.filters };
    if (existing) {
      await Segment.query(trx).findById(existing.id).patch({ ...columns, updatedAt: new Date() });
      return findVisibleSegment(deps.knex, actor, existing.id, trx);
    }
    const created = await Segment.query(trx).insert({
      ...columns,
      workspaceId: actor.workspaceId,
      operatorId: actor.operatorId,
      sort: await nextSegmentSort(actor, trx),
    });
    return findVisibleSegment(deps.knex, actor, created.id, trx);
  });
}
