import { EventEmitter } from 'node:events';
import type { BaileysEventMap } from 'baileys';
import type { QrSocketEvents } from '../../../../api/channels/whatsapp/qr/eventHandler';

/** The subset of Baileys' socket the QR handler uses; tests emit what the real socket emits. */
export class FakeQrSocket implements QrSocketEvents {
  private readonly emitter = new EventEmitter();
  readonly ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
  };
  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): void {
    this.emitter.emit(event, arg);
  }
}
