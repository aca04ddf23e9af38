import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { can, type Actor } from '../policy/policy';
import { visibleCustomers } from './queries';
import type { MergeCustomersReq } from './schema';

// The contact's own fields; the one that stays keeps its values and takes the other's where it has none.
const FILLED_FROM_LEAVE = ['name', 'email', 'phone', 'avatar', 'details'] as const;

export interface MergeResult {
  customerId: number;
  /** Conversations that now belong to the customer that stayed. */
  movedConversationIds: number[];
}

/**
 * SPEC §4 merge: leaveId's conversations (with their calls and messages) and custom properties move to
 * stayId, stayId's empty fields are filled from leaveId, and leaveId is deleted, in one transaction. When
 * both have a property with the same code, stayId's is kept.
 */
export async function mergeCustomers(deps: Pick<AppDeps, 'knex'>, actor: Actor, viewer: ConversationViewer, input: MergeCustomersReq): Promise<MergeResult> {
  if (!can(actor, 'customers.merge')) throw errors.forbidden('Esta ação só pode ser feita como MASTER.');
  const { stayId, leaveId } = input;
  return deps.knex.transaction(async (trx) => {
    // Locked in id order, so two merges of the same pair cannot deadlock.
    const rows: (Record<(typeof FILLED_FROM_LEAVE)[number], string | null> & { id: number })[] = await visibleCustomers(trx, viewer)
      .whereIn('c.id', [stayId, leaveId])
      .orderBy('c.id')
      .forUpdate()
      .select('c.id', ...FILLED_FROM_LEAVE.map((f) => `c.${f}`));
    const stay = rows.find((r) => r.id === stayId);
    const leave = rows.find((r) => r.id === leaveId);
    if (!stay || !leave) throw errors.notFound();
    const ws = viewer.workspaceId;

    const moved: { id: number }[] = await trx('customer_platforms').where({ workspaceId: ws, customerId: leaveId }).update({ customerId: stayId, updatedAt: new Date() }, ['id']);
    await trx('customer_properties')
      .where({ workspaceId: ws, customerId: leaveId })
      .whereNotIn('code', trx('customer_properties').where({ workspaceId: ws, customerId: stayId }).select('code'))
      .update({ customerId: stayId, updatedAt: new Date() });

    const fill: Record<string, unknown> = {};
    for (const field of FILLED_FROM_LEAVE) {
      const empty = stay[field] === null || stay[field] === '';
      if (empty && leave[field] !== null && leave[field] !== '') fill[field] = leave[field];
    }
    // Deleted before the fill so nothing of leave's outlives the merge (its remaining properties cascade).
    await trx('customers').where({ workspaceId: ws, id: leaveId }).delete();
    await trx('customers').where({ workspaceId: ws, id: stayId }).update({ ...fill, updatedAt: new Date() });
    return { customerId: stayId, movedConversationIds: moved.map((m) => m.id) };
  });
}
