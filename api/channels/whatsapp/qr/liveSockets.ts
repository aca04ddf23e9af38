import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AnyMessageContent, MiscMessageGenerationOptions, WAPresence, proto } from 'baileys';

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

interface Entry {
  socket: QrSendSocket;
  open: boolean;
}

/**
 * The QR sockets this worker process holds, by channel id, and the task queue only this process polls
 * (`whatsapp-session-<uuid>`; null where no such queue is served, as in the api process). The session
 * activity adds its socket and marks it open on `connection: 'open'`; the send activity and the socket
 * calls look it up here. A socket is usable only while open.
 */
export class QrLiveSockets {
  private readonly entries = new Map<number, Entry>();

  constructor(readonly taskQueue: string | null) {}

  /** Registers a line's socket (closed until `setOpen(true)`); the returned function removes exactly this one. */
  add(channelId: number, socket: QrSendSocket): { setOpen(open: boolean): void; remove(): void } {
    const entry: Entry = { socket, open: false };
    this.entries.set(channelId, entry);
    return {
      setOpen: (open) => {
        entry.open = open;
      },
      remove: () => {
        if (this.entries.get(channelId) === entry) this.entries.delete(channelId);
      },
    };
  }

  /** The line's socket when this process holds it open. */
  get(channelId: number): QrSendSocket | undefined {
    const entry = this.entries.get(channelId);
    return entry?.open ? entry.socket : undefined;
  }
}

/** The task queue of the worker that holds the line's socket (written by its session activity), if any. */
export async function sessionQueueOf(db: Knex | Knex.Transaction, line: { workspaceId: number; channelId: number }): Promise<string | null> {
  const row = await db('whatsapp_connections').where({ workspaceId: line.workspaceId, channelId: line.channelId }).first('session_queue');
  return row?.sessionQueue ?? null;
}

/** Notes (or, with null, clears when still ours) the queue that reaches this line's socket. */
export async function recordSessionQueue(db: Knex, line: { workspaceId: number; channelId: number }, queue: string | null, ours?: string): Promise<void> {
  const scope = { workspaceId: line.workspaceId, channelId: line.channelId };
  if (queue === null) {
    await db('whatsapp_connections').where({ ...scope, sessionQueue: ours ?? null }).update({ sessionQueue: null, sessionAt: null, updatedAt: db.fn.now() });
    return;
  }
  const values = { sessionQueue: queue, sessionAt: new Date() };
  await db('whatsapp_connections')
    .insert({ ...scope, ...values })
    .onConflict(['workspace_id', 'channel_id'])
    .merge({ ...values, updatedAt: db.fn.now() });
}

/** This worker process's own queue for the QR sockets it holds: `<task queue>-whatsapp-session-<uuid>`. */
export function sessionTaskQueue(taskQueue: string): string {
  return `${taskQueue}-whatsapp-session-${randomUUID()}`;
}
