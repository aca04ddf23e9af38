import { ActivityFailure, continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { ChannelSendResult } from '../../activities/channels/sendChannelMessage';

export interface ChannelSendInput {
  messageId: number;
}

/**
 * How long Temporal waits for an attempt's heartbeat (the activity beats every 2 s while it runs, the SDK
 * sends at most one per 0.8 × this) before it counts the attempt lost and retries it, on any worker. A
 * worker killed in the middle of a send is noticed within this instead of the start-to-close timeout; the
 * retry finds the row lock the dead worker's connection held released (PostgreSQL ends that transaction
 * with the connection), so once-only stays the row lock's and the external id's job (docs/outbound.md).
 */
export const SEND_HEARTBEAT_TIMEOUT = '10 seconds';

const ACTIVITY = {
  // The provider call has its own timeout; this covers the database around it.
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: SEND_HEARTBEAT_TIMEOUT,
  // Infrastructure retries (database away, worker lost). A provider's answer is a result: its backoff is
  // decided by the activity and slept here.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;

const { sendChannelMessage } = proxyActivities<Activities>(ACTIVITY);

/**
 * The attempt again on the queue only the worker holding the line's connection polls (a WhatsApp QR
 * socket). That worker gone (nobody picks the task up within 30 s) or failing → one attempt here without
 * routing, which counts as a "not connected" failure; the next round asks for the route afresh.
 */
async function sendOnConnectionWorker(input: ChannelSendInput, taskQueue: string): Promise<ChannelSendResult> {
  const routed = proxyActivities<Activities>({ ...ACTIVITY, taskQueue, scheduleToStartTimeout: '30 seconds', retry: { ...ACTIVITY.retry, maximumAttempts: 3 } });
  try {
    return await routed.sendChannelMessage({ ...input, routed: true });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    return sendChannelMessage({ ...input, routed: true });
  }
}

/**
 * One per outbound message (`channel-send:{messageId}`, docs/outbound.md): attempt, and while the activity
 * asks for another try, sleep the backoff it computed. An attempt that answers `route` is run on the worker
 * that holds the channel's connection. The message row is the state; this is the clock.
 */
export async function channelSend(input: ChannelSendInput): Promise<string> {
  for (;;) {
    let result = await sendChannelMessage(input);
    if (result.outcome === 'route') result = await sendOnConnectionWorker(input, result.taskQueue);
    if (result.outcome === 'done') return result.state;
    if (result.outcome === 'retry') await sleep(result.delayMs);
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof channelSend>(input);
  }
}
