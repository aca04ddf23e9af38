import type { Knex } from 'knex';
import { scoped } from '../db/scope';
import { errors, type FieldError } from '../http/errors';
import { Channel } from '../models/Channel';
import { Group } from '../models/Group';
import { Label } from '../models/Label';
import { Segment } from '../models/Segment';
import { WorkspaceMember } from '../models/WorkspaceMember';
import type { Actor } from '../policy/policy';
import type { SegmentFilters } from './filters';

export type SegmentWithSubscription = Segment & { subscribed: boolean };

/** Segments the actor may see (own + public), each with whether the actor subscribed to it. */
export function visibleSegments(knex: Knex, actor: Actor, trx?: Knex.Transaction) {
  return scoped(Segment, actor, trx)
    .modify('visibleTo', actor.operatorId)
    .select(
      'segments.*',
      knex.raw(
        'exists (select 1 from segment_subscriptions s where s.segment_id = segments.id and s.operator_id = ?) as subscribed',
        [actor.operatorId],
      ),
    );
}

export async function listSegments(knex: Knex, actor: Actor): Promise<SegmentWithSubscription[]> {
  return (await visibleSegments(knex, actor).modify('sorted')) as SegmentWithSubscription[];
}

/** Another workspace's segment and someone else's private one are both a 404. */
export async function findVisibleSegment(knex: Knex, actor: Actor, id: number, trx?: Knex.Transaction, lock = false): Promise<SegmentWithSubscription> {
  const q = visibleSegments(knex, actor, trx).where('segments.id', id);
  if (lock) q.forUpdate();
  const row = await q.first();
  if (!row) throw errors.notFound();
  return row as SegmentWithSubscription;
}

export async function nextSegmentSort(actor: Actor, trx: Knex.Transaction): Promise<number> {
  const row = (await scoped(Segment, actor, trx).max('segments.sort as max').first()) as unknown as { max: number | null } | undefined;
  return (row?.max ?? -1) + 1;
}

const REFERENCES = [
  { field: 'channels', model: Channel, column: 'channels.id', message: 'Canal não encontrado.' },
  { field: 'groups', model: Group, column: 'groups.id', message: 'Grupo não encontrado.' },
  { field: 'agents', model: WorkspaceMember, column: 'workspace_members.operator_id', message: 'Agente não encontrado.' },
  { field: 'tags', model: Label, column: 'labels.id', message: 'Etiqueta não encontrada.' },
] as const;

/** Every id a filter names must belong to the caller's workspace; one field error per list that does not. */
export async function checkFilterReferences(actor: Actor, filters: SegmentFilters, trx: Knex.Transaction): Promise<FieldError[]> {
  // One after the other: queries on one transaction share its connection.
  const failures: FieldError[] = [];
  for (const ref of REFERENCES) {
    const ids = [...new Set(filters[ref.field] ?? [])];
    if (!ids.length) continue;
    const found = await scoped(ref.model as typeof Channel, actor, trx).whereIn(ref.column, ids).resultSize();
    if (found !== ids.length) failures.push({ key: `filters.${ref.field}`, descriptions: [ref.message] });
  }
  return failures;
}
