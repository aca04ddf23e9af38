import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { scoped } from '../db/scope';
import { Segment } from '../models/Segment';
import type { Actor } from '../policy/policy';
import type { SegmentSortReq } from './schema';

/**
 * Writes the sidebar order of the given segments. Every id must be a segment the caller can see; a foreign
 * or someone else's private id fails the whole call with a 404 and nothing moves.
 */
export async function sortSegments(deps: Pick<AppDeps, 'knex'>, actor: Actor, input: SegmentSortReq): Promise<number[]> {
  const ids = [...new Set(input.ids)];
  await deps.knex.transaction(async (trx) => {
    const visible = scoped(Segment, actor, trx).modify('visibleTo', actor.operatorId).whereIn('segments.id', ids);
    const found = await visible.clone().select('segments.id').forUpdate();
    if (found.length !== ids.length) throw errors.notFound();
    for (const [sort, id] of ids.entries()) {
      await scoped(Segment, actor, trx).where('segments.id', id).patch({ sort });
    }
  });
  return ids;
}
