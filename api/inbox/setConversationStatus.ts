import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { lockVisibleConversation } from '../conversations/queries';
import { ensureOpenCall, finishOpenCall } from '../conversations/calls';
import { publishConversationEvent } from '../conversations/fanout';
import { conversationView, type ConversationView } from '../conversations/presenters';
import type { ConversationStatusReq } from './schema';
import { recordWebhookEvent } from '../webhooks/recordWebhookEvent';
import { dispatchDeliveries } from '../webhooks/startDelivery';
import { sessionStatusData } from '../webhooks/payloads';
import { requestCsat, type CsatRequested } from '../csat/requestCsat';
import { deliverCsatRequest } from '../csat/deliverRequest';

/**
 * POST /inbox/:segment/:id. 'resolve' finishes the current call (SPEC §4 'Resolver'); 'open' reopens with
 * a new call and protocol ('Reabrir'). Asking for the state the conversation is already in changes nothing.
 * A resolve asks the customer to rate the call when the channel's survey is on (docs/csat.md).
 */
export async function setConversationStatus(deps: AppDeps, viewer: ConversationViewer, id: number, input: ConversationStatusReq): Promise<ConversationView> {
  const after: { csat?: CsatRequested } = {};
  const deliveries = await deps.knex.transaction(async (trx): Promise<number[] | null> => {
    const cp = await lockVisibleConversation(trx, viewer, id);
    if (input.status === 'resolve') {
      if (cp.isFinished) return null;
      const callId = await finishOpenCall(trx, cp.id);
      // Archived conversations are never unread (customer_platforms_unread_idx holds open ones only).
      await trx('customer_platforms').where({ id: cp.id }).update({ isFinished: true, hasNewMessages: false, updatedAt: trx.fn.now() });
      if (callId) after.csat = await requestCsat(trx, deps.config, cp, callId);
    } else {
      if (!cp.isFinished) return null;
      const call = await ensureOpenCall(trx, cp);
      await trx('customer_platforms').where({ id: cp.id }).update({ isFinished: false, currentCallId: call.callId, updatedAt: trx.fn.now() });
    }
    // The webhook event commits with the change (outbox); its workflow starts after commit.
    return recordWebhookEvent(trx, viewer.workspaceId, 'session:status:changed', (db) => sessionStatusData(db, viewer.workspaceId, id));
  });
  if (deliveries) {
    await publishConversationEvent(deps, 'chat.callStatus', viewer.workspaceId, id);
    if (after.csat) await deliverCsatRequest(deps, after.csat);
    await dispatchDeliveries(deps, deliveries);
  }
  return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
}
