import type { ChannelAdapter } from '../adapter';
import { sendThroughPage } from '../meta/send';

/**
 * Facebook Messenger pages (docs/channels/meta.md). Inbound comes through the shared Meta webhook
 * (api/channels/meta/router.ts); agent messages go through the outbound delivery path (remote: true).
 * SPEC §4: no quoted reply and no delete on Messenger.
 */
export const facebookAdapter: ChannelAdapter = {
  type: 'facebook',
  canReply: false,
  canDelete: false,
  remote: true,
  send: sendThroughPage,
};
