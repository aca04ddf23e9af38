import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { AppDeps } from '../deps';
import { WebhookDelivery } from '../models/WebhookDelivery';
import { workflowIds } from '../../workflows/ids';
import type { webhookDelivery } from '../../workflows/webhooks/webhookDelivery';

/**
 * Starts `webhook:{deliveryId}` through the gateway's client (after commit). A start that fails marks
 * the row failed, so it shows in the log (and can be replayed) instead of sitting pending forever.
 */
export async function startDelivery(deps: Pick<AppDeps, 'knex' | 'logger'> & Partial<Pick<AppDeps, 'temporal'>>, deliveryId: number, options: { replaceFinished?: boolean } = {}): Promise<boolean> {
  try {
    if (!deps.temporal) throw new Error('no Temporal gateway');
    const client = await deps.temporal.client();
    await client.workflow.start<typeof webhookDelivery>('webhookDelivery', {
      taskQueue: deps.temporal.taskQueue,
      workflowId: workflowIds.webhook(deliveryId),
      // A replay of a finished delivery may catch its old run between the activity's last write and the
      // workflow's return; that run has nothing left to do, so it is replaced instead of reused.
      workflowIdConflictPolicy: options.replaceFinished ? WorkflowIdConflictPolicy.TERMINATE_EXISTING : WorkflowIdConflictPolicy.USE_EXISTING,
      args: [{ deliveryId }],
    });
    return true;
  } catch (err) {
    deps.logger.error({ err, deliveryId }, 'webhook delivery workflow not started');
    await WebhookDelivery.query(deps.knex)
      .patch({ status: 'failed', lastError: 'Não foi possível agendar a entrega.', nextAttemptAt: null } as Partial<WebhookDelivery>)
      .where({ id: deliveryId, status: 'pending' })
      .catch(() => undefined);
    return false;
  }
}
