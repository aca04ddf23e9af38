import { recordWebhookEvent, type EmitDeps } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { personChangedData } from '../webhooks/payloads';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer } from './queries';

export async function deleteCustomerProperty(deps: EmitDeps, viewer: ConversationViewer, customerId: number, propertyId: number): Promise<void> {
  const deliveries = await deps.knex.transaction(async (trx) => {
    await findVisibleCustomer(trx, viewer, customerId, true);
    const deleted = await trx('customer_properties').where({ id: propertyId, customerId, workspaceId: viewer.workspaceId }).delete();
    if (!deleted) throw errors.notFound();
    return recordWebhookEvent(trx, viewer.workspaceId, 'person:changed', (db) => personChangedData(db, viewer.workspaceId, customerId));
  });
  await dispatchDeliveries(deps, deliveries);
}
