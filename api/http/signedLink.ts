import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed links (file downloads, an e-mail's HTML view, a campaign report opened in a new
 * window): an HMAC-SHA256, base64url, of the link's fields and its expiry (unix seconds), one per line.
 * Each kind of link signs with a key of its own, derived from the JWT secret and the kind's `purpose`,
 * so one kind's signature never passes for another's or for a token.
 */
function keyOf(jwtSecret: string, purpose: string): Buffer {
  return createHmac('sha256', jwtSecret).update(purpose).digest();
}

/** The signature of `fields` and `exp` for links of `purpose`. */
export function signLink(jwtSecret: string, purpose: string, fields: readonly (string | number)[], exp: number): string {
  return createHmac('sha256', keyOf(jwtSecret, purpose))
    .update([...fields, exp].join('\n'))
    .digest('base64url');
}

/**
 * True when `sig` is signLink's signature of these fields and `exp`, and `exp` (1 to 12 digits, as it
 * arrives in a query string) has not passed. Compared in constant time.
 */
export function verifyLink(jwtSecret: string, purpose: string, fields: readonly (string | number)[], exp: unknown, sig: unknown, now = Date.now()): boolean {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^[0-9]{1,12}$/.test(exp)) return false;
  const expiry = Number(exp);
  if (expiry * 1000 <= now) return false;
  const expected = Buffer.from(signLink(jwtSecret, purpose, fields, expiry));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A link for one row of one workspace opened in a new window (a contract's file): the `authorization`
 * query value `{workspaceId}.{exp}.{sig}`, valid `ttlSeconds`.
 */
export function signRowAuthorization(jwtSecret: string, purpose: string, workspaceId: number, rowId: number, ttlSeconds: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  return `${workspaceId}.${exp}.${signLink(jwtSecret, purpose, [workspaceId, rowId], exp)}`;
}

/** The workspace a valid, unexpired signRowAuthorization value was made for (and for this row), else undefined. */
export function verifyRowAuthorization(jwtSecret: string, purpose: string, rowId: number, value: unknown, now = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([0-9]{1,10})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return undefined;
  const workspaceId = Number(m[1]);
  return verifyLink(jwtSecret, purpose, [workspaceId, rowId], m[2], m[3], now) ? workspaceId : undefined;
}
