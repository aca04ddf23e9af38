import { useConversationWindow } from '../useConversationWindow';
import { Platform } from '../constants';
import type { Conversation } from '../types';

/** GET /inbox/whatsapp-window/{id} (docs/channels/whatsapp.md "Templates outside the 24-hour window"). */
export interface WhatsappWindow {
  cloud: boolean;
  open: boolean;
  lastCustomerMessageAt: string | null;
  closesAt: string | null;
}

export const whatsappWindowKey = (id: number) => ['inbox', 'whatsapp-window', id] as const;

/**
 * Whether a WhatsApp conversation is outside its 24-hour window on a Cloud API line (then only approved
 * templates go out). Read again when the customer writes in it (live `chat.newMessage`; its time is
 * WhatsApp's, which may be older than our last reply, so lastMessageAt alone does not tell), when the
 * conversation's last message changes, and when the window closes while the conversation is open.
 * Other channels never ask.
 */
export function useWhatsappWindow(conversation: Pick<Conversation, 'id' | 'platformId' | 'lastMessageAt'>): WhatsappWindow | undefined {
  return useConversationWindow<WhatsappWindow>(conversation, {
    enabled: conversation.platformId === Platform.WHATSAPP,
    key: whatsappWindowKey(conversation.id),
    path: `/inbox/whatsapp-window/${conversation.id}`,
    closesAtOf: (w) => (w.open && w.cloud ? w.closesAt : null),
  });
}
