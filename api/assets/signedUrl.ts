import type { Config } from '../config';
import { signLink, verifyLink } from '../http/signedLink';

/** How long a download link stays valid (docs/api/inbox.md: 1 hour). */
export const DOWNLOAD_TTL_SECONDS = 3600;
// Expiry is rounded up to this step, so the same file presented twice within it gets the same URL and
// browsers can cache it; a link is therefore valid for 1 hour plus at most the step.
const EXPIRY_STEP_SECONDS = 300;

// A key of its own (http/signedLink.ts): a download signature can never pass for a token.
const PURPOSE = 'balcao:assets:download:v1';

export function downloadPath(key: string): string {
  return `/api/assets/download/${encodeURIComponent(key)}`;
}

/** An absolute, signed download URL for a stored file, valid for about an hour (messages, widget). */
export function signedDownloadUrl(config: Pick<Config, 'jwtSecret' | 'publicUrl'>, key: string, now = Date.now()): string {
  const exp = Math.ceil((now / 1000 + DOWNLOAD_TTL_SECONDS) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
  return `${config.publicUrl}${downloadPath(key)}?exp=${exp}&sig=${signLink(config.jwtSecret, PURPOSE, [key], exp)}`;
}

/** True when `sig` was made by signedDownloadUrl for this key and `exp` has not passed. */
export function verifyDownloadSignature(config: Pick<Config, 'jwtSecret'>, key: string, exp: unknown, sig: unknown, now = Date.now()): boolean {
  return verifyLink(config.jwtSecret, PURPOSE, [key], exp, sig, now);
}
