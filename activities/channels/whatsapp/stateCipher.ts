import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals the Baileys session of a QR line (docs/channels/whatsapp.md "QR transport"): AES-256-GCM, a fresh
 * 12-byte IV per value, stored as `iv ‖ tag ‖ ciphertext`. The row's address (channel, type, id) is the
 * additional authenticated data, so a value copied onto another row or another line fails to open, as does
 * a value sealed under another key: a loud error, never a session built from garbage. The key is derived
 * from CHANNEL_SECRETS_KEY (config.channelSecretsKey, the one api/channels/secretBox.ts uses for the other
 * channel secrets) under its own label, so the two never share a key.
 */
export interface StateCipher {
  seal(plain: string, aad: string): Buffer;
  open(sealed: Buffer, aad: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createStateCipher(secret: string): StateCipher {
  if (!secret) throw new Error('WhatsApp state key is empty');
  const key = createHash('sha256').update(`balcao-whatsapp-state:${secret}`).digest();
  return {
    seal(plain, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), ct]);
    },
    open(sealed, aad) {
      if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('sealed WhatsApp state is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('WhatsApp state could not be opened: wrong CHANNEL_SECRETS_KEY or tampered row');
      }
    },
  };
}

