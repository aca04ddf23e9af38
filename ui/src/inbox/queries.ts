import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { inboxKeys } from './queryKeys';
import { fetchAgents, fetchConversation, fetchConversations, fetchCounter, fetchActiveBots, fetchGroups, fetchMessages, fetchTags } from './inboxApi';
import { anchoredData, findInList, newestData, type ListData, type MessageData, type MessagePageParam, type StoredMessagePage } from './cache';
import { INBOX } from './constants';
import { channelsApi } from '../settings/channels/channelsApi';
import { channelsKey } from '../settings/channels/channelKeys';
import { MESSAGES_AROUND_NEWER } from '../../../api/conversations/limits';
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

/**
 * One page of a conversation's messages (newest first) and what it tells about its neighbours: `hasMore`
 * older ones (a full page), and on an `after` or `around` page `hasNewer` ones. An `around` page without the
 * message (not a message of this conversation) comes back empty.
 */
async function fetchMessagePage(id: number, param: MessagePageParam, signal?: AbortSignal): Promise<StoredMessagePage> {
  const limit = INBOX.messagesPage;
  const page = await fetchMessages({ id, limit, ...param }, signal);
  const rows = page.data;
  const edges = { oldestId: rows[rows.length - 1]?.id ?? null, newestId: rows[0]?.id ?? null };
  if (param === undefined) return { ...page, ...edges, hasMore: rows.length >= limit, hasNewer: false };
  if ('before' in param) return { ...page, ...edges, hasMore: rows.length >= limit };
  if ('after' in param) return { ...page, ...edges, hasMore: true, hasNewer: rows.length >= limit };
  const at = rows.findIndex((m) => m.id === param.around);
  if (at < 0) return { data: [], matchCount: page.matchCount, hasMore: false, hasNewer: false, oldestId: null, newestId: null };
  const newer = Math.min(MESSAGES_AROUND_NEWER, limit - 1);
  return { ...page, ...edges, hasMore: rows.length - at >= limit - newer, hasNewer: at >= newer };
}

/**
 * A conversation's messages: pages newest first, the next page older (`before`). A view opened on an older
 * message (openMessagesAt) also has previous pages, newer (`after`), until the newest is loaded.
 */
export function useMessages(id: number | undefined) {
  return useInfiniteQuery<StoredMessagePage, Error, MessageData, ReturnType<typeof inboxKeys.messages>, MessagePageParam>({
    queryKey: inboxKeys.messages(id ?? 0),
    queryFn: ({ pageParam, signal }) => fetchMessagePage(id!, pageParam, signal),
    initialPageParam: undefined,
    getNextPageParam: (last) => (last.hasMore && last.oldestId ? { before: last.oldestId } : undefined),
    getPreviousPageParam: (first) => (first.hasNewer && first.newestId ? { after: first.newestId } : undefined),
    enabled: Boolean(id),
    staleTime: LIVE_STALE_MS,
  });
}

/**
 * Replaces the loaded messages by the page around one message (docs/search.md "Opening a hit"). False when
 * it is not a message of this conversation: nothing changes then.
 */
export async function openMessagesAt(qc: QueryClient, id: number, messageId: number): Promise<boolean> {
  const page = await fetchMessagePage(id, { around: messageId });
  if (page.data.length === 0) return false;
  const key = inboxKeys.messages(id);
  // A page still loading for the old window must not land in the new one.
  await qc.cancelQueries({ queryKey: key, exact: true });
  // Among the newest messages the page is the newest page: a refetch then reads the newest, like any.
  qc.setQueryData<MessageData>(key, (old) => anchoredData(page, page.hasNewer ? { around: messageId } : undefined, old));
  return true;
}

/** Back to the live end: the newest page replaces an anchored window, with what arrived meanwhile. */
export async function openNewestMessages(qc: QueryClient, id: number): Promise<void> {
  const page = await fetchMessagePage(id, undefined);
  const key = inboxKeys.messages(id);
  await qc.cancelQueries({ queryKey: key, exact: true });
  qc.setQueryData<MessageData>(key, (old) => newestData(page, old));
}

const REFERENCE_STALE_MS = 5 * 60_000;
/** Tags, members and groups for the conversation menus; an area not built yet just gives an empty menu. */
export const useTags = () => useQuery({ queryKey: inboxKeys.tags(), queryFn: ({ signal }) => fetchTags(signal), staleTime: REFERENCE_STALE_MS, retry: false });
export const useAgents = () => useQuery({ queryKey: inboxKeys.agents(), queryFn: ({ signal }) => fetchAgents(signal), staleTime: REFERENCE_STALE_MS, retry: false });
export const useActiveBots = () => useQuery({ queryKey: inboxKeys.bots(), queryFn: ({ signal }) => fetchActiveBots(signal), staleTime: REFERENCE_STALE_MS, retry: false });
export const useGroups = () => useQuery({ queryKey: inboxKeys.groups(), queryFn: ({ signal }) => fetchGroups(signal), staleTime: REFERENCE_STALE_MS, retry: false });

