import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config';

/**
 * Secrets a channel stores (access tokens, app secrets): AES-256-GCM under a key derived from
 * CHANNEL_SECRETS_KEY (or the one generated in DATA_DIR). Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url;
 * the tag makes a tampered or foreign value fail to open instead of decrypting to garbage.
 */
const VERSION = 'v1';

function keyOf(config: Pick<Config, 'channelSecretsKey'>): Buffer {
  return createHash('sha256').update(`balcao-channel-secrets:${config.channelSecretsKey}`).digest();
}

export function sealSecret(config: Pick<Config, 'channelSecretsKey'>, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function openSecret(config: Pick<Config, 'channelSecretsKey'>, sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('sealed channel secret has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
