/**
 * The JSON views of GET /inbox/search (docs/search.md), in a module without run-time imports: the UI reads
 * them as its types (ui/src/search/searchApi.ts), so the two cannot drift apart.
 */
import type { ConversationView } from '../conversations/views';
import type { MessageSender } from '../models/Message';

/** A piece of a snippet; `match` pieces are the matched words. Plain text: the UI renders it as text. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

export interface MessageHit {
  id: number;
  conversationId: number;
  type: number;
  sender: MessageSender;
  createdAt: Date;
  snippet: SnippetPart[];
  conversation: ConversationView;
}

export interface SearchResult {
  query: string;
  page: number;
  conversations: { data: ConversationView[]; hasMore: boolean };
  messages: { data: MessageHit[]; hasMore: boolean };
}
