import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { QrSocketOp, QrSocketOpResult } from '../../api/channels/whatsapp/qr/sender';

export interface WhatsappSocketCallInput {
  workspaceId: number;
  channelId: number;
  /** The task queue only the worker holding the line's socket polls. */
  taskQueue: string;
  op: QrSocketOp;
}

/**
 * One socket-bound operation of a QR line asked by the api (number check, delete for everyone, typing):
 * its activity runs on the socket worker's own queue (docs/outbound.md "WhatsApp QR lines"). A worker that is
 * gone never picks it up: the schedule-to-start timeout ends the call and the caller answers "not connected".
 * Never retried: these are answers to a person waiting, not deliveries.
 */
export async function whatsappSocketCall(input: WhatsappSocketCallInput): Promise<QrSocketOpResult> {
  const { whatsappQrSocketCall } = proxyActivities<Activities>({
    taskQueue: input.taskQueue,
    scheduleToStartTimeout: '10 seconds',
    startToCloseTimeout: '20 seconds',
    retry: { maximumAttempts: 1 },
  });
  return whatsappQrSocketCall({ channelId: input.channelId, op: input.op });
}
