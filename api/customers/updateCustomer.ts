import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer } from './queries';
import type { CustomerUpdateReq } from './schema';

/** Writes the fixed fields that were sent (an empty one clears it). */
export async function updateCustomer(deps: Pick<AppDeps, 'knex'>, viewer: ConversationViewer, id: number, input: CustomerUpdateReq): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    await findVisibleCustomer(trx, viewer, id, true);
    const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (!Object.keys(patch).length) return;
    await trx('customers').where({ id, workspaceId: viewer.workspaceId }).update({ ...patch, updatedAt: new Date() });
  });
}
