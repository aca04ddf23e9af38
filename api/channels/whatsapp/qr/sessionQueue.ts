import type { Knex } from 'knex';
import type { AnyMessageContent, MiscMessageGenerationOptions, WAPresence, proto } from 'baileys';

/** A QR line: every row of its session, its LID mappings and its session queue is scoped by both ids. */
export interface QrLine {
  workspaceId: number;
  channelId: number;
}

/**
 * The part of Baileys' socket that sends (docs/outbound.md "WhatsApp QR lines"): messages (text, media,
 * quoted replies, `delete` for everyone), the number check and the typing indicator. The worker passes
 * Baileys' socket; tests a fake that records what it got.
 */
export interface QrSendSocket {
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<proto.IWebMessageInfo | undefined>;
  onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: unknown }[] | undefined>;
  sendPresenceUpdate(type: WAPresence, toJid?: string): Promise<void>;
}

/**
 * What a send or a socket call asks of the process it runs in: the QR sockets it holds open and the task
 * queue only it polls (null where no such queue is served, as in the api process). The worker's holder is
 * `QrLiveSockets` (activities/channels/whatsapp/liveSockets.ts); the api process holds none.
 */
export interface QrSocketHolder {
  readonly taskQueue: string | null;
  /** The line's socket when this process holds it open. */
  get(channelId: number): QrSendSocket | undefined;
}

/** The task queue of the worker that holds the line's socket (written by its session activity), if any. */
export async function sessionQueueOf(db: Knex | Knex.Transaction, line: QrLine): Promise<string | null> {
  const row = await db('whatsapp_connections').where({ workspaceId: line.workspaceId, channelId: line.channelId }).first('session_queue');
  return row?.sessionQueue ?? null;
}
