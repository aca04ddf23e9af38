import { EventEmitter } from 'node:events';
import type { AnyMessageContent, BaileysEventMap, MiscMessageGenerationOptions, WAPresence, proto } from 'baileys';
import type { QrSocketEvents } from '../../activities/channels/whatsapp/eventHandler';
import type { QrSendSocket } from '../../api/channels/whatsapp/qr/sessionQueue';

export interface SentThroughSocket {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
}

/**
 * A stand-in for the WhatsApp-Web socket of Baileys (`makeWASocket`, as its public API and typings describe
 * it): the subset the QR transport and the QR session use; tests emit what the real socket emits (`ev`,
 * Baileys' event map) and read what the transport asked of it. `sendMessage` answers a WebMessageInfo whose key carries the id it was given
 * (Baileys uses `options.messageId` when set), `onWhatsApp` answers from `onWhatsAppNumbers` as Baileys'
 * `[{jid, exists}]` (a number not there is absent from the answer, as the USync query leaves it out).
 */
export class FakeQrSocket implements QrSocketEvents, QrSendSocket {
  private readonly emitter = new EventEmitter();
  readonly sent: SentThroughSocket[] = [];
  readonly presences: { type: WAPresence; jid?: string }[] = [];
  readonly lookups: string[][] = [];
  /** Phone JIDs on WhatsApp, and the JID WhatsApp answers for each. */
  readonly onWhatsAppNumbers = new Map<string, string>();
  /** Errors the next sendMessage calls throw, in order. */
  readonly nextSendErrors: Error[] = [];
  private counter = 0;

  readonly ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
  };
  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): void {
    this.emitter.emit(event, arg);
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<proto.IWebMessageInfo | undefined> {
    const error = this.nextSendErrors.shift();
    if (error) throw error;
    this.sent.push({ jid, content, options });
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `3EB0FAKE${++this.counter}` }, messageTimestamp: Math.floor(Date.now() / 1000) };
  }

  async onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: unknown }[] | undefined> {
    this.lookups.push(jids);
    return jids.filter((j) => this.onWhatsAppNumbers.has(j)).map((j) => ({ jid: this.onWhatsAppNumbers.get(j)!, exists: true }));
  }

  async sendPresenceUpdate(type: WAPresence, jid?: string): Promise<void> {
    this.presences.push({ type, jid });
  }
}
