import type { ChannelDeps, ChannelRecord } from '../adapter';
import { userProfile, type GraphProfile } from './client';
import type { PageLine } from './pageLine';
import { copyPicture } from './pictures';

/**
 * The customer's name and picture from the Graph API, cached per channel and person for a day so a busy
 * conversation does not ask Meta on every message; after that the next message asks again and a changed
 * name or picture replaces the stored one. A lookup Meta refuses (no consent, no permission) answers
 * nothing and is cached too, so it is not retried on every message. The picture is answered as our copy
 * (api/channels/meta/pictures.ts: Meta's CDN is blocked by our CSP); one that cannot be copied is null.
 */
const TTL_MS = 24 * 3600_000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { at: number; profile: GraphProfile | null }>();

export async function customerProfile(deps: ChannelDeps, channel: ChannelRecord, line: PageLine, userId: string, now = Date.now()): Promise<{ profile: GraphProfile | null; fresh: boolean }> {
  const key = `${channel.id}:${userId}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS) return { profile: hit.profile, fresh: false };
  let profile: GraphProfile | null = null;
  try {
    const found = await userProfile(deps.config, channel.type === 'instagram' ? 'instagram' : 'facebook', userId, line.pageToken);
    profile = { ...found, picture: await copyPicture(deps, channel.workspaceId, found.picture) };
  } catch (err) {
    deps.logger.warn({ err, channelId: channel.id }, 'meta profile lookup failed');
  }
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { at: now, profile });
  return { profile, fresh: true };
}

/** Tests: forget what was cached. */
export function clearProfileCache(): void {
  cache.clear();
}
