import type { ChannelAdapter } from '../adapter';
import { sendThroughPage } from '../meta/send';

/**
 * Instagram Direct of a professional account linked to a connected page (docs/channels/meta.md): the same
 * webhook and Send API as Messenger, through the page's token. SPEC §4: agents may reply quoted; no delete.
 */
export const instagramAdapter: ChannelAdapter = {
  type: 'instagram',
  canReply: true,
  canDelete: false,
  remote: true,
  send: sendThroughPage,
};
