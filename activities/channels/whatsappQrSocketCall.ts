import { ApplicationFailure } from '@temporalio/activity';
import type { QrLiveSockets } from './whatsapp/liveSockets';
import { runSocketOp, type QrSocketOp, type QrSocketOpResult } from '../../api/channels/whatsapp/qr/sender';

/**
 * Runs a socket-bound operation on a line's live socket in this process (scheduled on this worker's own
 * queue by `whatsappSocketCall`). The socket gone meanwhile (closed, moved to another worker) → a
 * non-retryable `QrNotConnected`.
 */
export function whatsappQrSocketCall(sockets: QrLiveSockets) {
  return async function whatsappQrSocketCall(input: { channelId: number; op: QrSocketOp }): Promise<QrSocketOpResult> {
    const socket = sockets.get(input.channelId);
    if (!socket) throw ApplicationFailure.nonRetryable('WhatsApp QR line not connected in this worker', 'QrNotConnected');
    return runSocketOp(socket, input.op);
  };
}
