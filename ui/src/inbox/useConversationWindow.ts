import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../providers/httpClient';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import type { Conversation } from './types';

/**
 * A channel's messaging window of one conversation (WhatsApp Cloud's 24 hours, Meta's 24 hours / 7 days), for
 * the composer. Read again when the customer writes in it (live `chat.newMessage`; a provider's timestamp may
 * be older than our last reply, so lastMessageAt alone does not tell), when the conversation's last message
 * changes, and when the current stretch ends (`closesAtOf`) while the conversation is open. Disabled: never asks.
 */
export function useConversationWindow<T>(
  conversation: Pick<Conversation, 'id' | 'lastMessageAt'>,
  options: { enabled: boolean; key: readonly unknown[]; path: string; closesAtOf: (data: T) => string | null },
): T | undefined {
  const { enabled } = options;
  const query = useQuery({
    queryKey: options.key,
    queryFn: ({ signal }) => api<T>(options.path, { signal }),
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
  const end = query.data === undefined ? null : options.closesAtOf(query.data);
  const closesAt = end ? Date.parse(end) : null;
  useEffect(() => {
    if (closesAt === null || Number.isNaN(closesAt)) return;
    // setTimeout takes at most ~24.8 days; a stretch ends within 7 days.
    const id = setTimeout(() => void refetch(), Math.max(0, closesAt - Date.now()) + 1000);
    return () => clearTimeout(id);
  }, [closesAt, refetch]);
  return enabled ? query.data : undefined;
}
