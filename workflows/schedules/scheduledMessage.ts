import { condition, continueAsNew, defineSignal, executeChild, ParentClosePolicy, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { workflowIds } from '../ids';
import type { channelSend } from '../channels/channelSend';

export interface ScheduledMessageInput {
  scheduledMessageId: number;
  workspaceId: number;
}

/**
 * What one look at the row answered (activities/schedules/scheduleActivities.ts): not due yet (sleep until
 * `dueAt`); an occurrence taken (sent, or failed with its reason) with the messages the outbound delivery
 * path must carry and whether another occurrence follows; or over (sent, failed, canceled, missing).
 */
export type ScheduledMessageStep =
  | { kind: 'wait'; dueAt: string }
  | { kind: 'occurred'; state: 'scheduled' | 'sent' | 'failed'; next: boolean; deliveries: number[] }
  | { kind: 'done'; state: 'scheduled' | 'sent' | 'failed' | 'canceled' | 'missing' };

/** The row changed (edited, canceled): look at it again now instead of at the old due time. */
export const scheduledMessageChangedSignal = defineSignal('scheduledMessageChanged');

const { runScheduledMessage } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  // Infrastructure retries (database away, worker lost) without end: a due message waits for them, never skips.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * The occurrence's messages through the one outbound delivery path (`channel-send:{messageId}`, docs/outbound.md),
 * one after the other so a text arrives before its file. A delivery the worker's sweep already started is
 * left to run; a delivery outlives this workflow (ABANDON).
 */
async function deliver(messageIds: number[]): Promise<void> {
  for (const messageId of messageIds) {
    try {
      await executeChild<typeof channelSend>('channelSend', { workflowId: workflowIds.channelSend(messageId), args: [{ messageId }], parentClosePolicy: ParentClosePolicy.ABANDON });
    } catch (err) {
      // WorkflowExecutionAlreadyStartedError (@temporalio/common, not re-exported here), known by its name.
      if ((err as Error | undefined)?.name !== 'WorkflowExecutionAlreadyStartedError') throw err;
    }
  }
}

/**
 * One scheduled message (`scheduled-message:{id}`, docs/scheduled-messages.md). The row is the state, this
 * is the clock: a durable timer until the due time, so a message due while no worker ran goes out as soon
 * as one is back. The activity decides under the row's lock (due or not, still pending or not) and takes the
 * occurrence once; each repetition continues as new, so the history stays short however long it repeats.
 * The workflow's clock is Temporal's: the activity compares the due time with it (`asOf`).
 */
export async function scheduledMessage(input: ScheduledMessageInput): Promise<string> {
  let changed = false;
  setHandler(scheduledMessageChangedSignal, () => {
    changed = true;
  });
  for (;;) {
    // Cleared before the look: a change committed while the activity runs still wakes the wait below.
    changed = false;
    const step = await runScheduledMessage({ ...input, asOf: new Date().toISOString() });
    if (step.kind === 'done') return step.state;
    if (step.kind === 'occurred') {
      await deliver(step.deliveries);
      if (step.next) await continueAsNew<typeof scheduledMessage>(input);
      return step.state;
    }
    const waitMs = Date.parse(step.dueAt) - Date.now();
    if (waitMs > 0) await condition(() => changed, waitMs);
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof scheduledMessage>(input);
  }
}
