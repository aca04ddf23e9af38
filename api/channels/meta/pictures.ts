import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { guardedFetch } from '../../http/guardedFetch';
import { createStorage } from '../../storage/storage';
import { AVATAR_KEY_PREFIX, avatarUrl, saveAvatar } from '../../avatars/saveAvatar';
import { AVATAR_MIMES, avatarImageType } from '../../avatars/imageType';
import { MAX_AVATAR_BYTES } from '../../avatars/receiveAvatar';

/**
 * Pictures Meta hands us (a page's picture, an Instagram account's, a customer's profile picture) are URLs
 * on Meta's CDN, which the app's CSP (`img-src 'self' data: blob:`) does not let the browser load. They are
 * copied into our storage as avatars of the workspace and served from our origin by their unguessable key
 * (`GET /api/avatars/:key`, api/avatars/router.ts), docs/channels/meta.md "Pictures".
 *
 * The download goes through the SSRF-guarded client (https, public addresses, no redirects), at most
 * 1 MB (the avatar limit) in 10 s, and only a PNG, JPEG, GIF or WebP (announced as an image and
 * recognised by its first bytes) is kept. Anything else answers null: the screen shows the letter avatar,
 * nobody sees an error.
 */
const TIMEOUT_MS = 10_000;
export const MAX_PICTURE_BYTES = MAX_AVATAR_BYTES;
const MAX_URL_LENGTH = 4096;

/** What a copy needs: the database and store, where our URLs point, somewhere to note failures. */
export interface PictureDeps {
  knex: Knex;
  config: Pick<Config, 'dataDir' | 'publicUrl'>;
  logger: Pick<Logger, 'warn'>;
}

let loopbackAllowed = false;

/**
 * Tests serve Meta's "CDN" over http on loopback (test/fakes/metaMessaging.ts). Only test code calls this;
 * nothing in the app or its configuration turns it on.
 */
export function allowLoopbackMetaPicturesForTests(allowed: boolean): void {
  loopbackAllowed = allowed;
}

/** Copies already made by this process, per workspace and source URL, for an hour (the chooser is opened again and again). */
const CACHE_MS = 3600_000;
const CACHE_MAX = 5_000;
const copies = new Map<string, { at: number; url: string }>();

/** Tests: forget the copies this process remembers (the stored files stay). */
export function clearPictureCopies(): void {
  copies.clear();
}

async function download(url: string, timeoutMs: number): Promise<{ bytes: Buffer; mime: string }> {
  const res = await guardedFetch(url, { method: 'GET', headers: { accept: 'image/png,image/jpeg,image/gif,image/webp' } }, { timeoutMs, maxBytes: MAX_PICTURE_BYTES, allowLoopbackForTests: loopbackAllowed });
  if (res.status !== 200) throw new Error(`picture answered HTTP ${res.status}`);
  const announced = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const mime = avatarImageType(res.body);
  if (!announced.startsWith('image/') || !mime || !AVATAR_MIMES.has(mime)) throw new Error(`picture is not a PNG, JPEG, GIF or WebP image (${announced || 'no content-type'})`);
  return { bytes: res.body, mime };
}

/**
 * The picture at `url` as a URL of ours, stored as an avatar of `workspaceId` (the same bytes already
 * stored for the workspace are reused), or null when there is no picture or it could not be copied.
 */
export async function copyPicture(deps: PictureDeps, workspaceId: number, url: string | null | undefined, timeoutMs = TIMEOUT_MS): Promise<string | null> {
  if (!url || url.length > MAX_URL_LENGTH) return null;
  const cacheKey = `${workspaceId}\n${url}`;
  const hit = copies.get(cacheKey);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.url;
  try {
    const picture = await download(url, timeoutMs);
    const sha256 = createHash('sha256').update(picture.bytes).digest('hex');
    const same = await deps.knex('stored_files').where({ workspaceId, sha256, mime: picture.mime }).whereRaw("key LIKE 'av\\_%'").first('key');
    const ours =
      same && String(same.key).startsWith(AVATAR_KEY_PREFIX)
        ? avatarUrl(deps.config, String(same.key))
        : await saveAvatar({ knex: deps.knex, storage: createStorage(deps.config), config: deps.config }, { bytes: picture.bytes, fileName: `meta-picture.${picture.mime.slice(6)}` }, { workspaceId, operatorId: null });
    if (copies.size >= CACHE_MAX) copies.delete(copies.keys().next().value as string);
    copies.set(cacheKey, { at: Date.now(), url: ours });
    return ours;
  } catch (err) {
    deps.logger.warn({ err, workspaceId }, 'meta picture not copied');
    return null;
  }
}

/**
 * copyPicture over a list (the page chooser), a few at a time, each picture given 5 s; no new download
 * starts after `budgetMs`, so a slow CDN delays the list by seconds, not minutes (the rest stay null).
 */
export async function copyPictures(deps: PictureDeps, workspaceId: number, urls: (string | null | undefined)[], budgetMs = 8_000, concurrency = 4): Promise<(string | null)[]> {
  const out: (string | null)[] = new Array<string | null>(urls.length).fill(null);
  const deadline = Date.now() + budgetMs;
  let next = 0;
  const worker = async () => {
    while (next < urls.length && Date.now() < deadline) {
      const i = next++;
      out[i] = await copyPicture(deps, workspaceId, urls[i], 5_000);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  return out;
}
