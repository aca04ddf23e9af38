import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';

/**
 * The proof of work a widget channel under a burst of first contacts asks of new visitors (docs/widget.md
 * "Proof of work"). Stateless: the token carries a random nonce, the difficulty and its expiry, signed
 * with a key derived from the server secret, so any api node can check it. The solution is a decimal
 * counter such that SHA-256(nonce + counter) starts with `difficulty` zero bits; the widget finds it in
 * ui/widget/pow.ts. That a token is spent is remembered by the caller until it expires (limits.ts).
 */

/** Leading zero bits asked for: about 260 000 hashes, 0.1–0.5 s in a browser tab (docs/widget.md). */
export const CHALLENGE_DIFFICULTY = 18;
/** How long a challenge may be solved and sent back. */
export const CHALLENGE_TTL_MS = 2 * 60_000;

const TOKEN = /^([A-Za-z0-9_-]{22})\.([0-9]{1,2})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;
const COUNTER = /^[0-9]{1,15}$/;

// A key of its own, derived from the JWT secret: a challenge signature can never pass for anything else.
function signingKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('balcao:widget:challenge:v1').digest();
}

function signature(secret: string, nonce: string, difficulty: number, expires: number, channelId: number): string {
  return createHmac('sha256', signingKey(secret)).update(`${nonce}.${difficulty}.${expires}.${channelId}`).digest('base64url');
}

/** A new challenge for one channel: `<nonce>.<difficulty>.<expires, unix s>.<signature>`. */
export function issueChallenge(
  config: Pick<Config, 'jwtSecret'>,
  channelId: number,
  options: { difficulty?: number; now?: number; ttlMs?: number } = {},
): string {
  const difficulty = options.difficulty ?? CHALLENGE_DIFFICULTY;
  const expires = Math.ceil(((options.now ?? Date.now()) + (options.ttlMs ?? CHALLENGE_TTL_MS)) / 1000);
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${difficulty}.${expires}.${signature(config.jwtSecret, nonce, difficulty, expires, channelId)}`;
}

export function leadingZeroBits(hash: Buffer): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export type SolutionCheck = { ok: true; nonce: string; expiresAt: number } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Whether `counter` solves `token` for this channel: made by this server for this channel (signature),
 * not expired, and the hash has the zero bits. Spent tokens are the caller's to refuse.
 */
export function checkSolution(config: Pick<Config, 'jwtSecret'>, channelId: number, token: string, counter: string, now = Date.now()): SolutionCheck {
  const m = TOKEN.exec(token);
  if (!m || !COUNTER.test(counter)) return { ok: false, reason: 'invalid' };
  const [, nonce, bits, exp, sig] = m as unknown as [string, string, string, string, string];
  const difficulty = Number(bits);
  const expires = Number(exp);
  const expected = Buffer.from(signature(config.jwtSecret, nonce, difficulty, expires, channelId));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (expires * 1000 <= now) return { ok: false, reason: 'expired' };
  if (leadingZeroBits(createHash('sha256').update(nonce + counter).digest()) < difficulty) return { ok: false, reason: 'invalid' };
  return { ok: true, nonce, expiresAt: expires * 1000 };
}
