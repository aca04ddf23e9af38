import type { SnippetPart } from '../inbox/searchViews';
import type { TeamRoomKind } from './schema';

/**
 * The team chat's answers as the browser receives them (docs/team-chat.md "API"). Types only: ui/src/teamChat
 * imports this file, so it imports nothing that runs.
 */

/** A `#protocolo` of a message that the reader may open: where it links. */
export interface MentionView {
  protocol: number;
  conversationId: number;
  /** Resolved conversations open in Arquivado, the others in Inbox (as search does). */
  isFinished: boolean;
  contactName: string | null;
}

/** A room as GET /team/rooms answers it. */
export interface TeamRoomView {
  id: number;
  kind: TeamRoomKind;
  /** The group's name, the room's, or the other agent's in a direct conversation. */
  name: string;
  groupId: number | null;
  /** A group's colour. */
  icon: string | null;
  /** The other agent of a direct conversation. */
  other: { id: number; name: string; avatar: string | null } | null;
  unread: number;
  lastReadMessageId: number;
  lastMessage: { id: number; authorId: number | null; authorName: string | null; preview: string; createdAt: string; isDeleted: boolean } | null;
  createdAt: string;
  /** Whether the viewer may rename it, change its members or delete it (a created room, level 6+). */
  canManage: boolean;
}

/** A message as the API and the room's realtime events carry it. */
export interface TeamMessageView {
  id: number;
  roomId: number;
  author: { id: number; name: string; avatar: string | null } | null;
  body: string;
  file: { key: string; fileName: string; mime: string; size: number; url: string } | null;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  isDeleted: boolean;
  /** Until when its author may edit or delete it. */
  editableUntil: string;
  /**
   * The `#protocolo` mentions this reader may open (an API answer only: the room's realtime event goes to
   * every member at once, so it carries none and a client asks GET .../messages/{id} for them).
   */
  mentions?: MentionView[];
}

/** A search hit (GET /team/search). */
export interface TeamSearchHit {
  id: number;
  roomId: number;
  room: { id: number; kind: string; name: string };
  author: { id: number; name: string } | null;
  createdAt: string;
  snippet: SnippetPart[];
}
