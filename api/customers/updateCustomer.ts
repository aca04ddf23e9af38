import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer } from './queries';
import type { CustomerUpdateReq } from './schema';
import { emitWebhookEvent, type EmitDeps } from '../webhooks/emitWebhookEvent';
import { personChangedData } from '../webhooks/payloads';

/** Writes the fixed fields that were sent (an empty one clears it). */
export async function updateCustomer(deps: EmitDeps, viewer: ConversationViewer, id: number, input: CustomerUpdateReq): Promise<void> {
  const changed = await deps.knex.transaction(async (trx) => {
    await findVisibleCustomer(trx, viewer, id, true);
    const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (!Object.keys(patch).length) return false;
    await trx('customers').where({ id, workspaceId: viewer.workspaceId }).update({ ...patch, updatedAt: new Date() });
    return true;
  });
  if (changed) await emitWebhookEvent(deps, viewer.workspaceId, 'person:changed', () => personChangedData(deps.knex, viewer.workspaceId, id));
}
