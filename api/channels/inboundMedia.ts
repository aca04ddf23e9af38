import type { ContentItem } from '../conversations/content';
import type { ChannelDeps, ChannelRecord } from './adapter';
import { setChannelStatus } from './channelStatus';
import { textItem } from './content';
import { InboundStorageFullError, storeInboundFile } from './inboundFile';
import { MediaTooLargeError } from './providerHttp';
import { ChannelSendError } from './sendErrors';

/** What the team reads in place of a file over the 16 MB limit (SPEC §1), on every channel. */
export const MEDIA_TOO_LARGE_NOTE = 'Mídia não recebida: o arquivo tem mais de 16 MB.';

/** A file a customer sent, as downloaded from the provider. */
export interface FetchedMedia {
  bytes: Buffer;
  fileName: string;
  mime: string;
}

export interface InboundMediaOptions {
  /** What the team reads when the provider did not hand the file over. */
  unavailableNote: string;
  /**
   * `redeliver` (a webhook processed again when this throws: Telegram's, answered after processing, which
   * Telegram sends again on a non-2xx; WhatsApp Cloud's, stored before the answer, which the hook store's
   * sweep processes again): a provider refusal that means the line lost its credentials marks the channel
   * disconnected, and a transient one is thrown so the webhook is processed again. `note` (/hooks/meta):
   * every other failure becomes `unavailableNote`.
   */
  providerFailures: 'redeliver' | 'note';
  /** The warning logged for a file not received, and what it names. */
  log: { message: string; fields: Record<string, unknown> };
}

/**
 * A file a customer sent, downloaded by `fetchMedia` and kept in our storage (storeInboundFile), as the
 * message's file item; what goes wrong becomes a visible note instead, the same on every channel: over the
 * 16 MB limit (MediaTooLargeError, from the download or thrown by `fetchMedia` on the size the provider
 * announced) MEDIA_TOO_LARGE_NOTE; over the workspace's storage budget its note; otherwise (see
 * `providerFailures`) the warning is logged and `unavailableNote` shown.
 */
export async function storeInboundMedia(
  deps: Pick<ChannelDeps, 'knex' | 'logger' | 'publisher' | 'config'>,
  channel: ChannelRecord,
  fetchMedia: () => Promise<FetchedMedia>,
  options: InboundMediaOptions,
): Promise<ContentItem> {
  try {
    const media = await fetchMedia();
    return { file: await storeInboundFile(deps, { workspaceId: channel.workspaceId, channelId: channel.id }, media) };
  } catch (err) {
    if (err instanceof MediaTooLargeError) return textItem(MEDIA_TOO_LARGE_NOTE);
    if (err instanceof InboundStorageFullError) return textItem(err.note);
    if (options.providerFailures === 'redeliver' && err instanceof ChannelSendError) {
      if (err.disconnect) await setChannelStatus(deps, channel, 'disconnected');
      if (err.transient) throw err;
    }
    deps.logger.warn({ err, ...options.log.fields }, options.log.message);
    return textItem(options.unavailableNote);
  }
}
