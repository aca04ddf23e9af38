import { recordWebhookEvent, type EmitDeps } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { personChangedData } from '../webhooks/payloads';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer } from './queries';
import { propertyCode, type CustomerPropertyReq } from './schema';

/**
 * Adds a custom property, or edits the one named by `id`. The code comes from the label and is unique per
 * customer; the customer row is locked so two saves of the same label cannot race past the check.
 */
export async function saveCustomerProperty(deps: EmitDeps, viewer: ConversationViewer, customerId: number, input: CustomerPropertyReq): Promise<void> {
  const deliveries = await deps.knex.transaction(async (trx) => {
    await findVisibleCustomer(trx, viewer, customerId, true);
    const owned = trx('customer_properties').where({ workspaceId: viewer.workspaceId, customerId });
    if (input.id !== undefined && !(await owned.clone().where('id', input.id).first('id'))) throw errors.notFound();
    const code = propertyCode(input.label);
    const clash = owned.clone().where('code', code);
    if (input.id !== undefined) clash.whereNot('id', input.id);
    if (await clash.first('id')) throw errors.conflict('Este contato já tem uma propriedade com este nome.', 'label');
    const values = { label: input.label, code, value: input.value };
    if (input.id !== undefined) await owned.clone().where('id', input.id).update({ ...values, updatedAt: new Date() });
    else await trx('customer_properties').insert({ ...values, workspaceId: viewer.workspaceId, customerId });
    // Custom properties are part of the contact: person:changed commits with the edit (outbox).
    return recordWebhookEvent(trx, viewer.workspaceId, 'person:changed', (db) => personChangedData(db, viewer.workspaceId, customerId));
  });
  await dispatchDeliveries(deps, deliveries);
}
