import type { Logger } from '../../../api/logger';
import type { PostgresAuthState } from './authState';
import type { QrHandlerDeps, QrLineInfo, QrSocketEvents } from './eventHandler';
import type { QrSendSocket } from '../../../api/channels/whatsapp/qr/sessionQueue';

/** The socket a QR session owns: its events, what sends through it, and a way to close it (Baileys' `end`). */
export interface QrSocket extends QrSocketEvents, QrSendSocket {
  end(error: Error | undefined): void;
}

/** One connection attempt's socket and the socket-bound helpers the event handler needs. */
export interface QrSessionSocket {
  socket: QrSocket;
  fetchMedia: QrHandlerDeps['fetchMedia'];
  groupName?: QrHandlerDeps['groupName'];
}

/**
 * Opens one socket for a line with its stored session. The worker passes Baileys' `makeWASocket`
 * (activities/channels/whatsapp/baileysSocket.ts); tests pass a fake that emits Baileys-shaped events and
 * never reaches WhatsApp (test/fakes/baileys.ts).
 */
export type MakeQrSocket = (ctx: { line: QrLineInfo; auth: PostgresAuthState; logger: Logger }) => Promise<QrSessionSocket>;
