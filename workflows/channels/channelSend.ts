import { continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';

export interface ChannelSendInput {
  messageId: number;
}

const { sendChannelMessage } = proxyActivities<Activities>({
  // The provider call has its own timeout; this covers the database around it.
  startToCloseTimeout: '2 minutes',
  // Infrastructure retries (database away, worker lost). A provider's answer is a result: its backoff is
  // decided by the activity and slept here.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One per outbound message (`channel-send:{messageId}`, docs/outbound.md): attempt, and while the activity
 * asks for another try, sleep the backoff it computed. The message row is the state; this is the clock.
 */
export async function channelSend(input: ChannelSendInput): Promise<string> {
  for (;;) {
    const result = await sendChannelMessage(input);
    if (result.outcome === 'done') return result.state;
    await sleep(result.delayMs);
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof channelSend>(input);
  }
}
