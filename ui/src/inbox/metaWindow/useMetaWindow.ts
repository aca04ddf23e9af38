import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../providers/httpClient';
import { useRealtimeEvent } from '../../realtime/RealtimeProvider';
import { Platform } from '../constants';
import type { Conversation } from '../types';

/** GET /inbox/meta-window/{id} (docs/channels/meta.md "The window in the composer"). */
export interface MetaWindow {
  kind: 'open' | 'human_agent' | 'closed';
  platform: 'facebook' | 'instagram';
  /** End of the current stretch (24 h for open, 7 days for human_agent); null when closed. */
  closesAt: string | null;
  reason: string | null;
  lastCustomerMessageAt: string | null;
  humanAgentTag: boolean;
}

export const metaWindowKey = (id: number) => ['inbox', 'meta-window', id] as const;

const isMeta = (platformId: number) => platformId === Platform.FACEBOOK || platformId === Platform.INSTAGRAM;

/**
 * Meta's messaging window of a Messenger or Instagram conversation, for the composer. Read again when the
 * customer writes in it (live `chat.newMessage`), when the conversation's last message changes, and when the
 * current stretch ends while the conversation is open (24 h → HUMAN_AGENT or closed, 7 days → closed).
 * Other channels never ask.
 */
export function useMetaWindow(conversation: Pick<Conversation, 'id' | 'platformId' | 'lastMessageAt'>): MetaWindow | undefined {
  const enabled = isMeta(conversation.platformId);
  const query = useQuery({
    queryKey: metaWindowKey(conversation.id),
    queryFn: ({ signal }) => api<MetaWindow>(`/inbox/meta-window/${conversation.id}`, { signal }),
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
  const closesAt = query.data?.closesAt ? Date.parse(query.data.closesAt) : null;
  useEffect(() => {
    if (closesAt === null || Number.isNaN(closesAt)) return;
    // setTimeout takes at most ~24.8 days; a stretch ends within 7 days.
    const id = setTimeout(() => void refetch(), Math.max(0, closesAt - Date.now()) + 1000);
    return () => clearTimeout(id);
  }, [closesAt, refetch]);
  return enabled ? query.data : undefined;
}
