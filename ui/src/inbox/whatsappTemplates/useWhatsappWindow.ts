import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../providers/httpClient';
import { useRealtimeEvent } from '../../realtime/RealtimeProvider';
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
  const enabled = conversation.platformId === Platform.WHATSAPP;
  const query = useQuery({
    queryKey: whatsappWindowKey(conversation.id),
    queryFn: ({ signal }) => api<WhatsappWindow>(`/inbox/whatsapp-window/${conversation.id}`, { signal }),
    enabled,
    staleTime: 60_000,
  });
  const { refetch } = query;
  useRealtimeEvent((event) => {
    if (!enabled || event.event !== 'chat.newMessage') return;
    const message = (event.data as { message?: { sender?: string; customerPlatformId?: number } } | null)?.message;
    if (message?.sender === 'customer' && message.customerPlatformId === conversation.id) void refetch();
  });
  useEffect(() => {
    if (enabled) void refetch();
  }, [enabled, conversation.lastMessageAt, refetch]);
  const closesAt = query.data?.open && query.data.cloud && query.data.closesAt ? Date.parse(query.data.closesAt) : null;
  useEffect(() => {
    if (closesAt === null) return;
    // setTimeout takes at most ~24.8 days; a window closes within 24 h.
    const id = setTimeout(() => void refetch(), Math.max(0, closesAt - Date.now()) + 1000);
    return () => clearTimeout(id);
  }, [closesAt, refetch]);
  return enabled ? query.data : undefined;
}
