import { randomUUID } from 'node:crypto';
import type { ChannelDeps } from '../../adapter';
import { workflowIds } from '../../../../workflows/ids';
import type { whatsappSocketCall } from '../../../../workflows/channels/whatsappSocketCall';
import { runSocketOp, type QrSocketOp, type QrSocketOpResult } from './sender';
import { sessionQueueOf } from './sessionQueue';

/** The line has no live socket this call could reach (not linked, reconnecting, or its worker is gone). */
export class QrUnavailableError extends Error {
  constructor() {
    super('WhatsApp QR line not connected');
    this.name = 'QrUnavailableError';
  }
}

/**
 * Runs a socket-bound operation (number check, delete for everyone, typing) on the line's one live socket,
 * wherever it lives (docs/outbound.md "WhatsApp QR lines"): at once when this process holds it, else through
 * the short workflow `whatsappSocketCall`, whose activity runs on the task queue only the socket's worker
 * polls (`whatsapp_connections.session_queue`). Throws QrUnavailableError when no socket answers in time.
 */
export async function callQrSocket(deps: ChannelDeps, line: { workspaceId: number; id: number }, op: QrSocketOp, timeoutMs = 20_000): Promise<QrSocketOpResult> {
  const local = deps.qrSockets?.get(line.id);
  if (local) return runSocketOp(local, op);
  const queue = await sessionQueueOf(deps.knex, { workspaceId: line.workspaceId, channelId: line.id });
  if (!queue || !deps.temporal) throw new QrUnavailableError();
  const client = await deps.temporal.client();
  try {
    return await client.workflow.execute<typeof whatsappSocketCall>('whatsappSocketCall', {
      taskQueue: deps.temporal.taskQueue,
      workflowId: workflowIds.channelSocketCall(line.id, randomUUID()),
      workflowExecutionTimeout: timeoutMs,
      args: [{ workspaceId: line.workspaceId, channelId: line.id, taskQueue: queue, op }],
    });
  } catch (err) {
    deps.logger.warn({ err, channelId: line.id, op: op.kind }, 'WhatsApp QR socket call did not complete');
    throw new QrUnavailableError();
  }
}
