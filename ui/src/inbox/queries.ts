import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { inboxKeys } from './queryKeys';
import { fetchAgents, fetchConversation, fetchConversations, fetchCounter, fetchActiveBots, fetchGroups, fetchMessages, fetchTags } from './inboxApi';
import { findInList, type ListData, type MessageData, type StoredMessagePage } from './cache';
import { INBOX } from './constants';
import { channelsApi } from '../settings/channels/channelsApi';
import { channelsKey } from '../settings/channels/channelKeys';
import type { Conversation, ConversationPage } from './types';

/** Live events keep these fresh; a refetch is only a safety net (and the Refresh button). */
const LIVE_STALE_MS = 60_000;

export function useConversationList(segment: string, query: string) {
  return useInfiniteQuery<ConversationPage, Error, ListData, ReturnType<typeof inboxKeys.list>, string | null>({
    queryKey: inboxKeys.list(segment, query),
    queryFn: ({ pageParam, signal }) =>
      fetchConversations({ segmentId: segment, limit: pageParam ? INBOX.nextPage : INBOX.firstPage, cursor: pageParam, query: query || undefined }, signal),
    initialPageParam: null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: LIVE_STALE_MS,
    enabled: segment !== '',
  });
}

/**
 * The workspace's channels; every member may read them (the first run asks whether there is any). The same
 * cache as the settings' channel list, so adding or deleting a channel there is seen here at once.
 */
export function useWorkspaceChannels(enabled = true) {
  return useQuery({ queryKey: channelsKey, queryFn: channelsApi.list, staleTime: 30_000, enabled });
}

export function useInboxCounter(enabled = true) {
  return useQuery({ queryKey: inboxKeys.counter(), queryFn: ({ signal }) => fetchCounter(signal), staleTime: LIVE_STALE_MS, enabled, retry: 1 });
}

/** SPEC §2 header: the unread dot on 'Mensagens' when any visible open conversation has new messages. */
export function useHasUnread(): boolean {
  const { data } = useInboxCounter();
  return (data?.all ?? 0) > 0;
}

export function useConversation(id: number | undefined) {
  const qc = useQueryClient();
  return useQuery<Conversation>({
    queryKey: inboxKeys.conversation(id ?? 0),
    queryFn: ({ signal }) => fetchConversation(id!, signal),
    enabled: Boolean(id),
    staleTime: LIVE_STALE_MS,
    // The list row is shown at once while the detail loads.
    placeholderData: () => {
      if (!id) return undefined;
      for (const [, data] of qc.getQueriesData<ListData>({ queryKey: inboxKeys.lists() })) {
        const hit = findInList(data, id);
        if (hit) return hit;
      }
      return undefined;
    },
    retry: (count, error) => (error as { status?: number }).status !== 404 && count < 2,
  });
}

export function useMessages(id: number | undefined) {
  return useInfiniteQuery<StoredMessagePage, Error, MessageData, ReturnType<typeof inboxKeys.messages>, number | undefined>({
    queryKey: inboxKeys.messages(id ?? 0),
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchMessages({ id: id!, limit: INBOX.messagesPage, before: pageParam }, signal);
      const oldest = page.data[page.data.length - 1];
      return { ...page, hasMore: page.data.length >= INBOX.messagesPage, oldestId: oldest?.id ?? null };
    },
    initialPageParam: undefined,
    getNextPageParam: (last) => (last.hasMore && last.oldestId ? last.oldestId : undefined),
    enabled: Boolean(id),
    staleTime: LIVE_STALE_MS,
  });
}

const REFERENCE_STALE_MS = 5 * 60_000;
/** Tags, members and groups for the conversation menus; an area not built yet just gives an empty menu. */
export const useTags = () => useQuery({ queryKey: inboxKeys.tags(), queryFn: ({ signal }) => fetchTags(signal), staleTime: REFERENCE_STALE_MS, retry: false });
export const useAgents = () => useQuery({ queryKey: inboxKeys.agents(), queryFn: ({ signal }) => fetchAgents(signal), staleTime: REFERENCE_STALE_MS, retry: false });
export const useActiveBots = () => useQuery({ queryKey: inboxKeys.bots(), queryFn: ({ signal }) => fetchActiveBots(signal), staleTime: REFERENCE_STALE_MS, retry: false });
export const useGroups = () => useQuery({ queryKey: inboxKeys.groups(), queryFn: ({ signal }) => fetchGroups(signal), staleTime: REFERENCE_STALE_MS, retry: false });

