import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { QrLine, QrSendSocket, QrSocketHolder } from '../../../api/channels/whatsapp/qr/sessionQueue';

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
export class QrLiveSockets implements QrSocketHolder {
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

/** Notes (or, with null, clears when still ours) the queue that reaches this line's socket. */
export async function recordSessionQueue(db: Knex, line: QrLine, queue: string | null, ours?: string): Promise<void> {
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
