import { request } from '../providers/httpClient';
import type { Conversation } from '../inbox/types';
import type { Wire } from '../providers/wire';
import type { MessageHit as MessageHitView, SearchResult, SnippetPart as SnippetPartView } from '../../../api/inbox/searchViews';

/** GET /api/inbox/search (docs/search.md): the api's views as the browser receives them. A snippet is plain text in parts; `match` parts are the matched words. */
export type SnippetPart = SnippetPartView;
export type MessageHit = Wire<MessageHitView>;
export type SearchPage = Wire<SearchResult>;

export async function fetchSearch(q: string, page: number, signal?: AbortSignal): Promise<SearchPage> {
  const res = await request(`/api/inbox/search?${new URLSearchParams({ q, page: String(page) }).toString()}`, { signal });
  const json = res.json as Partial<SearchPage> | undefined;
  return {
    query: json?.query ?? q,
    page: json?.page ?? page,
    conversations: json?.conversations ?? { data: [], hasMore: false },
    messages: json?.messages ?? { data: [], hasMore: false },
  };
}

/** Where a result opens: the conversation in the segment that lists it, and the message to scroll to. */
export function conversationPath(c: Pick<Conversation, 'id' | 'isFinished'>, messageId?: number): string {
  return `/inbox/${c.isFinished ? 'archived' : 'all'}/${c.id}${messageId ? `?message=${messageId}` : ''}`;
}

/** The search page for a term (the header's box and the inbox list's Enter lead here). */
export const searchPath = (q: string) => `/search?${new URLSearchParams({ q: q.trim() }).toString()}`;
