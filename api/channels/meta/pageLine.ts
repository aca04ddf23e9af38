import type { Config } from '../../config';
import type { ChannelRecord } from '../adapter';
import { openSecret } from '../secretBox';

/**
 * What a Facebook or Instagram channel keeps in channels.config: the page (an Instagram account is
 * reached through its page's token) and the page token sealed (api/channels/secretBox.ts).
 */
export interface PageLineConfig {
  pageId: string;
  pageName: string;
  pageTokenSealed: string;
  /** Instagram channels only. */
  instagramAccountId?: string;
  username?: string | null;
}

export interface PageLine {
  pageId: string;
  pageToken: string;
  instagramAccountId?: string;
}

export function isPageLineConfig(config: Record<string, unknown>): config is Record<string, unknown> & PageLineConfig {
  return typeof config.pageId === 'string' && typeof config.pageTokenSealed === 'string';
}

export function pageLineOf(config: Pick<Config, 'channelSecretsKey'>, channel: Pick<ChannelRecord, 'config'>): PageLine | undefined {
  const c = channel.config;
  if (!isPageLineConfig(c)) return undefined;
  return { pageId: c.pageId, pageToken: openSecret(config, c.pageTokenSealed), instagramAccountId: c.instagramAccountId };
}

/** The public routing key of a channel: the page id or Instagram account id Meta's webhook entries carry. */
export const facebookIdentifier = (pageId: string) => `facebook:${pageId}`;
export const instagramIdentifier = (accountId: string) => `instagram:${accountId}`;
