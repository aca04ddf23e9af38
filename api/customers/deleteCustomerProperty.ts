import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer } from './queries';

export async function deleteCustomerProperty(deps: Pick<AppDeps, 'knex'>, viewer: ConversationViewer, customerId: number, propertyId: number): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    await findVisibleCustomer(trx, viewer, customerId, true);
    const deleted = await trx('customer_properties').where({ id: propertyId, customerId, workspaceId: viewer.workspaceId }).delete();
    if (!deleted) throw errors.notFound();
  });
}
