import { continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';

export interface WebhookDeliveryInput {
  deliveryId: number;
}

const { deliverWebhook } = proxyActivities<Activities>({
  // The HTTP call has its own (shorter) timeout; this covers the database around it.
  startToCloseTimeout: '2 minutes',
  // These retries are for infrastructure (database away, worker lost). An answer from the receiver is a
  // result, and its backoff is decided by the activity and slept here.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One per delivery (`webhook:{deliveryId}`): attempt, and while the activity asks for another try, sleep
 * the delay it computed (exponential backoff, Retry-After, or waiting for an older delivery of the same
 * endpoint) and attempt again. The row in webhook_deliveries is the state; this is only the clock.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<string> {
  for (;;) {
    const result = await deliverWebhook(input);
    if (result.outcome === 'done') return result.status;
    await sleep(result.delayMs);
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof webhookDelivery>(input);
  }
}
