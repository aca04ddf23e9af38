import { downloadMediaMessage, makeCacheableSignalKeyStore, makeWASocket, type WAMessage } from 'baileys';
import pino from 'pino';
import type { Knex } from 'knex';
import type { Config } from '../../../api/config';
import { storeInboundFile } from '../../../api/channels/inboundFile';
import { MEDIA_LIMIT_BYTES } from '../../../api/channels/whatsapp/client';
import type { MakeQrSocket } from './qrSocket';

/**
 * The linked device's name on the phone ("Aparelhos conectados") is `browser[0]`; `Chrome` picks the web
 * platform type Baileys registers with.
 */
export const QR_BROWSER: [string, string, string] = ['Balcão', 'Chrome', '1.0.0'];

/**
 * The production socket (docs/channels/whatsapp.md "Connection workflow"): Baileys' `makeWASocket` over the
 * line's PostgreSQL session, the QR left to our handler (no terminal printing), Baileys' own logs at warn.
 * Creating it connects to WhatsApp at once, so only the worker's session activity calls this; tests pass a
 * fake `MakeQrSocket` instead.
 */
export function baileysSocketFactory(deps: { knex: Knex; config: Pick<Config, 'dataDir'> }): MakeQrSocket {
  return async ({ line, auth }) => {
    const logger = pino({ level: 'warn', name: 'baileys' }).child({ channelId: line.channelId });
    const sock = makeWASocket({
      auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, logger) },
      browser: QR_BROWSER,
      logger,
      markOnlineOnConnect: false,
      syncFullHistory: false,
    });
    const subjects = new Map<string, string | null>();
    return {
      socket: sock,
      async fetchMedia(message, parsed) {
        if (!parsed.media || parsed.media.size > MEDIA_LIMIT_BYTES) return { tooLarge: true };
        const bytes = await downloadMediaMessage(message as WAMessage, 'buffer', {}, { logger, reuploadRequest: sock.updateMediaMessage });
        if (bytes.length > MEDIA_LIMIT_BYTES) return { tooLarge: true };
        return storeInboundFile(deps, line, { bytes, fileName: parsed.media.fileName, mime: parsed.media.mime });
      },
      async groupName(jid) {
        if (!subjects.has(jid)) subjects.set(jid, await sock.groupMetadata(jid).then((m) => m.subject || null, () => null));
        return subjects.get(jid) ?? null;
      },
    };
  };
}
