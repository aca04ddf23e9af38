import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer } from './queries';
import type { CustomerUpdateReq } from './schema';
import { recordWebhookEvent, type EmitDeps } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { personChangedData } from '../webhooks/payloads';

/** Writes the fixed fields that were sent (an empty one clears it). */
export async function updateCustomer(deps: EmitDeps, viewer: ConversationViewer, id: number, input: CustomerUpdateReq): Promise<void> {
  const deliveries = await deps.knex.transaction(async (trx) => {
    await findVisibleCustomer(trx, viewer, id, true);
    const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (!Object.keys(patch).length) return [];
    await trx('customers').where({ id, workspaceId: viewer.workspaceId }).update({ ...patch, updatedAt: new Date() });
    // person:changed commits with the edit (outbox); its workflow starts after commit.
    return recordWebhookEvent(trx, viewer.workspaceId, 'person:changed', (db) => personChangedData(db, viewer.workspaceId, id));
  });
  await dispatchDeliveries(deps, deliveries);
}
