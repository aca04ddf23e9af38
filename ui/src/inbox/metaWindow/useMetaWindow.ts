import type { MetaWindow } from '../../../../api/channels/meta/windowView';
import { useConversationWindow } from '../useConversationWindow';
import { Platform } from '../constants';
import type { Conversation } from '../types';

/** GET /inbox/meta-window/{id} (docs/channels/meta.md "The window in the composer"), as the api presents it. */
export type { MetaWindow };

export const metaWindowKey = (id: number) => ['inbox', 'meta-window', id] as const;

const isMeta = (platformId: number) => platformId === Platform.FACEBOOK || platformId === Platform.INSTAGRAM;

/**
 * Meta's messaging window of a Messenger or Instagram conversation, for the composer. Read again when the
 * customer writes in it (live `chat.newMessage`), when the conversation's last message changes, and when the
 * current stretch ends while the conversation is open (24 h → HUMAN_AGENT or closed, 7 days → closed).
 * Other channels never ask.
 */
export function useMetaWindow(conversation: Pick<Conversation, 'id' | 'platformId' | 'lastMessageAt'>): MetaWindow | undefined {
  return useConversationWindow<MetaWindow>(conversation, {
    enabled: isMeta(conversation.platformId),
    key: metaWindowKey(conversation.id),
    path: `/inbox/meta-window/${conversation.id}`,
    closesAtOf: (w) => w.closesAt,
  });
}
